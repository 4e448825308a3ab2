#!/usr/bin/env bash
# Two builds of doar give the same outputs: 34 runs of sim, sweep and faults (small, mid, fig8;
# every routing; faults with and without repair; CSVs; doar-mpi at R = 2 and 3 when given), each
# compared line by line with the wall-clock and memory fields removed (time=, speed=, memory=,
# wall=, comm_share=, max_rss_per_rank=). For changes that must not change behaviour (issue 22's
# memory cuts: docs/RESULTS.md "tianhe in 24 GiB"). About 1 min per build on 2 cores.
# Usage: scripts/same_outputs.sh OLD_DOAR NEW_DOAR [OLD_DOAR_MPI NEW_DOAR_MPI]
# Exit 0: all the same; 1: a difference (listed); 2: bad usage.
set -u
if [ $# -ne 2 ] && [ $# -ne 4 ]; then
  echo "usage: scripts/same_outputs.sh OLD_DOAR NEW_DOAR [OLD_DOAR_MPI NEW_DOAR_MPI]" >&2; exit 2
fi
TMP=$(mktemp -d /tmp/doar_same_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
strip() {
  sed -E 's/ time=[0-9.]+s//; s/ speed=[0-9]+ router-cycles\/s//; s/ memory=[0-9]+MiB//; s/ wall=[0-9.]+s?//g;
          s/ comm_share=[0-9]+%//; s/ max_rss_per_rank=[0-9.]+MiB//'
}
runs() {   # runs DOAR DOAR_MPI OUTDIR
  local D=$1 M=$2 O=$3 i=0
  mkdir -p "$O"
  run() { i=$((i + 1)); "$@" >"$O/$i.raw" 2>&1; echo "rc=$?" >>"$O/$i.raw"; strip <"$O/$i.raw" >"$O/$i.txt"; echo "$*" >"$O/$i.cmd"; }
  for rt in doar min val ugal_l ugal_g par par_ph ugal_le tpr; do
    run "$D" sim small --rate 0.35 --routing $rt --warmup 2000 --sample 2000 --quiet --seed 3
    run "$D" sim small --rate 0.2 --routing $rt --traffic adv+1 --warmup 1500 --sample 1500 --quiet --seed 5
  done
  for rt in doar min ugal_g tpr; do
    run "$D" sim mid --rate 0.3 --routing $rt --warmup 1000 --sample 1000 --quiet --seed 2
  done
  run "$D" sim mid --rate 0.6 --warmup 1000 --sample 1000 --quiet --seed 4 --series-csv "$O/series.csv" --bin 200 \
      --channel-csv "$O/channel.csv"
  run "$D" sim small --rate 0.3 --link-faults 6 --warmup 2000 --sample 3000 --quiet --seed 7
  run "$D" sim small --rate 0.3 --router-faults 2 --link-faults 2 --repair-at 4000 --warmup 2000 --sample 3000 --quiet --seed 8
  run "$D" sim mid --rate 0.2 --link-faults 20 --router-faults 2 --warmup 1000 --sample 1500 --quiet --seed 9
  run "$D" sim small --rate 0.3 --traffic 'r_mixed_ua(50,50)' --packet-len 7 --warmup 1500 --sample 1500 --quiet
  run "$D" sim small --rate 0.25 --traffic lu --packet-len 2 --speedup 1 --warmup 1500 --sample 1500 --quiet
  run "$D" sim small --rate 0.9 --packet-len 8 --speedup 4 --warmup 1500 --sample 1500 --quiet
  run "$D" sim fig8 --rate 0.4 --warmup 1500 --sample 1500 --quiet --block 1
  run "$D" sweep small --warmup 800 --sample 800 --quiet
  run "$D" faults small --seed 3 --campaigns 20
  if [ -n "$M" ]; then
    local MR="mpirun --allow-run-as-root --oversubscribe"
    run $MR -np 2 "$M" sim mid --rate 0.3 --warmup 800 --sample 800 --quiet --seed 2
    run $MR -np 3 "$M" sim small --rate 0.3 --link-faults 4 --warmup 1500 --sample 1500 --quiet --seed 7
  fi
  echo "$i" >"$O/count"
}
runs "$1" "${3:-}" "$TMP/old"
runs "$2" "${4:-}" "$TMP/new"
n=$(cat "$TMP/new/count"); diffs=0
for i in $(seq 1 "$n"); do
  if ! cmp -s "$TMP/old/$i.txt" "$TMP/new/$i.txt"; then
    diffs=$((diffs + 1)); echo "DIFFERS: $(cat "$TMP/new/$i.cmd")"; diff "$TMP/old/$i.txt" "$TMP/new/$i.txt" | head -6
  fi
done
for f in series.csv channel.csv; do
  cmp -s "$TMP/old/$f" "$TMP/new/$f" || { diffs=$((diffs + 1)); echo "DIFFERS: $f"; }
done
echo "same_outputs: runs=$n differing=$diffs"
[ "$diffs" -eq 0 ]
