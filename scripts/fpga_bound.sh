#!/usr/bin/env bash
# An upper bound on the router's clock (docs/fpga.md item 16): apply a patch from fpga/bounds/ that
# cuts paths the router needs (not a working router), build `make fpga-ecp5` from it in a
# throw-away worktree of the commit it was written against (fpga/bounds/BASES: the router of that
# day, not necessarily HEAD's), and print nextpnr's result and critical path. A measurement: the
# patch is not kept and nothing in the tree changes.
# Usage: scripts/fpga_bound.sh NAME     (NAME: a patch fpga/bounds/NAME.patch)
# Last line: fpga-bound: name=NAME luts=N ffs=N fmax_mhz=F critical_ns=T logic_ns=L routing_ns=R
set -u
cd "$(dirname "$0")/.." || exit 2
usage() {
  local names=() f
  for f in fpga/bounds/*.patch; do names+=("$(basename "$f" .patch)"); done
  echo "usage: scripts/fpga_bound.sh NAME, NAME one of: ${names[*]} (fpga/bounds/NAME.patch)" >&2; exit 2
}
[ $# -eq 1 ] || usage
NAME=$1
case "$NAME" in ''|*[!a-z0-9_]*) usage;; esac
PATCH=$PWD/fpga/bounds/$NAME.patch
[ -f "$PATCH" ] || usage
git rev-parse --git-dir >/dev/null 2>&1 || { echo "fpga_bound: not a git checkout (a worktree is needed)" >&2; exit 2; }
BASE=$(awk -v n="$NAME" '$1 == n { print $2 }' fpga/bounds/BASES)
[ -n "$BASE" ] || { echo "fpga_bound: fpga/bounds/BASES names no commit for $NAME" >&2; exit 2; }
git cat-file -e "$BASE^{commit}" 2>/dev/null || { echo "fpga_bound: commit $BASE (fpga/bounds/BASES) is not in this clone" >&2; exit 2; }
WT=$PWD/build/fpga/bound_$NAME
git worktree remove --force "$WT" >/dev/null 2>&1; rm -rf "$WT"
mkdir -p build/fpga
git worktree add --detach "$WT" "$BASE" >/dev/null 2>&1 || { echo "fpga_bound: git worktree add failed" >&2; exit 1; }
cleanup() { git worktree remove --force "$WT" >/dev/null 2>&1; }
trap cleanup EXIT
(cd "$WT" && git apply "$PATCH") ||
  { echo "fpga_bound: fpga/bounds/$NAME.patch does not apply to the RTL of $BASE" >&2; exit 2; }
echo "fpga_bound: $NAME: make fpga-ecp5 of ${BASE:0:7} in $WT (synthesis and place-and-route take 15-25 minutes)"
(cd "$WT" && make fpga-ecp5) >"build/fpga/bound_$NAME.log" 2>&1
[ -s "$WT/build/fpga/ecp5/nextpnr.log" ] || { echo "fpga_bound: no nextpnr log: see build/fpga/bound_$NAME.log" >&2; exit 1; }
cp "$WT/build/fpga/ecp5/nextpnr.log" "build/fpga/bound_$NAME.nextpnr.log"
grep "^fpga:" "build/fpga/bound_$NAME.log"
summary=$(scripts/nextpnr_summary.sh "build/fpga/bound_$NAME.nextpnr.log") || exit 1
echo "fpga-bound: name=$NAME $summary"
