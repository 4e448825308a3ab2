#!/usr/bin/env bash
# Fault-handling units lock-step in `make test` (issue 5): rtl/fault.v against csim/fault.c on
# random link/peer/up events, FD/FR packets on every port and resets, every cycle, on five
# configurations with 0 mismatches, each on three routers of a group (bid 0, a/2, a-1) so both
# branches of the intra-group neighbour index are taken (issue 21); the planted RTL bug (the mutant
# fault-fd-role-swap of tests/mutants/mutants.txt: an FD's role bits swapped) caught with a waveform
# that covers the mismatch and a save file whose signals are all in it.
set -u
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
LOG=$(mktemp /tmp/doar_lf_XXXXXX)
trap 'rm -f "$LOG"' EXIT

run_cfg() {
  local cfg=$1 cycles=$2
  make --no-print-directory lockstep-fault CONFIG="$cfg" SEED="${SEED:-1}" CYCLES="$cycles" >"$LOG" 2>&1
  local rc=$? last; last=$(grep '^lockstep fault: config=' "$LOG" | tail -n 1)
  grep -E '^lockstep fault: (commands|neighbour index)' "$LOG" | sed 's/^/   /'
  echo "   $last"
  [ $rc -eq 0 ] && ok || { bad "$cfg: exit $rc"; grep -E "MISMATCH|rror" "$LOG" | head -5; }
  echo "$last" | grep -qE "^lockstep fault: config=$cfg seed=[0-9]+ cycles=$cycles events=[1-9][0-9]* mismatches=0$" \
    && ok || bad "$cfg: last line"
  # coverage: every command kind ran, and the dead-router paths were taken
  local cov; cov=$(grep '^lockstep fault: commands' "$LOG")
  for k in Travel_FD Match_FD Travel_FR Match_FR "dead-router withdrawals" "revived re-announcements" "group FRs"; do
    echo "$cov" | grep -qE "$k=[1-9]" && ok || bad "$cfg: no coverage of $k"
  done
  # the neighbour index fp_nb: port j < bid leads to router j, j >= bid to router j + 1
  local nb; nb=$(grep '^lockstep fault: neighbour index' "$LOG")
  for k in "j<bid" "j>=bid"; do
    echo "$nb" | grep -qE "$k=[1-9]" && ok || bad "$cfg: no coverage of the neighbour index branch $k"
  done
}

echo "== fault-handling units lock-step"
run_cfg tiny 300000
run_cfg small "${SMALL_CYCLES:-1000000}"
run_cfg fig8 500000
run_cfg mid 300000
run_cfg paper 200000

echo "== the planted bug (PLANT=1: the mutant fault-fd-role-swap, an FD reports its role bits swapped) is caught"
make --no-print-directory lockstep-fault CONFIG=small PLANT=1 CYCLES=1000000 >"$LOG" 2>&1
rc=$?; last=$(grep '^lockstep fault: config=' "$LOG" | tail -n 1); echo "   $last"
grep "MISMATCH" "$LOG" | sed 's/^/   /'
[ $rc -ne 0 ] && ok || bad "planted bug: exit 0"
echo "$last" | grep -qE "mismatches=[1-9]" && ok || bad "planted bug: no mismatch"
FST=build/waves/fault_small_seed1.fst; GTKW=build/waves/fault_small_seed1.gtkw
[ -s "$FST" ] && [ -s "$GTKW" ] && ok || bad "waveform or save file missing"
vars=$(fst2vcd "$FST" 2>/dev/null | grep '[$]var' | awk '{print $5}' | sort -u)
missing=0
while read -r s; do
  echo "$vars" | grep -qx "$s" || { missing=$((missing+1)); echo "   not in FST: $s"; }
done < <(grep '^TOP\.fault\.' "$GTKW" | sed 's/^TOP\.fault\.//; s/\[.*//')
[ -n "$vars" ] && [ $missing -eq 0 ] && ok || bad "$missing save-file signals missing from the FST"
mc=$(sed -n 's/^lockstep fault: MISMATCH at cycle \([0-9]*\).*/\1/p' "$LOG" | head -1)
# small: k=7, et_num=15; the replay spends 2 + k*et_num clocks on reset and configuration first
t=$((2 * (2 + 7 * 15 + ${mc:-0})))
fst2vcd "$FST" 2>/dev/null | grep -qx "#$t" && ok || bad "the waveform does not cover the mismatch cycle $mc (time $t)"

echo "== the j >= bid branch of the neighbour index is checked: its mutants are killed"
make --no-print-directory mutate MUTANTS=fault-nb-index-le,fault-nb-index-no-skip >"$LOG" 2>&1; rc=$?
grep '^mutate: \[' "$LOG" | sed 's/^/   /'
[ $rc -eq 0 ] && grep -qx "mutate: killed=2 total=2 survived=none" "$LOG" && ok || bad "neighbour-index mutants: $(tail -n 1 "$LOG")"

echo "lockstep_fault_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
