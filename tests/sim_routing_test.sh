#!/usr/bin/env bash
# The routing algorithms end to end (issue 6 item 8): every policy delivers every packet on every
# base pattern; then saturation sweeps on small that fail if routing were broken:
#   MIN beats VAL on UR (VAL doubles the path), VAL beats MIN on ADV+1 (MIN has one global link
#   per group pair), DOAR is at least UGAL_L on ADV+1 and MIN-like on UR (>= 85 % of MIN), TPR
#   carries what VAL does on ADV+1 (its traffic-pattern registers) and far more than UGAL_L; and on
#   mid ADV+1 DOAR counting the demand of global ports is far below credits alone in latency.
# Usage: tests/sim_routing_test.sh DOAR
set -u
DOAR=${1:?doar binary}
TMP=$(mktemp -d /tmp/doar_routing_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/cli_lib.sh"

echo "== every routing algorithm delivers everything (small, 0.2, ur / adv+1 / rp)"
for r in min val ugal_l ugal_g par par_ph ugal_le tpr doar; do
  for tr in ur adv+1 rp; do
    expect_exit 0 "$DOAR" sim small --routing $r --traffic $tr --rate 0.2 --seed 3 --warmup 1000 --sample 1000 --quiet
    last=$(tail -n 1 "$TMP/out")
    echo "$last" | grep -q "routing=$r traffic=$tr .* lost=0$" && ok || bad "$last"
    del=$(echo "$last" | sed -E 's/.*delivered=([0-9]+).*/\1/')
    [ "${del:-0}" -gt 500 ] && ok || bad "$r $tr: delivered $del"
  done
  # VC count of seed 001 Table 1 (MIN 2, PAR_PH 5, the others 4) and the non-minimal share
  case $r in min) vcs=2;; par|par_ph) vcs=5;; *) vcs=4;; esac
  [ "$r" = doar ] || { grep -qE "^sim: policy=$r vcs=$vcs source_decisions=[0-9]+ nonminimal=" "$TMP/out" && ok || bad "$r: policy line: $(grep '^sim: policy' "$TMP/out")"; }
done

# The comparisons below were established on the router without internal speed-up and are checked
# there (--speedup 1); at the default S = 2 the regression bar further down checks DOAR against
# MIN and past saturation (issue 19; docs/RESULTS.md).
echo "== saturation on small, S = 1 (sweeps, 3000 + 3000 cycles, step 0.05)"
SW=(--warmup 3000 --sample 3000 --step 0.05 --seed 1 --quiet --speedup 1)
sat() {
  "$DOAR" sweep small --routing "$1" --traffic "$2" "${SW[@]}" >"$TMP/sw" 2>"$TMP/err" || { bad "sweep $1 $2 exit $?"; echo 0; return; }
  sed -n 's/^sweep: config=small routing=.* saturation=\([0-9.]*\)$/\1/p' "$TMP/sw" | tail -n 1
}
declare -A s                   # s["ROUTING TRAFFIC"]: the saturation found
for spec in "min ur" "val ur" "doar ur" "min adv+1" "val adv+1" "ugal_l adv+1" "tpr adv+1" "doar adv+1"; do
  read -r r t <<<"$spec"
  v=$(sat "$r" "$t")
  echo "   $r $t: $v"
  s[$spec]=$v
done
s_min_ur=${s[min ur]} s_val_ur=${s[val ur]} s_doar_ur=${s[doar ur]}
s_min_adv_1=${s[min adv+1]} s_val_adv_1=${s[val adv+1]} s_ugal_l_adv_1=${s[ugal_l adv+1]} s_doar_adv_1=${s[doar adv+1]}
s_tpr_adv_1=${s[tpr adv+1]}
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
gt "$s_min_ur" "$s_val_ur" && ok || bad "MIN ($s_min_ur) should beat VAL ($s_val_ur) on UR"
gt "$s_val_adv_1" "$s_min_adv_1" && ok || bad "VAL ($s_val_adv_1) should beat MIN ($s_min_adv_1) on ADV+1"
awk -v d="$s_doar_adv_1" -v u="$s_ugal_l_adv_1" 'BEGIN { exit !(d >= u) }' && ok || bad "DOAR ($s_doar_adv_1) < UGAL_L ($s_ugal_l_adv_1) on ADV+1"
awk -v d="$s_doar_ur" -v m="$s_min_ur" 'BEGIN { exit !(d >= 0.85 * m) }' && ok || bad "DOAR ($s_doar_ur) below 85% of MIN ($s_min_ur) on UR"
# TPR's traffic-pattern registers: toward the hot group it routes as VAL does, so on ADV+1 it
# carries what VAL carries (seed 001: TPR 0.48, VAL 0.49), far above UGAL_L, which it is otherwise
awk -v t="$s_tpr_adv_1" -v u="$s_ugal_l_adv_1" -v v="$s_val_adv_1" 'BEGIN { exit !(t >= 1.3 * u && t >= 0.9 * v) }' &&
  ok || bad "TPR ($s_tpr_adv_1) on ADV+1: not 30% above UGAL_L ($s_ugal_l_adv_1) or below 90% of VAL ($s_val_adv_1)"

