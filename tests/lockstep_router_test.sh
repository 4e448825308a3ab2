#!/usr/bin/env bash
# Whole-router lock-step in `make test`: small and mid for 1,000,000 cycles each with 0
# mismatches, conservation and full coverage (small also at S = 1, and at MAX_LEN = 8 for 300,000); the planted RTL bug (the mutant
# router-head-needs-len-plus-1 of tests/mutants/mutants.txt, built from a copy of rtl/ by PLANT=1)
# caught with a readable waveform; the Global Resource Bulletin's effect (crossed multicasts
# deadlock without it, complete with it), in C and RTL together.
# Usage: tests/lockstep_router_test.sh [all|mid|rest]: everything (default), only mid's run, or
# everything but mid's (make test runs mid's in its C lane, for MID_TEST_CYCLES, and the rest in
# its RTL lane: Makefile).
set -u
PART=${1:-all}
case $PART in all|mid|rest) ;; *) echo "lockstep_router_test: '$PART': expected all, mid or rest" >&2; exit 2;; esac
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
LOG=$(mktemp /tmp/doar_lr_XXXXXX)
trap 'rm -f "$LOG"' EXIT

run_cfg() {
  local cfg=$1 cycles=$2 speedup=${3:-2} maxlen=${4:-4}
  make --no-print-directory lockstep-router CONFIG="$cfg" SEED="${SEED:-1}" CYCLES="$cycles" SPEEDUP="$speedup" \
    MAX_LEN="$maxlen" >"$LOG" 2>&1
  local rc=$? last; last=$(grep '^lockstep router:' "$LOG" | tail -n 1)
  echo "   $last"
  [ $rc -eq 0 ] && ok || { bad "$cfg: exit $rc"; grep -E "MISMATCH|CONSERVATION|hole|rror" "$LOG" | head -5; }
  echo "$last" | grep -qE "^lockstep router: config=$cfg seed=[0-9]+ cycles=[0-9]+ flits_in=[1-9][0-9]* flits_out=[1-9][0-9]* mismatches=0$" \
    && ok || bad "$cfg: last line"
  local c; c=$(echo "$last" | sed -n 's/.* cycles=\([0-9]*\).*/\1/p')
  [ "${c:-0}" -ge "$cycles" ] && ok || bad "$cfg: only $c cycles"
}

echo "== router lock-step (S = 2 crossbar planes, and S = 1; router v3 allocation)"
if [ "$PART" != mid ]; then
  run_cfg small "${SMALL_CYCLES:-1000000}"
  run_cfg small "${SMALL_CYCLES:-1000000}" 1
fi
[ "$PART" != rest ] && run_cfg mid "${MID_CYCLES:-1000000}"
if [ "$PART" = mid ]; then
  echo "lockstep_router_test mid: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
echo "== packets up to 8 flits (MAX_LEN = 8; the look-ahead covers 4: longer packets rely on the slot locks)"
run_cfg small "${L8_CYCLES:-300000}" 2 8

echo "== the planted bug (PLANT=1: the mutant router-head-needs-len-plus-1, a head needs one credit more than its length) is caught"
make --no-print-directory lockstep-router CONFIG=small PLANT=1 CYCLES=1000000 >"$LOG" 2>&1
rc=$?; last=$(grep '^lockstep router:' "$LOG" | tail -n 1); echo "   $last"
[ $rc -ne 0 ] && ok || bad "planted bug: exit 0"
echo "$last" | grep -qE "mismatches=[1-9]" && ok || bad "planted bug: no mismatch"
grep -q "^MISMATCH at cycle" "$LOG" && ok || bad "no mismatch report"
FST=build/waves/router_small_seed1.fst; GTKW=build/waves/router_small_seed1.gtkw
[ -s "$FST" ] && [ -s "$GTKW" ] && ok || bad "waveform or save file missing"
vars=$(fst2vcd "$FST" 2>/dev/null | grep '[$]var' | awk '{print $5}' | sort -u)
missing=0
while read -r s; do
  echo "$vars" | grep -qx "$s" || { missing=$((missing+1)); echo "   not in FST: $s"; }
done < <(grep '^TOP\.router\.' "$GTKW" | sed 's/^TOP\.router\.//; s/\[[0-9]*:[0-9]*\]$//; s/.*\.//')
[ -n "$vars" ] && [ $missing -eq 0 ] && ok || bad "$missing save-file signals missing from the FST"
mc=$(sed -n 's/^MISMATCH at cycle \([0-9]*\).*/\1/p' "$LOG" | head -1)
fst2vcd "$FST" 2>/dev/null | grep -qx "#$((2 * mc))" && ok || bad "the waveform does not cover the mismatch cycle $mc"

echo "== a model difference is caught: the C model's congestion from credits alone (--c-cong-demand 0)"
LS=build/router/small/router_lockstep
"$LS" --config small --tables build/tables/small --seed 3 --cycles 100000 --wave-dir build/waves/cong_demand \
  --c-cong-demand 0 >"$LOG" 2>&1
rc=$?; last=$(grep '^lockstep router:' "$LOG" | tail -n 1); echo "   $last"
[ $rc -eq 1 ] && echo "$last" | grep -qE "mismatches=[1-9]" && ok || bad "credit-only C model against the demand RTL: exit $rc, $last"
"$LS" --config small --tables build/tables/small --c-cong-demand 2 >"$LOG" 2>&1
[ $? -eq 2 ] && grep -q "c-cong-demand '2': expected 0 or 1" "$LOG" && ok || bad "--c-cong-demand 2: $(head -n 1 "$LOG")"

echo "== coverage holes fail a run, unless --coverage-optional (make check's short run, COVERAGE=optional)"
"$LS" --config small --tables build/tables/small --cycles 3000 --wave-dir build/waves/cov >"$LOG" 2>&1
rc=$?; holes=$(grep -c "^coverage: hole:" "$LOG")
[ $rc -eq 1 ] && [ "$holes" -ge 1 ] && grep -q "^coverage: $holes hole(s)$" "$LOG" && grep -q "mismatches=0$" "$LOG" && ok ||
  bad "3,000 cycles without --coverage-optional: exit $rc, $holes holes"
"$LS" --config small --tables build/tables/small --cycles 3000 --wave-dir build/waves/cov --coverage-optional >"$LOG" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c "^coverage: hole:" "$LOG")" = "$holes" ] &&
  grep -q "^coverage: $holes hole(s) (not failed: --coverage-optional)$" "$LOG" && ok ||
  bad "3,000 cycles with --coverage-optional: exit $rc, $(grep "hole(s)" "$LOG")"

echo "== the Global Resource Bulletin (seed 003 sec. 5.1)"
make --no-print-directory lockstep-router CONFIG=small BULLETIN=0 SCENARIO=mcast-deadlock >"$LOG" 2>&1
line=$(grep '^scenario' "$LOG"); echo "   $line"
echo "$line" | grep -q "bulletin=0 multicast_copies_out=0 stuck_flits=4 result=deadlock mismatches=0" && ok || bad "no deadlock without the bulletin"
make --no-print-directory lockstep-router CONFIG=small BULLETIN=1 SCENARIO=mcast-deadlock >"$LOG" 2>&1
line=$(grep '^scenario' "$LOG"); echo "   $line"
echo "$line" | grep -q "bulletin=1 multicast_copies_out=4 stuck_flits=0 result=completed mismatches=0" && ok || bad "bulletin did not complete"

echo "lockstep_router_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
