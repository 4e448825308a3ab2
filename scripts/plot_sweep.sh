#!/usr/bin/env bash
# Plots doar sweep CSV files (rate,accepted,latency,hops,saturated,stopped): accepted throughput
# and mean latency against offered load, one curve per file, into one PNG (a load stopped early
# shows the lower bound of its latency).
# Usage: scripts/plot_sweep.sh OUT.png "TITLE" LABEL=FILE.csv [LABEL=FILE.csv ...]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: scripts/plot_sweep.sh OUT.png TITLE LABEL=FILE.csv ..." >&2
  exit 2
fi
out=$1; title=$2; shift 2
command -v gnuplot >/dev/null || { echo "plot_sweep: gnuplot missing (scripts/deps.sh plots)" >&2; exit 2; }
tp=""; lp=""
for spec in "$@"; do
  label=${spec%%=*}; file=${spec#*=}
  [ -r "$file" ] || { echo "plot_sweep: cannot read $file" >&2; exit 2; }
  # rows are written in the order measured (bisection last): sort by load for the lines
  sorted=$(mktemp /tmp/doar_plot_XXXXXX)
  tail -n +2 "$file" | sort -t, -k1,1g > "$sorted"
  tp="$tp${tp:+, }'$sorted' using 1:2 with linespoints title '$label'"
  lp="$lp${lp:+, }'$sorted' using 1:3 with linespoints title '$label'"
done
gnuplot <<GP
set terminal png size 1100,450 noenhanced
set output '$out'
set datafile separator ','
set multiplot layout 1,2 title '$title'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'accepted (flits/node/cycle)'
set key left top
set grid
plot [0:1] $tp
set ylabel 'mean latency (cycles)'
set logscale y
plot [0:1] $lp
unset multiplot
GP
rm -f /tmp/doar_plot_??????
echo "plot: $out"