# The internal speed-up is what lets a dragonfly carry more than an input-queued switch does
# (seed 001 Table 1): MIN on UR with S = 2 well above S = 1.
echo "== the internal speed-up: MIN on UR, small, S = 2 against S = 1"
v=$("$DOAR" sweep small --routing min --traffic ur --warmup 3000 --sample 3000 --step 0.05 --seed 1 --quiet --speedup 2 2>"$TMP/err" |
    sed -n 's/^sweep: config=small routing=.* saturation=\([0-9.]*\)$/\1/p')
echo "   min ur: S=1 $s_min_ur, S=2 ${v:-none}"
awk -v a="${v:-0}" -v b="$s_min_ur" 'BEGIN { exit !(a >= 1.25 * b) }' && ok || bad "MIN with S=2 (${v:-none}) not 25% above S=1 ($s_min_ur)"

# A global port's congestion counts the flits waiting for it (docs/architecture.md "Congestion"):
# without that, the queue in front of a 100-cycle link shows only a round trip later and DOAR keeps
# sending ADV+1 traffic into the one minimal link (mid: one global link per group pair).
echo "== DOAR on mid, ADV+1 0.3, S = 1: demand counted against credits alone"
lat() {
  "$DOAR" sim mid --traffic adv+1 --rate 0.3 --seed 1 --warmup 3000 --sample 2000 --quiet --speedup 1 "$@" >"$TMP/d" 2>&1 || { bad "sim $* exit $?"; echo 0; return; }
  sed -n 's/^sim: config=mid .* latency=\([0-9.]*\) .*/\1/p' "$TMP/d"
}
l_dem=$(lat); l_cr=$(lat --cong-demand 0)
echo "   latency: demand $l_dem, credits only $l_cr"
awk -v d="$l_dem" -v c="$l_cr" 'BEGIN { exit !(d > 0 && d < 0.6 * c) }' && ok || bad "demand ($l_dem) not well below credits only ($l_cr)"
# doar sweep --past F (issue 19): past the saturation load lo up to top = F x lo (at most 1.0), on
# the step's grid and at top itself; post_saturation is the lowest accepted load above lo. The
# figures are recomputed here from the load lines, and the load they come from is run again as a
# plain doar sim, which must accept the same.
echo "== sweep --past 1.2 (small, S = 2, DOAR UR, 3000 + 3000 cycles)"
SW2=(--warmup 3000 --sample 3000 --step 0.05 --seed 1 --quiet --speedup 2)
"$DOAR" sweep small --routing doar --traffic ur "${SW2[@]}" --past 1.2 >"$TMP/past" 2>"$TMP/err" || bad "sweep --past exit $?"
last=$(tail -n 1 "$TMP/past")
echo "   $last"
sat=$(echo "$last" | sed -n 's/^sweep: config=small routing=doar traffic=ur saturation=\([0-9.]*\) post_saturation=\([0-9.]*\)$/\1/p')
post=$(echo "$last" | sed -n 's/^sweep: config=small routing=doar traffic=ur saturation=\([0-9.]*\) post_saturation=\([0-9.]*\)$/\2/p')
[ -n "$sat" ] && [ -n "$post" ] && ok || bad "last line: $last"
lo=$(sed -n 's/^sweep: points=.* highest_unsaturated=\([0-9.]*\) .*/\1/p' "$TMP/past")
top=$(awk -v l="$lo" 'BEGIN { t = 1.2 * l; if (t > 1) t = 1; printf "%.4f", t }')
grep -q "^sweep: rate=$top " "$TMP/past" && ok || bad "no load at 1.2 x $lo = $top"
# the grid on from the first saturated grid load, below top
fs=$(awk -v l="$lo" 'BEGIN { printf "%.4f", (int(l / 0.05 + 1e-9) + 1) * 0.05 }')
for k in $(seq 1 20); do
  r=$(awk -v f="$fs" -v k="$k" 'BEGIN { printf "%.4f", f + 0.05 * k }')
  awk -v r="$r" -v t="$top" 'BEGIN { exit !(r < t - 0.00005) }' || break
  grep -q "^sweep: rate=$r " "$TMP/past" && ok || bad "grid load $r missing below $top"
