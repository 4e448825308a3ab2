#!/usr/bin/env bash
# The network simulator split over MPI ranks gives the single process's results (issue 22,
# docs/network.md "Beyond one machine"): for R = 1, 2, 3 ranks, every line `doar sim` prints
# (set-up, channel loads, cycles / hop histogram, policy, faults, summary) and the channel and
# time-series and congestion CSV files are byte-identical to build/doar's, only the wall-clock fields (time=,
# speed=, a sweep's wall=) removed — on small and mid, with DOAR, UGAL_G / UGAL_L, link and
# router faults injected and repaired mid-run, and for a sweep. Then it shows the check can fail:
# a doar-mpi built with a planted per-rank random stream (the mutant net-rank-stream of
# tests/mutants/mutants.txt, built from a copy of csim/: a node's PRNG seeded by its index within
# its rank) must match at R = 1 and differ at R = 2.
# Usage: tests/mpi_test.sh DOAR DOAR_MPI [PLANTED_DOAR_MPI]
# Last line: mpi-test: runs=N identical=N ranks=1,2,3 planted=caught
set -u
DOAR=${1:?usage: tests/mpi_test.sh DOAR DOAR_MPI [PLANTED_DOAR_MPI]}
MPI=${2:?usage: tests/mpi_test.sh DOAR DOAR_MPI [PLANTED_DOAR_MPI]}
PLANT=${3:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "mpi-test: FAIL $*"; exit 1; }
# wall-clock fields differ from run to run; everything else must not
strip() { sed -E 's/ time=[0-9.]+s//g; s/ wall=[0-9.]+s//g; s/ speed=[0-9]+ router-cycles\/s//; /^sim: mpi /d'; }
runs=0 same=0
# NAME ARGS: serial reference, then R = 1, 2, 3 ranks
check() {
  local name=$1; shift
  "$DOAR" "$@" --quiet --channel-csv "$TMP/$name.ch0" --series-csv "$TMP/$name.se0" --cong-csv "$TMP/$name.co0" \
    > "$TMP/$name.0" 2>&1
  local rc0=$?
  for R in 1 2 3; do
    timeout 300 mpirun -np $R "$MPI" "$@" --quiet --channel-csv "$TMP/$name.ch$R" --series-csv "$TMP/$name.se$R" \
      --cong-csv "$TMP/$name.co$R" > "$TMP/$name.$R" 2>&1
    local rc=$?
    runs=$((runs + 1))
    [ $rc -eq $rc0 ] || fail "$name R=$R: exit $rc, the single process $rc0"
    grep -q '^sim: mpi ranks='"$R" "$TMP/$name.$R" || fail "$name R=$R: no 'sim: mpi ranks=$R' line"
    cmp -s <(strip < "$TMP/$name.0") <(strip < "$TMP/$name.$R") ||
      { diff <(strip < "$TMP/$name.0") <(strip < "$TMP/$name.$R") | head -5; fail "$name R=$R: output differs"; }
    cmp -s "$TMP/$name.ch0" "$TMP/$name.ch$R" || fail "$name R=$R: channel CSV differs"
    cmp -s "$TMP/$name.se0" "$TMP/$name.se$R" || fail "$name R=$R: series CSV differs"
    cmp -s "$TMP/$name.co0" "$TMP/$name.co$R" || fail "$name R=$R: congestion CSV differs"
    same=$((same + 1))
  done
  echo "mpi-test: $name identical for R=1,2,3 ($(tail -n 1 "$TMP/$name.0"))"
}
S=(--warmup 1000 --sample 1000 --seed 3)
M=(--warmup 400 --sample 400 --seed 5)
check small_doar sim small --rate 0.3 "${S[@]}"
check small_ugal_g sim small --rate 0.3 --routing ugal_g --traffic adv+1 "${S[@]}"
check small_faults sim small --rate 0.3 --link-faults 4 --router-faults 1 --fault-at 700 --repair-at 1500 "${S[@]}"
check small_sat sim small --rate 0.7 --routing min "${S[@]}" --drain-limit 300
# the window is the global latency: 1 cycle, and 7 (a global latency below the local one)
check small_lat1 sim small --rate 0.3 --latency 10,1 --warmup 500 --sample 500 --seed 4
check small_lat7 sim small --rate 0.3 --latency 10,7 --routing ugal_g --warmup 500 --sample 500 --seed 4
check mid_doar sim mid --rate 0.3 --traffic adv+1 "${M[@]}"
check mid_ugal_l sim mid --rate 0.3 --routing ugal_l --traffic rp "${M[@]}"
check mid_faults sim mid --rate 0.2 --link-faults 6 --router-faults 2 --fault-at 300 --repair-at 600 "${M[@]}" --drain-limit 300
# a sweep (early stops, several networks in one process) and its CSV
"$DOAR" sweep small --step 0.25 --warmup 600 --sample 600 --seed 2 --quiet --csv "$TMP/sw.csv0" > "$TMP/sw.0" 2>&1
for R in 1 2 3; do
  timeout 300 mpirun -np $R "$MPI" sweep small --step 0.25 --warmup 600 --sample 600 --seed 2 --quiet \
    --csv "$TMP/sw.csv$R" > "$TMP/sw.$R" 2>&1 || fail "sweep R=$R failed"
  runs=$((runs + 1))
  cmp -s <(strip < "$TMP/sw.0") <(strip < "$TMP/sw.$R") || fail "sweep R=$R: output differs"
  cmp -s "$TMP/sw.csv0" "$TMP/sw.csv$R" || fail "sweep R=$R: CSV differs"
  same=$((same + 1))
