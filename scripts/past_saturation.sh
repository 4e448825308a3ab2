#!/usr/bin/env bash
# Congestion collapse, measured (issue 19 item 2): for one routing and traffic pattern, the
# saturation throughput and the accepted load at 1.2 x the saturation load and at offered 1.0.
# Two sweeps, the second resuming the first's loads:
#   doar sweep CONFIG ... --past 1.2            (saturation, post_saturation up to 1.2 x lo)
#   doar sweep CONFIG ... --past 100 --resume   (the step's grid on to 1.0)
# Usage: scripts/past_saturation.sh DOAR CONFIG ROUTING TRAFFIC OUTPREFIX [doar sweep options]
# Prints one markdown row: | routing | traffic | saturation | at 1.2 x sat | at 1.0 | ratios |
# The sweeps' own outputs stay in OUTPREFIX_p12.txt and OUTPREFIX_p100.txt; an OUTPREFIX_base.txt
# (an earlier sweep of the same settings) is resumed when present.
set -u
DOAR=${1:?doar binary}; CFG=${2:?config}; R=${3:?routing}; T=${4:?traffic}; OUT=${5:?output prefix}
shift 5
SW=(--speedup 2 --seed 1 --step 0.05 --warmup 5000 --sample 3000 --quiet)
res=(); [ -s "${OUT}_base.txt" ] && res=(--resume "${OUT}_base.txt")
"$DOAR" sweep "$CFG" --routing "$R" --traffic "$T" "${SW[@]}" "$@" --past 1.2 "${res[@]}" >"${OUT}_p12.txt" 2>/dev/null ||
  { echo "past_saturation: sweep $CFG $R $T failed" >&2; exit 1; }
"$DOAR" sweep "$CFG" --routing "$R" --traffic "$T" "${SW[@]}" "$@" --past 100 --resume "${OUT}_p12.txt" >"${OUT}_p100.txt" 2>/dev/null ||
  { echo "past_saturation: sweep --past 100 $CFG $R $T failed" >&2; exit 1; }
sat=$(sed -n 's/^sweep: config=.* saturation=\([0-9.]*\) post_saturation=.*/\1/p' "${OUT}_p12.txt")
lo=$(sed -n 's/^sweep: points=.* highest_unsaturated=\([0-9.]*\) .*/\1/p' "${OUT}_p12.txt")
top=$(awk -v l="$lo" 'BEGIN { t = 1.2 * l; if (t > 1) t = 1; printf "%.4f", t }')
acc_at() { sed -n "s/^sweep: rate=$1 accepted=\([0-9.]*\) .*/\1/p" "$2" | head -n 1; }
a12=$(acc_at "$top" "${OUT}_p12.txt"); a1=$(acc_at 1.0000 "${OUT}_p100.txt")
ratio() { awk -v a="${1:-0}" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f %%", 100 * a / s; else print "-" }'; }
echo "| $R | $T | $sat (at $lo) | ${a12:-?} ($top) | ${a1:-?} | $(ratio "$a12" "$sat") / $(ratio "$a1" "$sat") |"
