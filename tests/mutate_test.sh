#!/usr/bin/env bash
# The mutation mechanism's own checks (issue 21), no builds: every mutant of tests/mutants/mutants.txt
# still applies; a mutant whose text is gone or occurs twice, an unknown name, a bad seed or
# sample are one-line errors with exit 2; a mutant is applied to a copy of rtl/, never to rtl/.
# Usage: tests/mutate_test.sh   (from the repository root)
set -u
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
TMP=$(mktemp -d /tmp/doar_mt_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
M=(python3 scripts/mutate.py)

out=$("${M[@]}" check 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -qE "^mutate: check: [0-9]+ mutants, every find text occurs exactly once$" && ok || bad "check: $out"
n=$("${M[@]}" list | wc -l)
[ "$n" -ge 30 ] && ok || bad "only $n mutants"

# one-line error, exit 2: $1 = what, rest = command
expect2() {
  local what=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then ok
  else bad "$what: exit $rc, stderr '$(head -c 200 "$TMP/err")'"; fi
}
expect2 "unknown mutant" "${M[@]}" run --only no-such-mutant
expect2 "bad seed" "${M[@]}" run --sample 6 --seed -1
expect2 "bad seed (text)" "${M[@]}" run --sample 6 --seed x
expect2 "sample 0" "${M[@]}" run --sample 0
expect2 "seed without sample" "${M[@]}" run --seed 3
expect2 "unknown option" "${M[@]}" run --fast
expect2 "unknown command" "${M[@]}" frobnicate
expect2 "apply unknown" "${M[@]}" apply no-such-mutant "$TMP/x"

# a rotten mutant: its text is no longer in the RTL, or occurs twice
printf 'mutant rotten\n  file     rtl/oq.v\n  lockstep router small 1000\n  find     this text is not in oq.v\n  replace  x\n  why      test\n' > "$TMP/rotten.txt"
expect2 "text not found" "${M[@]}" --list "$TMP/rotten.txt" check
grep -q "occurs 0 times in rtl/oq.v" "$TMP/err" && ok || bad "not-found message: $(cat "$TMP/err")"
printf 'mutant twice\n  file     rtl/oq.v\n  lockstep router small 1000\n  find     <=\n  replace  =\n  why      test\n' > "$TMP/twice.txt"
expect2 "text found twice" "${M[@]}" --list "$TMP/twice.txt" check
expect2 "run with a rotten mutant" "${M[@]}" --list "$TMP/rotten.txt" run --only rotten
printf 'mutant bad-field\n  file     rtl/oq.v\n  colour   red\n' > "$TMP/field.txt"
expect2 "unknown field" "${M[@]}" --list "$TMP/field.txt" list
printf 'mutant bad-speedup\n  file     rtl/oq.v\n  lockstep router small 1000\n  speedup  3\n  find     x\n  replace  y\n  why      test\n' > "$TMP/sp.txt"
expect2 "speedup 3" "${M[@]}" --list "$TMP/sp.txt" list
grep -q "expected 'speedup 1|2|4'" "$TMP/err" && ok || bad "speedup message: $(cat "$TMP/err")"
printf 'mutant rcu-speedup\n  file     rtl/rcu.v\n  lockstep rcu small 1000\n  speedup  4\n  find     x\n  replace  y\n  why      test\n' > "$TMP/sp2.txt"
expect2 "speedup on an rcu mutant" "${M[@]}" --list "$TMP/sp2.txt" list
for v in 0 9 x; do
  printf 'mutant bad-maxlen\n  file     rtl/oq.v\n  lockstep router small 1000\n  maxlen   %s\n  find     x\n  replace  y\n  why      test\n' "$v" > "$TMP/ml.txt"
  expect2 "maxlen $v" "${M[@]}" --list "$TMP/ml.txt" list
  grep -q "expected 'maxlen 1..8'" "$TMP/err" && ok || bad "maxlen message: $(cat "$TMP/err")"
done
printf 'mutant rcu-maxlen\n  file     rtl/rcu.v\n  lockstep rcu small 1000\n  maxlen   8\n  find     x\n  replace  y\n  why      test\n' > "$TMP/ml2.txt"
expect2 "maxlen on an rcu mutant" "${M[@]}" --list "$TMP/ml2.txt" list
printf 'mutant bad-bulletin\n  file     rtl/oq.v\n  lockstep router small 1000\n  bulletin 2\n  find     x\n  replace  y\n  why      test\n' > "$TMP/bu.txt"
expect2 "bulletin 2" "${M[@]}" --list "$TMP/bu.txt" list
grep -q "expected 'bulletin 0|1'" "$TMP/err" && ok || bad "bulletin message: $(cat "$TMP/err")"
printf 'mutant fault-bulletin\n  file     rtl/fault.v\n  lockstep fault small 1000\n  bulletin 0\n  find     x\n  replace  y\n  why      test\n' > "$TMP/bu2.txt"
expect2 "bulletin on a fault mutant" "${M[@]}" --list "$TMP/bu2.txt" list

# apply writes the copy and leaves rtl/ alone
before=$(git status --porcelain rtl/ | wc -l)
"${M[@]}" apply rcu-p1-gd-before-gc "$TMP/rtl" && ok || bad "apply failed"
grep -q "pri2 = ok_gd, pri3 = ok_gc" "$TMP/rtl/rcu_decide.v" && ok || bad "the copy is not mutated"
grep -q "pri2 = ok_gc, pri3 = ok_gd" rtl/rcu_decide.v && ok || bad "rtl/ was mutated"
[ "$(git status --porcelain rtl/ | wc -l)" -eq "$before" ] && ok || bad "rtl/ changed"
[ "$(find "$TMP/rtl" -maxdepth 1 -name '*.v' | wc -l)" -eq "$(find rtl -maxdepth 1 -name '*.v' | wc -l)" ] && [ -f "$TMP/rtl/.applied" ] && ok || bad "the copy is incomplete"

# no test-only code left in the RTL (the router's planted bug is the mutant
# router-head-needs-len-plus-1 now, as the rcu's and the fault units' are mutants)
left=$(grep -l "PLANT" rtl/*.v rtl/*.vh)
[ -z "$left" ] && ok || bad "planted bugs still in: $left"
# nor in the C model (the network simulator's planted bugs are the mutants net-short-ring and
# net-rank-stream now)
left=$(grep -il "plant" csim/*.c csim/*.h)
[ -z "$left" ] && ok || bad "planted bugs still in: $left"

echo "mutate_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
