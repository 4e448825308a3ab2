#!/usr/bin/env bash
# Fault diagnosis and recovery at network scale (issue 5): random campaigns on small, fig8 and mid
# must agree with the oracle and restore every table; the planted role bug must be caught; seed
# 001's worked examples give the expected figures; bad input is refused with exit 2.
# Usage: tests/faults_test.sh DOAR
set -u
DOAR=${1:?doar binary}
fail=0
check_ok() {   # CMD... : last line must be "faults: ok campaigns=N oracle_mismatches=0 restored=N/N ..."
  out=$("$@" --quiet); rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  n=$(printf '%s\n' "$last" | sed -n 's/^faults: ok campaigns=\([0-9]*\) oracle_mismatches=0 restored=\([0-9]*\)\/\([0-9]*\) unreachable_pairs=[0-9]*$/\1 \2 \3/p')
  read -r n_camp n_rest n_all <<<"$n"
  if [ $rc -ne 0 ] || [ -z "$n" ] || [ "$n_camp" != "$n_rest" ] || [ "$n_rest" != "$n_all" ]; then
    echo "FAIL: $last (exit $rc)"; fail=1
  else
    echo "ok: $last"; printf '%s\n' "$out" | grep -E "diagnosis cycles" | sed 's/^/    /'
  fi
}
check_ok "$DOAR" faults small --campaigns 300 --max-faults 20 --seed 1
check_ok "$DOAR" faults fig8 --campaigns 300 --max-faults 20 --router-share 0.5 --seed 2
check_ok "$DOAR" faults tiny --campaigns 200 --max-faults 4 --seed 3
# the result must not depend on message timing: other link latencies, same oracle
check_ok "$DOAR" faults small --campaigns 200 --max-faults 20 --seed 6 --latency 0,0
check_ok "$DOAR" faults fig8 --campaigns 200 --max-faults 20 --seed 7 --latency 3,7
check_ok "$DOAR" faults mid --campaigns 60 --max-faults 200 --seed 4

# the harness can fail: role-blind units must be caught (the mutant csim-fault-roles-ignored of
# tests/mutants/mutants.txt: doar built from a copy of csim/ whose units apply every FD to every port)
out=$(make --no-print-directory mutate MUTANTS=csim-fault-roles-ignored 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | tail -n 1 | grep -qx "mutate: killed=1 total=1 survived=none"; then
  echo "ok: planted bug caught: $(printf '%s\n' "$out" | grep '^mutate: \[' | sed 's/.*: killed, //')"
else echo "FAIL: planted bug not caught (exit $rc): $(printf '%s\n' "$out" | tail -n 2 | head -c 300)"; fail=1; fi

# seed 001's worked examples on fig8, with the paper's tables (--dest-refraction 0: Fig. 7(a) as
# printed); then the local-link examples again with ours (issue 20: the fault stays in its group)
ex=$("$DOAR" faults fig8 --example fig8c --dest-refraction 0)
if printf '%s\n' "$ex" | grep -q "diagnosis ours=62 cycles = t_ld + 8.00 t_gd; paper = t_ld + 8 t_gd = 62 cycles (equal)"; then
  echo "ok: Fig. 8(c) diagnosis t_ld + 8 t_gd, as the paper"
else echo "FAIL: Fig. 8(c): $ex"; fail=1; fi
ex=$("$DOAR" faults fig8 --example fig8b)
if printf '%s\n' "$ex" | grep -q "diagnosis ours=50 cycles = t_ld + 5.00 t_gd; paper = t_ld + 4 t_gd"; then
  echo "ok: Fig. 8(b) diagnosis t_ld + 5 t_gd (paper: + 4; difference explained in docs/RESULTS.md)"
else echo "FAIL: Fig. 8(b): $ex"; fail=1; fi
ex=$("$DOAR" faults fig8 --example fig9 --dest-refraction 0)
after=$(printf '%s\n' "$ex" | sed -n '/after the G2s0-G2s2 fault/,$p')
# Fig. 9(g): s1-s3 keep 3 routes, s0-s2 lose the minimal one (3 -> 2), every other pair loses one
if printf '%s\n' "$after" | grep -q "^example fig9g:   s0   0   2   2   2$" &&
   printf '%s\n' "$after" | grep -q "^example fig9g:   s1   2   0   2   3$" &&
   printf '%s\n' "$after" | grep -q "groups that still reach G2 over their direct link: G3 G6 G7  (3 of 7)"; then
  echo "ok: Fig. 9(g)(h) route counts as the paper"
else echo "FAIL: Fig. 9: $ex"; fail=1; fi
ex=$("$DOAR" faults fig8 --example fig9)
after=$(printf '%s\n' "$ex" | sed -n '/after the G2s0-G2s2 fault/,$p')
# with the destination-group refraction G2 keeps all 7 entry links; inside G2 the same counts
if printf '%s\n' "$after" | grep -q "^example fig9g:   s0   0   2   2   2$" &&
   printf '%s\n' "$after" | grep -q "groups that still reach G2 over their direct link: G0 G1 G3 G4 G5 G6 G7  (7 of 7)"; then
  echo "ok: Fig. 9 with the destination-group refraction: every group still reaches G2 directly"
else echo "FAIL: Fig. 9 (refraction): $ex"; fail=1; fi
ex=$("$DOAR" faults fig8 --example fig8c)
if printf '%s\n' "$ex" | grep -q "diagnosis ours=54 cycles = t_ld + 6.00 t_gd"; then
  echo "ok: Fig. 8(c) with the destination-group refraction: t_ld + 6 t_gd, no FD leaves G0"
else echo "FAIL: Fig. 8(c) (refraction): $ex"; fail=1; fi

# bad input
bad() { "$@" >/dev/null 2>&1; rc=$?; if [ $rc -ne 2 ]; then echo "FAIL: exit $rc (want 2): $*"; fail=1; else echo "ok: exit 2: ${*:2}"; fi; }
bad "$DOAR" faults small --campaigns 0
bad "$DOAR" faults small --max-faults x
bad "$DOAR" faults small --router-share 1.5
bad "$DOAR" faults small --latency 10
bad "$DOAR" faults small --example fig8b
bad "$DOAR" faults fig8 --example fig10
bad "$DOAR" faults small --bogus
bad "$DOAR" faults

# the oracle is a second, independent reading: it includes tables.h and the C library only, never
# the fault units it judges (csim/fault_oracle.h), and nothing in csim/ includes from tests/
ORACLE_DIR=$(dirname "$0")/../csim
inc=$(grep -h '^#include' "$ORACLE_DIR/fault_oracle.c" "$ORACLE_DIR/fault_oracle.h" | grep '"' | grep -v '"fault_oracle.h"\|"tables.h"')
if [ -n "$inc" ]; then echo "FAIL: the oracle includes more than tables.h: $inc"; fail=1
else echo "ok: the oracle includes tables.h and the C library only"; fi
if grep -n '#include.*tests/' "$ORACLE_DIR"/*.c "$ORACLE_DIR"/*.h; then echo "FAIL: csim/ includes from tests/"; fail=1
else echo "ok: nothing in csim/ includes from tests/"; fi
echo "faults_test: $([ $fail -eq 0 ] && echo ok || echo FAIL)"
exit $fail
