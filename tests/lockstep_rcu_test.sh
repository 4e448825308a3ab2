#!/usr/bin/env bash
# Route-compute unit lock-step in `make test`: every named configuration with 0 mismatches and
# full coverage (>= 1,000,000 decisions on small, mid and paper), and the planted RTL bug (the mutant
# rcu-p1-gd-before-gc of tests/mutants/mutants.txt, built from a copy of rtl/ by PLANT=1) caught
# with a readable waveform and a save file whose signals exist in it. Exit codes kept apart
# (issue 24): mismatch 1, coverage holes 3 (make exit 0 unless REQUIRE_COVERAGE=1).
# Usage: tests/lockstep_rcu_test.sh   (from the repository root; uses make lockstep-rcu)
set -u
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
LOG=$(mktemp /tmp/doar_lk_XXXXXX)
trap 'rm -f "$LOG"' EXIT

# config cycles min_decisions
run_cfg() {
  local cfg=$1 cycles=$2 need=$3
  make --no-print-directory lockstep-rcu CONFIG="$cfg" SEED="${SEED:-1}" CYCLES="$cycles" REQUIRE_COVERAGE=1 >"$LOG" 2>&1
  local rc=$? last; last=$(grep '^lockstep rcu:' "$LOG" | tail -n 1)
  echo "   $last"
  if [ $rc -ne 0 ]; then bad "$cfg: exit $rc"; tail -n 30 "$LOG"; return; fi
  if echo "$last" | grep -qE "^lockstep rcu: config=$cfg seed=[0-9]+ cycles=[0-9]+ decisions=[0-9]+ mismatches=0 coverage=full$"; then ok
  else bad "$cfg: last line"; fi
  local d; d=$(echo "$last" | sed -n 's/.*decisions=\([0-9]*\).*/\1/p')
  if [ "${d:-0}" -ge "$need" ]; then ok; else bad "$cfg: $d decisions < $need"; fi
  grep -q "hole" "$LOG" && bad "$cfg: coverage hole" || ok
}

echo "== lock-step, every configuration"
run_cfg tiny   300000  100000
run_cfg small  1500000 1000000
run_cfg fig8   600000  300000
run_cfg mid    1500000 1000000
run_cfg paper  1500000 1000000
run_cfg tianhe "${TIANHE_CYCLES:-300000}" 100000

echo "== a short run is a smoke test: coverage holes are not mismatches (exit 3, make exit 0)"
make --no-print-directory lockstep-rcu CONFIG=small CYCLES=10000 >"$LOG" 2>&1; rc=$?
last=$(grep '^lockstep rcu:' "$LOG" | tail -n 1); echo "   $last"
[ $rc -eq 0 ] && ok || bad "short run on clean tables: make exit $rc"
echo "$last" | grep -qE "^lockstep rcu: config=small seed=1 cycles=10000 decisions=[0-9]+ mismatches=0 coverage=incomplete$" \
  && ok || bad "short run: last line '$last'"
build/rcu/small/rcu_lockstep --tables build/tables/small --cycles 10000 --quiet >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && ok || bad "short run: harness exit $rc (want 3: coverage incomplete)"
make --no-print-directory lockstep-rcu CONFIG=small CYCLES=10000 REQUIRE_COVERAGE=1 >"$LOG" 2>&1; rc=$?
[ $rc -ne 0 ] && ok || bad "REQUIRE_COVERAGE=1 accepted coverage holes"

# on tiny's images: small's are read meanwhile by the other lane of `make test` (scripts/lanes.sh)
echo "== stale or corrupted images in build/ are rebuilt before a lock-step"
sed -i '3s/^0000000000000001$/0000000000000002/' build/tables/tiny/g0000b00/p00.a.hex
make --no-print-directory lockstep-rcu CONFIG=tiny CYCLES=10000 >"$LOG" 2>&1; rc=$?
grep -q "failed verification.*misdelivery.*rebuilding" "$LOG" && ok || bad "corrupted images not rebuilt: $(head -n 3 "$LOG")"
[ $rc -eq 0 ] && head -n 3 build/tables/tiny/g0000b00/p00.a.hex | tail -n 1 | grep -qx 0000000000000001 && ok || bad "after rebuild: exit $rc"

echo "== the planted bug (PLANT=1: the mutant rcu-p1-gd-before-gc, P1 tries GD before GC) is caught"
rm -rf build/waves
make --no-print-directory lockstep-rcu CONFIG=small PLANT=1 CYCLES=1000000 >"$LOG" 2>&1
rc=$?
last=$(grep '^lockstep rcu:' "$LOG" | tail -n 1); echo "   $last"
[ $rc -ne 0 ] && ok || bad "planted bug: exit 0"
build/rcu/small_plant/rcu_lockstep --tables build/tables/small --cycles 1000000 --quiet >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && ok || bad "planted bug: harness exit $rc (want 1: mismatch)"
echo "$last" | grep -qE "mismatches=[1-9]" && ok || bad "planted bug: no mismatch"
grep -q "^MISMATCH at cycle" "$LOG" && grep -q "expected class" "$LOG" && ok || bad "no mismatch report"
FST=build/waves/rcu_small_seed1.fst; GTKW=build/waves/rcu_small_seed1.gtkw
[ -s "$FST" ] && [ -s "$GTKW" ] && ok || bad "waveform or save file missing"
if command -v fst2vcd >/dev/null; then
  vars=$(fst2vcd "$FST" 2>/dev/null | grep '[$]var' | awk '{print $5}' | sort -u)
  [ -n "$vars" ] && ok || bad "fst2vcd cannot read $FST"
  missing=0
  while read -r s; do
    echo "$vars" | grep -qx "$s" || { missing=$((missing+1)); echo "   not in FST: $s"; }
  done < <(grep '^TOP\.rcu\.' "$GTKW" | sed 's/^TOP\.rcu\.//; s/\[.*//')
  [ $missing -eq 0 ] && ok || bad "$missing save-file signals missing from the FST"
  grep -q "Stage 3: A1/A2/C1/N1/N2/B" "$GTKW" && ok || bad "save file lacks the stage groups"
  mc=$(sed -n 's/^MISMATCH at cycle \([0-9]*\).*/\1/p' "$LOG" | head -1)
  fst2vcd "$FST" 2>/dev/null | grep -qx "#$((2 * mc))" && ok || bad "the waveform does not cover the mismatch cycle $mc"
else
  bad "fst2vcd missing (gtkwave package)"
fi

echo "== bad input to the harness"
build/rcu/small/rcu_lockstep --tables /nonexistent >/dev/null 2>"$LOG"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$LOG")" -eq 1 ] && ok || bad "missing tables: exit $rc"
build/rcu/small/rcu_lockstep --tables build/tables/mid >/dev/null 2>"$LOG"; rc=$?
[ $rc -eq 2 ] && grep -q "this build is dfly(2,4,2,9)" "$LOG" && ok || bad "tables of another config: exit $rc"
build/rcu/small/rcu_lockstep --tables build/tables/small --cycles x >/dev/null 2>"$LOG"; rc=$?
[ $rc -eq 2 ] && ok || bad "bad --cycles: exit $rc"

echo "lockstep_rcu_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
