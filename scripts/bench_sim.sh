#!/usr/bin/env bash
# make bench, network part: simulator speed in router-cycles per second on one core, UR 0.3,
# seed 1, for small, mid and paper with doar and min. Each run is made in this invocation
# cycle by cycle (--block 1, the baseline) and with the default blocks (a router runs several
# cycles before the next; the same results, docs/network.md "Speed"), alternating, best of
# REPEAT (default 3) each because other jobs on the machine make single runs vary; the blocked
# run once more with glibc's malloc on transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
# as make reproduce runs). Ratios are against the cycle-by-cycle run of the same invocation.
# Lines: bench: config=C routing=R block=1|auto [hugepages=1] speed=N router-cycles/s [ratio=X]
# Then the internal speed-up (router v2, docs/architecture.md "Router v2"): doar on mid and paper,
# UR 0.3, default blocks, S = 1 and S = 2 alternating in this invocation, best of REPEAT each; the
# ratio is S = 2 against S = 1. With BENCH_BASELINE=PATH (a doar built from an older commit, e.g.
# the v1 router) that binary runs alternately too and the ratio against it is printed. paired= is
# the median over the rounds of each round's ratio (S = 2 against the S = 1 run just before it,
# and against the mean of the baseline runs on either side of it): steadier than best-of ratios
# when other jobs make the machine's speed swing.
# Lines: bench: config=C routing=doar speedup=S speed=N router-cycles/s [ratio=X paired=Y]
#        bench: config=C routing=doar baseline=PATH speed=N router-cycles/s speedup2_vs_baseline=X paired=Y
# Last line: bench: sim configs=N runs=M
# Usage: [BENCH_BASELINE=PATH] scripts/bench_sim.sh DOAR [REPEAT]
set -u
DOAR=${1:?usage: scripts/bench_sim.sh DOAR [REPEAT]}
REPEAT=${2:-3}
[ -x "$DOAR" ] || { echo "bench_sim: $DOAR is not executable" >&2; exit 2; }
case $REPEAT in ''|*[!0-9]*|0) echo "bench_sim: REPEAT '$REPEAT': expected a count >= 1" >&2; exit 2;; esac
speed() {  # CONFIG ROUTING BLOCK PHASES [ENV [BINARY]]: router-cycles/s of one run
  local out phases envs
  read -ra phases <<<"$4"; read -ra envs <<<"${5:-}"   # option and VAR=value lists, split on blanks
  out=$(env "${envs[@]}" "${6:-$DOAR}" sim "$1" --routing "$2" --traffic ur --rate 0.3 --seed 1 --quiet --block "$3" "${phases[@]}") || return 1
  # whole-run figures (drain included): cycles * routers / time
  echo "$out" | sed -nE 's/^sim: cycles=.* speed=([0-9]+) .*/\1/p'
}
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, (b > 0 ? a / b : 0) }'; }   # A / B [DIGITS]
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
runs=0 configs=0
for c in small mid paper; do
  case $c in paper) ph="--warmup 500 --sample 500";; *) ph="--warmup 2000 --sample 2000";; esac
  configs=$((configs + 1))
  for r in doar min; do
    best1=0 bestb=0 besth=0
    for _ in $(seq "$REPEAT"); do
      s=$(speed $c $r 1 "$ph") || { echo "bench_sim: $c $r --block 1 failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$best1" ] && best1=$s
      s=$(speed $c $r 0 "$ph") || { echo "bench_sim: $c $r failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$bestb" ] && bestb=$s
      s=$(speed $c $r 0 "$ph" GLIBC_TUNABLES=glibc.malloc.hugetlb=1) || { echo "bench_sim: $c $r (huge pages) failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$besth" ] && besth=$s
      runs=$((runs + 3))
    done
    echo "bench: config=$c routing=$r block=1 speed=$best1 router-cycles/s"
    echo "bench: config=$c routing=$r block=auto speed=$bestb router-cycles/s ratio=$(ratio "$bestb" "$best1")"
    echo "bench: config=$c routing=$r block=auto hugepages=1 speed=$besth router-cycles/s ratio=$(ratio "$besth" "$best1")"
  done
done
BASE=${BENCH_BASELINE:-}
[ -z "$BASE" ] || [ -x "$BASE" ] || { echo "bench_sim: BENCH_BASELINE '$BASE' is not executable" >&2; exit 2; }
for c in mid paper; do
  case $c in paper) ph="--warmup 500 --sample 500";; *) ph="--warmup 2000 --sample 2000";; esac
  b1=0 b2=0 bb=0 p21=() p2b=() sb_prev=
  for _ in $(seq "$REPEAT"); do
    s=$(speed $c doar 0 "$ph --speedup 1") || { echo "bench_sim: $c --speedup 1 failed" >&2; exit 1; }
    [ "${s:-0}" -gt "$b1" ] && b1=$s
    s1=$s
    s=$(speed $c doar 0 "$ph --speedup 2") || { echo "bench_sim: $c --speedup 2 failed" >&2; exit 1; }
    [ "${s:-0}" -gt "$b2" ] && b2=$s
    s2=$s
    p21+=("$(ratio "$s2" "$s1" 4)")
    runs=$((runs + 2))
    if [ -n "$BASE" ]; then
      s=$(speed $c doar 0 "$ph" "" "$BASE") || { echo "bench_sim: baseline failed" >&2; exit 1; }
      [ "${s:-0}" -gt "$bb" ] && bb=$s
      # the S = 2 run between two baseline runs: this round's and the previous (or the same) one
      p2b+=("$(ratio "$s2" "$(( (${sb_prev:-$s} + s) / 2 ))" 4)")
      sb_prev=$s
      runs=$((runs + 1))
    fi
  done
  # best of REPEAT each (ratio=, speedup2_vs_baseline=), and the median of the rounds' ratios
  # (paired=): runs next to each other see the same machine, so the median is the steadier figure
  # where other jobs make the speed swing
  echo "bench: config=$c routing=doar speedup=1 speed=$b1 router-cycles/s"
  echo "bench: config=$c routing=doar speedup=2 speed=$b2 router-cycles/s ratio=$(ratio "$b2" "$b1") paired=$(median "${p21[@]}")"
  [ -z "$BASE" ] || echo "bench: config=$c routing=doar baseline=$BASE speed=$bb router-cycles/s speedup2_vs_baseline=$(ratio "$b2" "$bb") paired=$(median "${p2b[@]}")"
done
echo "bench: sim configs=$configs runs=$runs"