done
mins=$(awk -v l="$lo" -v t="$top" '/^sweep: rate=/ { split($2, a, "="); split($3, b, "=");
  if (a[2] > l + 0.00005 && a[2] < t + 0.00005 && (m == "" || b[2] < m)) { m = b[2]; at = a[2] } }
  END { print m, at }' "$TMP/past")
read -r min_acc min_at <<<"$mins"
echo "   highest unsaturated $lo, loads up to $top, lowest accepted above it $min_acc at $min_at"
[ "$min_acc" = "$post" ] && ok || bad "post_saturation $post, the load lines' lowest above $lo: $min_acc"
# a load past saturation is a plain doar sim at that load (the early stop comes after the sample
# window, which fixes the accepted load): the top load and, when it is a grid or the top load (the
# bisection's loads print rounded), the one post_saturation comes from
atop=$(sed -n "s/^sweep: rate=$top accepted=\([0-9.]*\) .*/\1/p" "$TMP/past" | head -n 1)
for spec in "$top $atop" "$min_at $min_acc"; do
  read -r rate want <<<"$spec"
  awk -v r="$rate" -v t="$top" 'BEGIN { g = r / 0.05; exit !(r == t || (g - int(g + 0.5))^2 < 1e-12) }' || continue
  "$DOAR" sim small --routing doar --traffic ur --rate "$rate" --warmup 3000 --sample 3000 --seed 1 --quiet --speedup 2 >"$TMP/sim" 2>&1
  acc=$(sed -n 's/^sim: config=small .* accepted=\([0-9.]*\) .*/\1/p' "$TMP/sim")
  [ "$acc" = "$want" ] && ok || bad "doar sim at $rate accepted ${acc:-none}, the sweep's load line ${want:-none}"
done
# without --past: the same saturation and no new field (its loads resumed from the run above)
"$DOAR" sweep small --routing doar --traffic ur "${SW2[@]}" --resume "$TMP/past" >"$TMP/nopast" 2>"$TMP/err" || bad "sweep exit $?"
[ "$(tail -n 1 "$TMP/nopast")" = "sweep: config=small routing=doar traffic=ur saturation=$sat" ] && ok ||
  bad "without --past: $(tail -n 1 "$TMP/nopast")"
grep -q "^sweep: rate=$top " "$TMP/nopast" && bad "load $top run without --past" || ok
# Issue 19 item 5, the regression bar (small, S = 2): MIN on UR saturates above 0.8, and DOAR holds
# past saturation — its accepted load at offered 1.0 is at least 90 % of its saturation throughput.
# The loads up to 1.0 continue the sweep above (--past 100 from its output: the --step grid on to
# 1.0). With the paper's literal fallback (Algorithm 1 lines 16 and 22: at random over every
# class) DOAR collapses there: 0.34 at 1.0 against 0.62 (docs/RESULTS.md, issue 19).
echo "== no congestion collapse (small, S = 2): MIN UR above 0.8, DOAR at offered 1.0 >= 90 % of its saturation"
awk -v m="${v:-0}" 'BEGIN { exit !(m > 0.8) }' && ok || bad "MIN UR saturation with S=2 ${v:-none}, not above 0.8"
"$DOAR" sweep small --routing doar --traffic ur "${SW2[@]}" --past 100 --resume "$TMP/past" >"$TMP/past100" 2>"$TMP/err" || bad "sweep --past 100 exit $?"
a1=$(sed -n 's/^sweep: rate=1.0000 accepted=\([0-9.]*\) .*/\1/p' "$TMP/past100" | head -n 1)
echo "   doar ur: saturation $sat, accepted at offered 1.0 ${a1:-none}, post_saturation ${post}"
awk -v a="${a1:-0}" -v s="$sat" 'BEGIN { exit !(a >= 0.9 * s) }' && ok || bad "DOAR UR at offered 1.0: ${a1:-none} < 90% of its saturation $sat (congestion collapse)"
echo "sim_routing_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
