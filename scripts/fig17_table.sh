#!/usr/bin/env bash
# The table of seed 001 Fig. 17's scenario (links fail under load, are repaired later) from a
# `doar sim ... --link-faults N --fault-at F --repair-at R --series-csv CSV --bin B` run: its time
# series (CSV) and its output (TXT, for the diagnosis and recovery cycles and the losses).
# Usage: scripts/fig17_table.sh CSV TXT FROM FAULT REPAIR END
#   FROM..FAULT is the window "before"; FAULT..REPAIR the links are down; REPAIR..END after.
# Prints a markdown table, ours beside seed 001 Fig. 17's figures (read off the paper's plot and
# text: 0.95 before, 0.93 in the faults' bin, 1.1 % lower while down, back within 3 % from cycle
# 15,200, latency 149.2 / 157.7 / 149.2 cycles). Exit 2 on bad arguments or an unreadable run.
# The four cycles must be bin starts. Figures: "before" = mean accepted load of the bins in [FROM, FAULT); the faults' bin = the bin
# that starts at FAULT; lowest / mean while down = the bins in [FAULT, REPAIR) / [FAULT + B,
# REPAIR); "within 3 %" = the first bin from which every bin up to REPAIR carries at least 0.97 x
# "before"; after = the bins in [REPAIR + B, END); latency = mean over the packets delivered in
# each window (a bin's latency weighted by its packets).
set -u
die() { echo "fig17_table: $*" >&2; exit 2; }
[ $# -eq 6 ] || die "usage: scripts/fig17_table.sh CSV TXT FROM FAULT REPAIR END"
CSV=$1 TXT=$2 FROM=$3 FAULT=$4 REPAIR=$5 END=$6
for v in "$FROM" "$FAULT" "$REPAIR" "$END"; do
  [[ $v =~ ^[0-9]+$ ]] || die "'$v': expected a cycle (decimal digits)"
done
[ "$FROM" -lt "$FAULT" ] && [ "$FAULT" -lt "$REPAIR" ] && [ "$REPAIR" -lt "$END" ] ||
  die "expected FROM < FAULT < REPAIR < END, got $FROM $FAULT $REPAIR $END"
[ -r "$CSV" ] && head -n 1 "$CSV" | grep -qx "cycle,accepted,latency,packets" || die "$CSV: not a --series-csv file"
faults=$(grep -m 1 "^sim: faults " "$TXT" 2>/dev/null) || die "$TXT: no 'sim: faults' line"
field() { echo "$faults" | sed -nE "s/.* $1=(-?[0-9]+).*/\\1/p"; }
diag=$(field diagnosis_cycles) rec=$(field recovery_cycles) links=$(field lost_on_links) disc=$(field lost_discarded)
[ -n "$diag" ] && [ -n "$rec" ] && [ -n "$links" ] && [ -n "$disc" ] || die "$TXT: the faults line lacks its cycles or losses"
awk -F, -v from="$FROM" -v fault="$FAULT" -v repair="$REPAIR" -v end="$END" -v diag="$diag" -v rec="$rec" \
    -v links="$links" -v disc="$disc" '
  function pct(x, b) { return b > 0 ? sprintf("%+.1f %%", 100 * (x - b) / b) : "-" }
  function mean(s, n) { return n ? s / n : 0 }
  NR == 1 { next }
  {
    c = $1 + 0; a = $2 + 0; l = $3 + 0; p = $4 + 0
    if (NR == 2) bin = -1
    if (prev_c != "" && bin < 0) bin = c - prev_c
    prev_c = c
    cyc[++n] = c; acc[n] = a
    if (c >= from && c < fault) { bs += a; bn++; bl += l * p; bp += p }
    if (c == fault) fb = a
    if (c >= fault && c < repair) { if (lo == "" || a < lo) lo = a; dl += l * p; dp += p }
    if (c >= fault && c < repair && c > fault) { ds += a; dn++ }
    if (c > repair && c < end) { as += a; an++; al += l * p; ap += p }
  }
  END {
    if (bin > 0 && (from % bin || fault % bin || repair % bin || end % bin)) {
      print "fig17_table: " from ", " fault ", " repair ", " end ": not all on bin starts (bins of " bin " cycles)" > "/dev/stderr"; exit 2
    }
    if (!bn || !dn || !an || fb == "") { print "fig17_table: the series does not cover " from ".." end > "/dev/stderr"; exit 2 }
    before = bs / bn
    # the first bin from which every bin before the repair stays within 3 % of before
    settle = -1
    for (i = 1; i <= n; i++) {
      if (cyc[i] < fault || cyc[i] >= repair) continue
      if (acc[i] < 0.97 * before) settle = -1
      else if (settle < 0) settle = cyc[i]
    }
    diag_end = diag >= 0 ? fault + diag : -1
    if (settle == fault) within = "all the time (no bin below 0.97 x before)"
    else if (settle < 0) within = "not before the repair"
    else if (diag_end >= 0) within = sprintf("from %d (%d cycles after diagnosis ended)", settle, settle > diag_end ? settle - diag_end : 0)
    else within = sprintf("from %d", settle)
    printf "| | ours | seed 001 Fig. 17 |\n|---|---|---|\n"
    printf "| accepted before the faults (%d-%d) | %.4f | 0.95 |\n", from, fault, before
    printf "| the faults%s bin (%d-%d) | %.4f (%s) | 0.93 |\n", "\047", fault, fault + bin, fb, pct(fb, before)
    printf "| lowest bin while the links are down | %.4f (%s) | |\n", lo, pct(lo, before)
    printf "| mean while the links are down (%d-%d) | %.4f (%s) | 0.94 (-1.1 %%) |\n", fault + bin, repair, ds / dn, pct(ds / dn, before)
    printf "| back within 3 %% of before | %s | from 15,200 |\n", within
    printf "| mean latency before / while down / after the repair | %.1f / %.1f / %.1f cycles | 149.2 / 157.7 / 149.2 |\n", mean(bl, bp), mean(dl, dp), mean(al, ap)
    printf "| accepted after the repair (%d-%d) | %.4f (%s) | 0.95 |\n", repair + bin, end, as / an, pct(as / an, before)
    printf "| diagnosis / recovery | %s / %s cycles | about 3,500 / 10,300 |\n", (diag >= 0 ? diag : "did not end"), (rec >= 0 ? rec : "did not end")
    printf "| packets lost: on links / discarded | %d / %d | |\n", links, disc
  }' "$CSV"
