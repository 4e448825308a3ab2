#!/usr/bin/env bash
# fpga_cones_test.sh — scripts/fpga_cones.py on a netlist small enough to count by hand: two
# flip-flops (a, b), a LUT only a's input needs, a LUT feeding both, a LUT feeding that one, a
# carry cell only b needs, and a LUT behind a flip-flop (not in either cone). Bad input: exit 2.
# Usage: tests/fpga_cones_test.sh        Last line: fpga-cones-test: N/N checks passed
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 total=0
check() {   # check NAME COND-RESULT
    total=$((total + 1))
    if [ "$2" = 0 ]; then pass=$((pass + 1)); else echo "fpga-cones-test: FAIL: $1"; fi
}
# nets: 2 in; 3 = l1(in); 4 = l2(3); 5 = l3(4, in) -> a.DI; 6 = lo(4) -> b.DI via carry 7; 8 = a.Q;
# 9 = b.Q; 10 = l4(8) behind a -> drives nothing registered
cat > "$tmp/n.json" <<'J'
{"modules": {"unit_top": {"attributes": {"top": "00000000000000000000000000000001"},
 "netnames": {"a": {"hide_name": 0, "bits": [8]}, "b": {"hide_name": 0, "bits": [9]}},
 "cells": {
  "l1": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"}, "connections": {"A": [2], "Z": [3]}},
  "l2": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"}, "connections": {"A": [3], "Z": [4]}},
  "l3": {"type": "LUT4", "port_directions": {"A": "input", "B": "input", "Z": "output"}, "connections": {"A": [4], "B": [2], "Z": [5]}},
  "lo": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"}, "connections": {"A": [4], "Z": [6]}},
  "cc": {"type": "CCU2C", "port_directions": {"A0": "input", "S0": "output"}, "connections": {"A0": [6], "S0": [7]}},
  "fa": {"type": "TRELLIS_FF", "port_directions": {"DI": "input", "Q": "output"}, "connections": {"DI": [5], "Q": [8]}},
  "fb": {"type": "TRELLIS_FF", "port_directions": {"DI": "input", "Q": "output"}, "connections": {"DI": [7], "Q": [9]}},
  "l4": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"}, "connections": {"A": [8], "Z": [10]}}
 }}}}
J
out=$(python3 scripts/fpga_cones.py "$tmp/n.json" 2>&1); rc=$?
check "exit $rc on a good netlist" "$([ $rc = 0 ]; echo $?)"
# a: l3 alone, l1 and l2 shared with b -> share 2, excl 1, cone 3; b: lo and cc alone -> 3, 2, 4
row() { printf '%s\n' "$out" | awk -v n="$1" '$4 == n { print $1, $2, $3 }'; }
check "a's row '$(row a)'" "$([ "$(row a)" = "2 1 3" ]; echo $?)"
check "b's row '$(row b)'" "$([ "$(row b)" = "3 2 4" ]; echo $?)"
check "summary '$(printf '%s\n' "$out" | tail -1)'" \
  "$([ "$(printf '%s\n' "$out" | tail -1)" = "cones: cells=6 attributed=5 groups=2" ]; echo $?)"
expect2() {   # expect2 TEXT ARGS...: exit 2 and one line naming the problem
    local t=$1 o r
    shift
    o=$(python3 scripts/fpga_cones.py "$@" 2>&1); r=$?
    check "$* gave exit $r: $o" "$([ $r = 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" = 1 ] && printf '%s' "$o" | grep -q -- "$t"; echo $?)"
}
echo '{"x": 1' > "$tmp/bad.json"
expect2 "not a readable" "$tmp/bad.json"
expect2 "not a readable" "$tmp/none.json"
echo '{"modules": {}}' > "$tmp/empty.json"
expect2 "no modules" "$tmp/empty.json"
expect2 "no module 'nope'" "$tmp/n.json" "$tmp/n.json" nope
expect2 "usage"
echo 'module m; endmodule' > "$tmp/top.v"
expect2 "no .\.PORT(o\[HI:LO\])' connections" "$tmp/n.json" "$tmp/top.v"
echo "fpga-cones-test: $pass/$total checks passed"
[ "$pass" = "$total" ]
