#!/usr/bin/env bash
# make bench, network part: simulator speed in router-cycles per second on one core, UR 0.3,
# seed 1, for small, mid and paper with doar and min. Each run is made twice in this invocation:
# cycle by cycle (--block 1, the baseline) and with the default blocks (a router runs several
# cycles before the next; the same results, docs/network.md "Speed"), alternating, best of
# REPEAT (default 3) each because other jobs on the machine make single runs vary.
# Lines: bench: config=C routing=R block=1|auto speed=N router-cycles/s [ratio=X]
# Last line: bench: sim configs=N runs=M
# Usage: scripts/bench_sim.sh DOAR [REPEAT]
set -u
DOAR=${1:?usage: scripts/bench_sim.sh DOAR [REPEAT]}
REPEAT=${2:-3}
[ -x "$DOAR" ] || { echo "bench_sim: $DOAR is not executable" >&2; exit 2; }
case $REPEAT in ''|*[!0-9]*|0) echo "bench_sim: REPEAT '$REPEAT': expected a count >= 1" >&2; exit 2;; esac
speed() {  # CONFIG ROUTING BLOCK PHASES: router-cycles/s of the warm-up and sample of one run
  local out
  out=$("$DOAR" sim "$1" --routing "$2" --traffic ur --rate 0.3 --seed 1 --quiet --block "$3" $4) || return 1
  # whole-run figures (drain included): cycles * routers / time
  echo "$out" | sed -nE 's/^sim: cycles=.* speed=([0-9]+) .*/\1/p'
}
runs=0 configs=0
for c in small mid paper; do
  case $c in paper) ph="--warmup 500 --sample 500";; *) ph="--warmup 2000 --sample 2000";; esac
  configs=$((configs + 1))
  for r in doar min; do
    best1=0 bestb=0
    for i in $(seq "$REPEAT"); do
      s=$(speed $c $r 1 "$ph") || { echo "bench_sim: $c $r --block 1 failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$best1" ] && best1=$s
      s=$(speed $c $r 0 "$ph") || { echo "bench_sim: $c $r failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$bestb" ] && bestb=$s
      runs=$((runs + 2))
    done
    echo "bench: config=$c routing=$r block=1 speed=$best1 router-cycles/s"
    echo "bench: config=$c routing=$r block=auto speed=$bestb router-cycles/s ratio=$(awk -v a="$bestb" -v b="$best1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  done
done
echo "bench: sim configs=$configs runs=$runs"
