#!/usr/bin/env bash
# One line from a nextpnr-ecp5 log (the last timing pass): the design's size and its critical
# path, split into logic and routing as nextpnr reports it. Used by `make fpga-unit` and
# scripts/fpga_bound.sh.
# Usage: scripts/nextpnr_summary.sh NEXTPNR_LOG
# Prints: luts=N ffs=N fmax_mhz=F critical_ns=T logic_ns=L routing_ns=R
set -u
[ $# -eq 1 ] || { echo "usage: scripts/nextpnr_summary.sh NEXTPNR_LOG" >&2; exit 2; }
L=$1
[ -s "$L" ] || { echo "nextpnr_summary: no log '$L'" >&2; exit 2; }
n=$(grep -n "Critical path report for clock" "$L" | tail -n 1 | cut -d: -f1)
fmax=$(grep -oE "Max frequency for clock [^:]*: [0-9.]+ MHz" "$L" | tail -n 1 | grep -oE "[0-9.]+ MHz" | cut -d' ' -f1)
[ -n "$n" ] && [ -n "$fmax" ] || { echo "nextpnr_summary: '$L' has no timing report (did nextpnr finish?)" >&2; exit 2; }
# nextpnr's own split of that path (its logic counts clock-to-out and setup)
split=$(sed -n "$n,\$p" "$L" | grep -m 1 -oE "[0-9.]+ ns logic, [0-9.]+ ns routing" |
  awk '{ printf "logic_ns=%.1f routing_ns=%.1f", $1, $4 }')
luts=$(grep -oE "TRELLIS_COMB: +[0-9]+" "$L" | tail -n 1 | grep -oE "[0-9]+$")
ffs=$(grep -oE "TRELLIS_FF: +[0-9]+" "$L" | tail -n 1 | grep -oE "[0-9]+$")
echo "luts=$luts ffs=$ffs fmax_mhz=$fmax critical_ns=$(awk -v f="$fmax" 'BEGIN { printf "%.1f", 1000 / f }') $split"
