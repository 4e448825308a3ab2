#!/usr/bin/env bash
# The C tools under Valgrind's memcheck: no invalid access, no leak.
# Usage: tests/valgrind_test.sh DOAR
set -u
DOAR=${1:?doar binary}
if ! command -v valgrind >/dev/null 2>&1; then echo "valgrind_test: valgrind missing (scripts/deps.sh installs it)"; exit 1; fi
TMP=$(mktemp -d /tmp/doar_vg_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
fail=0
run() {
  $VG "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
  if [ $rc -eq 99 ]; then echo "FAIL (valgrind): $*"; cat "$TMP/err"; fail=1; else echo "ok: $* (exit $rc)"; fi
}
run "$DOAR" check small --quiet
run "$DOAR" check fig8 --vc-rule none --quiet
run "$DOAR" topo tiny --router 2,1
run "$DOAR" tables tiny --out "$TMP/t"
run "$DOAR" tables --load "$TMP/t"
run "$DOAR" check tiny --tables "$TMP/t" --quiet
sed -i '$d' "$TMP/t/g0001b01/p02.b.hex"
run "$DOAR" tables --load "$TMP/t"
run "$DOAR" tables small --router 1,1 --port 0 --dump
run "$DOAR" check --dfly 2,4,2,10
run "$DOAR" faults small --campaigns 3 --max-faults 8 --router-share 0.5 --quiet
run "$DOAR" faults fig8 --example fig9
run "$DOAR" sim tiny --rate 0.2 --warmup 200 --sample 300 --quiet
for r in par_ph ugal_g tpr; do run "$DOAR" sim tiny --routing $r --rate 0.2 --warmup 200 --sample 300 --quiet; done
run "$DOAR" sim tiny --rate 0.2 --traffic 'fft3d(100)' --warmup 200 --sample 300 --quiet
# the output files, with dead routers (their ports and nodes left out of --cong-csv)
run "$DOAR" sim small --rate 0.2 --warmup 200 --sample 300 --quiet --router-faults 2 --fault-at 100 \
  --series-csv "$TMP/se.csv" --cong-csv "$TMP/co.csv" --channel-csv "$TMP/ch.csv" --bin 50
# issue 24's paths: a wrong route found by tables --load (complete and sampled sets), a strict
# manifest refusal, --resume of a finished and of a damaged sweep, a refusal for memory
run "$DOAR" tables small --out "$TMP/s"
sed -i '3s/^0000000000000001$/0000000000000002/' "$TMP/s/g0000b00/p00.a.hex"
run "$DOAR" tables --load "$TMP/s"
run "$DOAR" tables small --router 0,1 --out "$TMP/one"
run "$DOAR" tables --load "$TMP/one"
sed -i 's/^k=7$/k=7x/' "$TMP/one/manifest.txt"
run "$DOAR" tables --load "$TMP/one"
"$DOAR" sweep tiny --warmup 200 --sample 300 --step 0.25 --quiet > "$TMP/sw.txt" 2>/dev/null
run "$DOAR" sweep tiny --warmup 200 --sample 300 --step 0.25 --quiet --resume "$TMP/sw.txt"
sed -i '3s/accepted=[0-9.]*/accepted=nan/' "$TMP/sw.txt"
run "$DOAR" sweep tiny --warmup 200 --sample 300 --step 0.25 --quiet --resume "$TMP/sw.txt"
run "$DOAR" faults --dfly 1,32,32,1025 --max-memory 1G
echo "valgrind_test: $([ $fail -eq 0 ] && echo ok || echo FAIL)"
exit $fail