done
echo "mpi-test: sweep identical for R=1,2,3 ($(tail -n 1 "$TMP/sw.0"))"
# an interrupted sweep resumed (rank 0 reads the file and hands it round)
head -n 4 "$TMP/sw.0" > "$TMP/sw.part"
"$DOAR" sweep small --step 0.25 --warmup 600 --sample 600 --seed 2 --quiet --resume "$TMP/sw.part" > "$TMP/swr.0" 2>&1
timeout 300 mpirun -np 2 "$MPI" sweep small --step 0.25 --warmup 600 --sample 600 --seed 2 --quiet \
  --resume "$TMP/sw.part" > "$TMP/swr.2" 2>&1 || fail "resumed sweep R=2 failed"
runs=$((runs + 1))
cmp -s <(strip < "$TMP/swr.0") <(strip < "$TMP/swr.2") || fail "resumed sweep R=2: output differs"
grep -q "saturation=" "$TMP/swr.2" || fail "resumed sweep R=2: no summary"
same=$((same + 1))
echo "mpi-test: resumed sweep identical for R=2"
# bad input: one line, exit 2, on every rank count (no rank left waiting)
out=$(timeout 60 mpirun -np 3 "$MPI" sim small --rate 2 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "rate '2'" || fail "bad rate: exit $rc: $out"
out=$(timeout 60 mpirun -np 10 "$MPI" sim small --rate 0.1 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "groups" || fail "10 ranks on 9 groups: exit $rc: $out"
out=$(timeout 60 mpirun -np 2 "$MPI" sim small --rate 0.1 --warmup 10 --sample 10 --channel-csv /nonexistent/x.csv 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "cannot write" || fail "unwritable CSV: exit $rc: $out"
out=$(timeout 60 mpirun -np 2 "$MPI" tables small --out "$TMP/tbl" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "does not run split" || fail "tables over 2 ranks: exit $rc: $out"
echo "mpi-test: bad input (rate, more ranks than groups, unwritable CSV, a command that does not split) refused with exit 2"
planted=skipped
if [ -n "$PLANT" ]; then
  # the planted build: one random stream per rank-local index, the bug the issue warns about
  args=(sim small --rate 0.3 "${S[@]}" --quiet)
  ref=$("$DOAR" "${args[@]}" 2>&1 | strip)
  p1=$(timeout 120 mpirun -np 1 "$PLANT" "${args[@]}" 2>&1 | strip)
  p2=$(timeout 120 mpirun -np 2 "$PLANT" "${args[@]}" 2>&1 | strip)
  [ "$ref" = "$p1" ] || fail "planted build differs already at R=1 (the plant should only matter when split)"
  [ "$ref" != "$p2" ] || fail "planted per-rank streams not caught: R=2 identical"
  planted=caught
fi
echo "mpi-test: runs=$runs identical=$same ranks=1,2,3 planted=$planted"
