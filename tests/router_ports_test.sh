#!/usr/bin/env bash
# router_ports_test.sh — scripts/check_router_ports.py must see a port list that disagrees with the
# RTL or the FPGA board top (issue 23: the router's ports are written once, in tb/router_ports.h).
# Each broken copy must make it exit 1 and name the port; the real files must pass.
# Usage: tests/router_ports_test.sh [build/configs.mk]    Last line: router-ports-test: N/N checks passed
set -u
mk=${1:-build/configs.mk}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 total=0
expect() {   # expect RC TEXT ARGS...: the checker exits RC and prints TEXT
    local rc=$1 text=$2 out got
    shift 2
    total=$((total + 1))
    out=$(python3 scripts/check_router_ports.py --configs-mk "$mk" "$@" 2>&1)
    got=$?
    if [ "$got" = "$rc" ] && printf '%s\n' "$out" | grep -q -- "$text"; then pass=$((pass + 1))
    else echo "router-ports-test: FAIL: $* gave exit $got, wanted $rc and '$text':"; printf '%s\n' "$out"; fi
}
expect 0 "agree"
sed 's/^\( *X(in_vc, *\)2,/\13,/' tb/router_ports.h > "$tmp/width.h"
expect 1 "in_vc on small" --ports "$tmp/width.h"
grep -v 'X(fw_int,' tb/router_ports.h > "$tmp/missing.h"
expect 1 "not in $tmp/missing.h: \['fw_int'\]" --ports "$tmp/missing.h"
sed 's/ *\.overflow(overflow)//' fpga/ecp5_router_top.v > "$tmp/top.v"
expect 1 "leaves unbound \['overflow'\]" --top "$tmp/top.v"
sed 's/output wire \[K-1:0\]    overflow,/input  wire [K-1:0]    overflow,/' rtl/router.v > "$tmp/router.v"
expect 1 "overflow: $tmp/router.v says input" --router "$tmp/router.v"
echo "router-ports-test: $pass/$total checks passed"
[ "$pass" = "$total" ]
