#!/usr/bin/env bash
# Reruns seed 001's evaluation (sec. 5) on one configuration and writes OUTDIR/summary.md: ours
# beside the paper's figures (the paper's network is `paper`, dfly(6,12,6,73); on a smaller one
# only the orderings compare), sweep CSVs, PNG plots, hop distributions, global channel loads
# (Fig. 12), fault runs, and with shortened phases a check of DOAR against the paper's phases.
#
# Usage: scripts/reproduce.sh DOAR CONFIG OUTDIR
# Environment: SEED (1), JOBS (parallel runs, default: the cores), PHASES (extra doar options,
#   default none = the paper's 30,000 warm-up + 10,000 sample cycles), APP_RATE (0.3),
#   STEP (sweep step, 0.05).
# Results already in OUTDIR (a run that ended) are kept, and an interrupted sweep goes on from the
# loads it had finished (doar sweep --resume): rerunning resumes an interrupted reproduction
# (delete OUTDIR/runs for a fresh one). Only runs of DOAR's router count (their headers say
# router=...): OUTDIR's runs of another router are moved to OUTDIR/runs-other-router and run
# again. RESUME_FROM=DIR first takes the run outputs saved in DIR
# (scripts/reproduce_save.sh, e.g. from another machine) where OUTDIR has none or only a partial one.
# ONLY=REGEX runs only the runs whose output name (e.g. sweep_val_ur, hops_min_rp, app_tpr_lu)
# matches the extended regex; the others are left for a later rerun (the summary marks them
# pending). Useful to split a reproduction across machines or to keep one routing's runs back.
# Progress: one line per finished run on stderr; last line on stdout:
#   reproduce: config=C runs=N failed=F wall=S s summary=OUTDIR/summary.md
set -u
[ $# -eq 3 ] || { echo "usage: scripts/reproduce.sh DOAR CONFIG OUTDIR" >&2; exit 2; }
DOAR=$1 CONFIG=$2 OUT=$3
SEED=${SEED:-1}
JOBS=${JOBS:-$(nproc)}
PHASES=${PHASES:-}
APP_RATE=${APP_RATE:-0.3}
STEP=${STEP:-0.05}
# Speed only: glibc's malloc asks for transparent huge pages (the simulator's state is hundreds of
# megabytes on `paper`, read router by router; fewer TLB misses: about +10 % there). Older glibc
# ignores the tunable. A tunable the caller set is kept.
export GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}
[ -x "$DOAR" ] || { echo "reproduce: $DOAR is not executable" >&2; exit 2; }
"$DOAR" topo "$CONFIG" >/dev/null 2>&1 || { echo "reproduce: unknown config '$CONFIG'" >&2; exit 2; }
mkdir -p "$OUT/runs" "$OUT/plots" || exit 2
T0=$(date +%s)
finished() { grep -qE '^(sweep|sim): config=.* (saturation|lost)=' "$1" 2>/dev/null; }
ONLY=${ONLY:-}
if [ -n "$ONLY" ]; then
  echo x | grep -qE -- "$ONLY" 2>/dev/null; [ $? -le 1 ] || { echo "reproduce: ONLY='$ONLY' is not an extended regex" >&2; exit 2; }
fi
# Only runs of this build's router count (a sweep's settings line and a sim's first line name it:
# router=...): a run of another router, or of a build before the field, is never kept or resumed.
ROUTER_ID=$("$DOAR" sweep tiny --routing min --step 0.5 --warmup 1 --sample 1 --quiet 2>/dev/null |
  sed -nE 's/^sweep: packet_len=.* router=([a-z0-9]+).*/\1/p' | head -n 1)
[ -n "$ROUTER_ID" ] || { echo "reproduce: cannot read the router of $DOAR (doar sweep's settings line)" >&2; exit 2; }
of_router() { grep -qE "^(sweep: packet_len=|sim: config=).* router=$ROUTER_ID( |\$)" "$1"; }
has_header() { grep -qE '^(sweep: packet_len=|sim: config=)' "$1"; }
# OUTDIR's own runs of another router (an earlier reproduction with an older build) go aside into
# OUTDIR/runs-other-router, so that they are run again, not kept
moved=0
for f in "$OUT"/runs/*.txt; do
  [ -f "$f" ] && has_header "$f" && ! of_router "$f" || continue
  b=$(basename "$f" .txt)
  mkdir -p "$OUT/runs-other-router" || exit 2
  mv -f "$OUT/runs/$b".* "$OUT/runs-other-router/"
  [ "$b" = "${b#hops_}" ] || mv -f "$OUT/runs/chan_${b#hops_}".csv "$OUT/runs-other-router/" 2>/dev/null
  moved=$((moved + 1))
done
[ $moved -eq 0 ] || echo "reproduce: moved $moved run outputs of another router (not router=$ROUTER_ID) to $OUT/runs-other-router; they run again" >&2
RESUME_FROM=${RESUME_FROM:-}
if [ -n "$RESUME_FROM" ]; then
  [ -d "$RESUME_FROM" ] || { echo "reproduce: RESUME_FROM=$RESUME_FROM is not a directory" >&2; exit 2; }
  # a saved run of another router is left where it is
  taken=0 other=0
  for f in "$RESUME_FROM"/*.txt; do
    [ -f "$f" ] || continue
    b=$(basename "$f" .txt)
    if ! of_router "$f"; then other=$((other + 1)); continue; fi
    # a saved output replaces none that has ended; a partial sweep replaces a missing one
    finished "$OUT/runs/$b.txt" && continue
    [ -s "$OUT/runs/$b.txt" ] && ! finished "$f" && continue
    cp "$RESUME_FROM/$b".* "$OUT/runs/" 2>/dev/null
    [ "$b" = "${b#hops_}" ] || cp "$RESUME_FROM/chan_${b#hops_}".csv "$OUT/runs/" 2>/dev/null
    taken=$((taken + 1))
  done
  echo "reproduce: took $taken run outputs from $RESUME_FROM ($other of another router left there)" >&2
fi
ROUTINGS="min val ugal_l ugal_g par par_ph ugal_le tpr doar"
COMPARED="val par_ph tpr ugal_le doar"         # seed 001 Figs. 13-14 compare these with DOAR
APPS="lu fft3d halo3d stencil5d dl lulesh"
MIXES="r_mixed_ua(75,25) r_mixed_ua(50,50) r_mixed_ua(25,75) n_mixed_ur(75,25) n_mixed_ur(50,50) n_mixed_ur(25,75)"

topo_line=$("$DOAR" topo "$CONFIG" | head -n 1)
G=$(echo "$topo_line" | sed -nE 's/.*dfly\(([0-9]+),([0-9]+),([0-9]+),([0-9]+)\).*/\4/p')
ROUTERS=$("$DOAR" topo "$CONFIG" | sed -nE 's/^topo: .* routers=([0-9]+) .*/\1/p')
LINKS=$("$DOAR" topo "$CONFIG" | sed -nE 's/.*local_links=([0-9]+).*global_links=([0-9]+).*/\1 \2/p' | awk '{ print $1 + $2 }')
[ -n "$G" ] && [ -n "$ROUTERS" ] || { echo "reproduce: cannot read the topology of $CONFIG" >&2; exit 2; }
PAPER_LINKS=7446      # dfly(6,12,6,73): 4818 intra-group + 2628 global links
PAPER_ROUTERS=876
scale() {  # the paper's fault count scaled to this network, at least 1
  awk -v n="$1" -v ours="$2" -v paper="$3" 'BEGIN { x = int(n * ours / paper + 0.5); print (x < 1 ? 1 : x) }'
}
safe() { echo "$1" | tr -c 'a-z0-9_\n' '_'; }

# ---- stage 1: sweeps ----
jobs="$OUT/jobs1.txt"; : > "$jobs"
sweep_job() {  # NAME ROUTING TRAFFIC [extra options]; an interrupted sweep resumes from its output
  local r=$2 tr=$3 o="$OUT/runs/$1"; shift 3
  echo "[ -s $o.txt ] && mv $o.txt $o.partial; $DOAR sweep $CONFIG --routing $r --traffic '$tr' --seed $SEED --step $STEP --quiet $PHASES $* --resume $o.partial --csv $o.csv > $o.txt 2>&1" >> "$jobs"
}
# past saturation too (issue 19 item 2: no congestion collapse): every routing's sweep goes on to
# 1.2 x its saturation load; DOAR's on to offered 1.0 (the grid above saturation, every load)
past() { [ "$1" = doar ] && echo 100 || echo 1.2; }
for tr in ur adv+1 rp; do for r in $ROUTINGS; do
  sweep_job "sweep_${r}_$(safe "$tr")" "$r" "$tr" --past "$(past "$r")"
done; done
MAXI=8; [ $((G - 1)) -lt $MAXI ] && MAXI=$((G - 1))
for i in $(seq 2 $MAXI); do for r in doar val; do sweep_job "sweep_${r}_adv_$i" "$r" "adv+$i"; done; done
for m in $MIXES; do for r in $COMPARED; do sweep_job "sweep_${r}_$(safe "$m")" "$r" "$m"; done; done
FAULTS_L="10 40 200"
for n in $FAULTS_L; do
  nl=$(scale "$n" "$LINKS" "$PAPER_LINKS")
  for tr in ur adv+1 rp; do sweep_job "fault_l${n}_$(safe "$tr")" doar "$tr" --link-faults "$nl"; done
done
# the in-flight window (docs/network.md "In-flight window") checked: DOAR whose CongG compares the
# whole occupancy (TG raised to 80 % of a global round trip), as before 2026-11-26
for tr in ur adv+1 rp; do sweep_job "sweep_doar_nowin_$(safe "$tr")" doar "$tr" --cong-window 0; done
# the congestion measure (docs/architecture.md "Congestion"): DOAR with credit occupancy alone, as
# before global ports counted the flits waiting for them
for tr in ur adv+1 rp; do sweep_job "sweep_doar_credit_$(safe "$tr")" doar "$tr" --cong-demand 0; done
ROUTER_FAULTS=0
"$DOAR" sim --help 2>&1 | grep -q -- "--router-faults" && ROUTER_FAULTS=1
if [ $ROUTER_FAULTS = 1 ]; then
  for n in 10 30; do
    nr=$(scale "$n" "$ROUTERS" "$PAPER_ROUTERS")
    for tr in ur adv+1 rp; do sweep_job "fault_r${n}_$(safe "$tr")" doar "$tr" --router-faults "$nr"; done
  done
fi
# the dead routers' nodes left out of the traffic (docs/network.md "Router faults"), as a job that
# runs on the live nodes would: the 30-router scenario again with --dead-dests skip
DEAD_DESTS=0
"$DOAR" sim --help 2>&1 | grep -q -- "--dead-dests" && DEAD_DESTS=1
if [ $ROUTER_FAULTS = 1 ] && [ $DEAD_DESTS = 1 ]; then
  nr=$(scale 30 "$ROUTERS" "$PAPER_ROUTERS")
  for tr in ur adv+1 rp; do sweep_job "fault_r30skip_$(safe "$tr")" doar "$tr" --router-faults "$nr" --dead-dests skip; done
fi

run_jobs() {  # FILE: runs its lines JOBS at a time, a progress line per finished run (its exit
  # status, its name, the time since the stage began); a run whose output already ends with its
  # summary line (an earlier, interrupted reproduction) is kept
  local file=$1 total pending="$1.pending" name
  : > "$pending"
  while IFS= read -r line; do
    local res=${line##*> }; res=${res%% 2>&1}
    finished "$res" && continue
    name=$(basename "$res" .txt)
    [ -z "$ONLY" ] || echo "$name" | grep -qE -- "$ONLY" || continue
    # the child shell reports its exit status and its run's name (safe(): [a-z0-9_] only)
    # shellcheck disable=SC2016
    printf '%s ; rc=$?; echo "rc=$rc run=%s" >&2\n' "$line" "$name" >> "$pending"
  done < "$file"
  total=$(wc -l < "$pending")
  echo "reproduce: $total to run, $(( $(wc -l < "$file") - total )) kept from an earlier run${ONLY:+ or left out by ONLY}" >&2
  local n=0 t0=$SECONDS
  xargs -d '\n' -P "$JOBS" -I{} bash -c '{}' <"$pending" 2>&1 | \
    while IFS= read -r l; do
      case $l in rc=*)
        n=$((n + 1))
        echo "reproduce: $n/$total runs done ($l, $(( (SECONDS - t0) / 60 )) min into the stage)" >&2 ;;
      esac
    done
}
echo "reproduce: config=$CONFIG stage 1: $(wc -l < "$jobs") sweeps, $JOBS at a time" >&2
run_jobs "$jobs"

sat() { sed -nE 's/^sweep: config=.* saturation=([0-9.]+)( post_saturation=[0-9.]+)?$/\1/p' "$OUT/runs/$1.txt" 2>/dev/null | tail -n 1; }
post() { sed -nE 's/^sweep: config=.* post_saturation=([0-9.]+)$/\1/p' "$OUT/runs/$1.txt" 2>/dev/null | tail -n 1; }
at1() {  # ROUTING TRAFFIC: the accepted load at offered 1.0 (DOAR: its sweep's load line at 1.0)
  if [ "$1" = doar ]; then
    sed -nE 's/^sweep: rate=1\.0000 accepted=([0-9.]+) .*/\1/p' "$OUT/runs/sweep_doar_$(safe "$2").txt" 2>/dev/null | head -n 1
  else
    sed -nE 's/^sim: config=.* accepted=([0-9.]+) .*/\1/p' "$OUT/runs/at1_$1_$(safe "$2").txt" 2>/dev/null | tail -n 1
  fi
}
share() {  # LOAD SATURATION: "load (share of saturation)", or - when either is missing
  [ -n "$1" ] && [ -n "$2" ] || { echo -; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%s (%.0f %%)", a, (b > 0 ? 100 * a / b : 0) }'
}
at1_share() { share "$(at1 "$1" "$2")" "$(sat "sweep_$1_$(safe "$2")")"; }  # ROUTING TRAFFIC
post_share() { share "$(post "$1")" "$(sat "$1")"; }  # NAME: past saturation, when the sweep has it

# ---- stage 2: hop distributions near saturation, applications, a fault time series ----
jobs2="$OUT/jobs2.txt"; : > "$jobs2"
for tr in ur adv+1 rp; do for r in $ROUTINGS; do
  s=$(sat "sweep_${r}_$(safe "$tr")"); s=${s:-0.1}
  rate=$(awk -v s="$s" 'BEGIN { x = 0.9 * s; if (x < 0.02) x = 0.02; printf "%.3f", x }')
  echo "$DOAR sim $CONFIG --routing $r --traffic '$tr' --rate $rate --seed $SEED --quiet $PHASES --channel-csv $OUT/runs/chan_${r}_$(safe "$tr").csv > $OUT/runs/hops_${r}_$(safe "$tr").txt 2>&1" >> "$jobs2"
done; done
for a in $APPS; do for r in $COMPARED; do
  echo "$DOAR sim $CONFIG --routing $r --traffic $a --rate $APP_RATE --seed $SEED --quiet $PHASES > $OUT/runs/app_${r}_$a.txt 2>&1" >> "$jobs2"
done; done
# offered 1.0 (issue 19 item 2: no congestion collapse at full load): every routing but DOAR, whose
# sweep (--past 100) runs its grid on to 1.0 itself
for tr in ur adv+1 rp; do for r in $ROUTINGS; do
  [ "$r" = doar ] && continue
  echo "$DOAR sim $CONFIG --routing $r --traffic '$tr' --rate 1.0 --seed $SEED --quiet $PHASES > $OUT/runs/at1_${r}_$(safe "$tr").txt 2>&1" >> "$jobs2"
done; done
n50=$(scale 50 "$LINKS" "$PAPER_LINKS")
s_ur=$(sat sweep_doar_ur); s_ur=${s_ur:-0.3}
# DOAR just past its UR saturation, over time (issue 19 item 2): the congestion state per bin
# (--cong-csv) shows the non-minimal runaway and the congested state it settles in
CONG_CSV=0
"$DOAR" sim --help 2>&1 | grep -q -- "--cong-csv" && CONG_CSV=1
over=$(awk -v s="$s_ur" 'BEGIN { x = 1.03 * s; if (x > 1) x = 1; printf "%.3f", x }')
# the rate a run kept from an earlier reproduction was given, from its own first line (the sweep it
# came from may have moved since; the figures must name the load they were measured at)
rate_of() { sed -nE 's/^sim: config=.* rate=([0-9.]+) .*/\1/p' "$1" 2>/dev/null | head -n 1; }
if [ $CONG_CSV = 1 ]; then
  echo "$DOAR sim $CONFIG --routing doar --traffic ur --rate $over --seed $SEED --quiet $PHASES --cong-csv $OUT/runs/runaway.csv --bin 500 > $OUT/runs/runaway.txt 2>&1" >> "$jobs2"
fi
hi=$(awk -v s="$s_ur" 'BEGIN { printf "%.3f", 0.9 * s }')
echo "$DOAR sim $CONFIG --routing doar --traffic ur --rate $hi --seed $SEED --quiet --warmup 10000 --sample 30000 --link-faults $n50 --fault-at 15000 --repair-at 25000 --series-csv $OUT/runs/series.csv --bin 500 > $OUT/runs/series.txt 2>&1" >> "$jobs2"
# shortened phases checked: DOAR near its saturation again with the paper's 30,000 + 10,000 cycles
PAPER_PHASES="--warmup 30000 --sample 10000"
if [ -n "$PHASES" ] && [ "$PHASES" != "$PAPER_PHASES" ]; then
  for tr in ur adv+1 rp; do
    s=$(sat "sweep_doar_$(safe "$tr")"); s=${s:-0.1}
    rate=$(awk -v s="$s" 'BEGIN { x = 0.9 * s; if (x < 0.02) x = 0.02; printf "%.3f", x }')
    echo "$DOAR sim $CONFIG --routing doar --traffic '$tr' --rate $rate --seed $SEED --quiet $PAPER_PHASES > $OUT/runs/phases_doar_$(safe "$tr").txt 2>&1" >> "$jobs2"
  done
fi
echo "reproduce: stage 2: $(wc -l < "$jobs2") runs" >&2
run_jobs "$jobs2"

# ---- plots ----
PLOTS=0
if command -v gnuplot >/dev/null; then
  PLOTS=1
  for tr in ur adv+1 rp; do
    args=()
    for r in $ROUTINGS; do args+=("$r=$OUT/runs/sweep_${r}_$(safe "$tr").csv"); done
    "$(dirname "$0")/plot_sweep.sh" "$OUT/plots/sweep_$(safe "$tr").png" "$CONFIG, $tr" "${args[@]}" >/dev/null || PLOTS=0
    # hop distribution (seed 001 Fig. 10 a-c): share of packets per hop count, one bar group per routing
    hf="$OUT/plots/hops_$(safe "$tr").dat"
    { echo "routing h0 h1 h2 h3 h4 h5 h6 h7 h8+"
      for r in $ROUTINGS; do
        h=$(sed -nE 's/.* hops_hist=([0-9,]+).*/\1/p' "$OUT/runs/hops_${r}_$(safe "$tr").txt" 2>/dev/null | head -n 1)
        [ -n "$h" ] && echo "$r $(echo "$h" | awk -F, '{ t = 0; for (i = 1; i <= NF; i++) t += $i; for (i = 1; i <= NF; i++) printf "%.4f ", (t ? $i / t : 0); print "" }')"
      done; } > "$hf"
    gnuplot > /dev/null 2>&1 <<GP || PLOTS=0
set terminal png size 1100,450 noenhanced
set output '$OUT/plots/hops_$(safe "$tr").png'
set title '$CONFIG, $tr: hop distribution, each routing at 0.9 x its saturation'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set key outside right
set ylabel 'share of packets'
set yrange [0:1]
plot for [i=2:10] '$hf' using i:xtic(1) title columnheader(i)
GP
  done
  # global channel load of group 0 (seed 001 Fig. 12): each channel's flits/cycle over the group's
  # busiest, one line per routing, channel = bid * h + global port index
  H=$("$DOAR" topo "$CONFIG" | head -n 1 | sed -nE 's/.*dfly\(([0-9]+),([0-9]+),([0-9]+),([0-9]+)\).*/\3/p')
  FIRST_GLOBAL=$("$DOAR" topo "$CONFIG" | sed -nE 's/.*global ([0-9]+)\.\.[0-9]+.*/\1/p' | head -n 1)
  for tr in ur adv+1; do
    plot_lines=""
    for r in doar min val; do
      f="$OUT/runs/chan_${r}_$(safe "$tr").csv"; d="$OUT/plots/chan_${r}_$(safe "$tr").dat"
      [ -s "$f" ] || continue
      awk -F, -v h="$H" -v fg="$FIRST_GLOBAL" 'NR > 1 && $2 == 0 { ch[$3 * h + $4 - fg] = $6; if ($6 > m) m = $6 }
        END { for (c in ch) printf "%d %.4f\n", c, (m > 0 ? ch[c] / m : 0) }' "$f" | sort -n > "$d"
      plot_lines="$plot_lines${plot_lines:+, }'$d' using 1:2 with linespoints title '$r'"
    done
    [ -n "$plot_lines" ] || continue
    gnuplot > /dev/null 2>&1 <<GP || PLOTS=0
set terminal png size 1100,450 noenhanced
set output '$OUT/plots/channels_$(safe "$tr").png'
set title '$CONFIG, $tr near saturation (0.9 x each routing own): global channels of group 0 (seed 001 Fig. 12)'
set xlabel 'global channel of group 0 (bid * h + global port)'
set ylabel 'load / busiest channel of the group'
set yrange [0:1.05]
set grid
plot $plot_lines
GP
  done
  # time_plot NAME CSV TITLE Y2LABEL COL2 Y2RANGE: plots/NAME.png, a run's CSV (cycle, accepted,
  # ...) over time, the accepted load on the left axis and column COL2 (Y2LABEL) on the right
  time_plot() {
    gnuplot > /dev/null 2>&1 <<GP || PLOTS=0
set terminal png size 1100,450 noenhanced
set output '$OUT/plots/$1.png'
set datafile separator ','
set title '$3'
set xlabel 'cycle'
set ylabel 'accepted (flits/node/cycle)'
set y2label '$4'
set yrange [0:*]
set y2range $6
set y2tics
set grid
plot '$2' using 1:2 skip 1 with lines title 'accepted', '' using 1:$5 skip 1 axes x1y2 with lines title '$4'
GP
  }
  [ -s "$OUT/runs/series.csv" ] && time_plot fault_series "$OUT/runs/series.csv" \
    "$CONFIG, ur: $n50 links fail at 15000, repaired at 25000 (seed 001 Fig. 17)" 'latency (cycles)' 3 '[0:*]'
  if [ -s "$OUT/runs/runaway.csv" ]; then
    over=$(rate_of "$OUT/runs/runaway.txt")
    time_plot runaway "$OUT/runs/runaway.csv" "$CONFIG, doar ur at ${over:-?} (1.03 x saturation): accepted load and share of global ports congested" \
      'share of global ports with CongG set' 4 '[0:1]'
  fi
  # a plot with no data (its runs left out by ONLY, or not run yet) leaves no empty file behind
  find "$OUT/plots" -name '*.png' -size 0 -delete
fi

# ---- the targets of issues 19 and 20 (set for `paper`; computed the same way on any configuration) ----
at_least() {  # VALUE LIMIT -> met / missed, or - when the value is missing
  [ -n "$1" ] || { echo -; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 >= b + 0 ? "met" : "missed") }'
}
at_most() {  # VALUE LIMIT -> met / missed, or - when the value is missing
  [ -n "$1" ] || { echo -; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 <= b + 0 ? "met" : "missed") }'
}
lost_pct() {  # FAULTED NONE -> the share of NONE lost, percent with one decimal (empty when either is missing)
  [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", 100 * (1 - a / b) }'
}
share_cells() {  # KIND (post | at1) -> "N of M; below 90 %: routing traffic share, ..." over every routing and traffic
  local r tr v s n=0 m=0 below=""
  for r in $ROUTINGS; do for tr in ur adv+1 rp; do
    s=$(sat "sweep_${r}_$(safe "$tr")")
    if [ "$1" = post ]; then v=$(post "sweep_${r}_$(safe "$tr")"); else v=$(at1 "$r" "$tr"); fi
    [ -n "$s" ] && [ -n "$v" ] || continue
    m=$((m + 1))
    if awk -v a="$v" -v b="$s" 'BEGIN { exit !(b > 0 && a >= 0.9 * b) }'; then n=$((n + 1))
    # one decimal: a share just under 90 % must not print as 90 %
    else below="$below${below:+, }$r $tr $(awk -v a="$v" -v b="$s" 'BEGIN { printf "%.1f %%", (b > 0 ? 100 * a / b : 0) }')"; fi
  done; done
  echo "$n of $m${below:+; below 90 %: $below}"
}
targets() {
  local s tr lim name d x r best list v n
  echo "## Targets (issues 19 and 20)"
  echo
  echo "Set for \`paper\` (seed 001's network); on another configuration they are computed the same way"
  echo "and compare nothing. A cell with - has no run yet."
  echo
  echo "| target | measured | |"
  echo "|---|---|---|"
  s=$(sat sweep_min_ur)
  echo "| MIN UR saturation >= 0.85 (issue 19 item 1) | ${s:--} | $(at_least "$s" 0.85) |"
  for x in "ur 0.90 UR" "adv+1 0.48 ADV+1" "rp 0.55 RP"; do
    read -r tr lim name <<<"$x"
    s=$(sat "sweep_doar_$(safe "$tr")")
    echo "| DOAR $name saturation >= $lim | ${s:--} | $(at_least "$s" "$lim") |"
  done
  for x in "ur UR" "adv+1 ADV+1" "rp RP"; do
    read -r tr name <<<"$x"
    d=$(sat "sweep_doar_$(safe "$tr")"); best=""; list=""; n=0
    for r in par_ph tpr ugal_le; do
      v=$(sat "sweep_${r}_$(safe "$tr")"); list="$list${list:+, }$r ${v:--}"
      [ -n "$v" ] || continue
      n=$((n + 1)); best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (a == "" || b + 0 > a + 0) ? b : a }')
    done
    if [ -n "$d" ] && [ "$n" = 3 ]; then v=$(awk -v a="$d" -v b="$best" 'BEGIN { print (a + 0 > b + 0 ? "met" : "missed") }'); else v=-; fi
    echo "| DOAR ahead of PAR_PH, TPR and UGAL_LE on $name | doar ${d:--}; $list | $v |"
  done
  for x in "post past saturation (the lowest load run above it)" "at1 at offered 1.0"; do
    read -r tr name <<<"$x"
    v=$(share_cells "$tr"); n=${v%% of *}; s=${v#* of }; s=${s%%;*}
    if [ "$s" = 0 ]; then lim=-; elif [ "$n" = "$s" ]; then lim=met; else lim=missed; fi
    echo "| every routing and traffic $name >= 90 % of its saturation (issue 19 item 2) | $v | $lim |"
  done
  for x in "40 3" "200 10"; do
    read -r n lim <<<"$x"
    for tr in ur adv+1 rp; do
      v=$(lost_pct "$(sat "fault_l${n}_$(safe "$tr")")" "$(sat "sweep_doar_$(safe "$tr")")")
      s=$(at_most "$v" "$lim")
      v=${v:+$v %}
      echo "| DOAR $tr saturation lost to $n failed links <= $lim % (issue 20 item 2) | ${v:--} | $s |"
    done
  done
  # router faults: no worse than the v1 router on `paper` (docs/RESULTS.md, issue 6's record)
  for x in "10 ur 9.2" "10 adv+1 4.5" "10 rp 6.0" "30 ur 16.3" "30 adv+1 11.6" "30 rp 12.7"; do
    read -r n tr lim <<<"$x"
    v=$(lost_pct "$(sat "fault_r${n}_$(safe "$tr")")" "$(sat "sweep_doar_$(safe "$tr")")")
    s=$(at_most "$v" "$lim")
    v=${v:+$v %}
    echo "| DOAR $tr saturation lost to $n dead routers <= $lim %, the v1 router's (issue 20 item 2) | ${v:--} | $s |"
  done
  # Fig. 17: back within 3 % of before within 5,000 cycles after diagnosis ends
  v=""
  [ -s "$OUT/runs/series.csv" ] && v=$("$(dirname "$0")/fig17_table.sh" "$OUT/runs/series.csv" "$OUT/runs/series.txt" 10000 15000 25000 40000 2>/dev/null |
    sed -nE 's/^\| back within 3 % of before \| (.*) \| from 15,200 \|$/\1/p')
  case $v in
    "") s=-;;
    "all the time"*) s=met;;
    *" cycles after diagnosis ended)")
      n=$(echo "$v" | sed -nE 's/.*\(([0-9]+) cycles after diagnosis ended\)$/\1/p')
      if [ "${n:-99999}" -le 5000 ]; then s=met; else s=missed; fi;;
    *) s=missed;;
  esac
  echo "| Fig. 17: accepted back within 3 % of before the faults, at most 5,000 cycles after diagnosis ends (issue 20 item 3) | ${v:--} | $s |"
  echo
}
# ---- summary ----
S="$OUT/summary.md"
hop_shares() {  # "h0,h1,...,h8+" -> "s1 | s2 | ... | s6 | s7+" in percent
  echo "$1" | awk -F, '{ t = 0; for (i = 1; i <= NF; i++) t += $i; s7 = 0; for (i = 8; i <= NF; i++) s7 += $i
    for (i = 2; i <= 7; i++) printf "%.1f%% | ", (t ? 100 * $i / t : 0); printf "%.1f%%", (t ? 100 * s7 / t : 0) }'
}
paper_sat() {  # routing pattern -> the paper's saturation (seed 001 sec. 5.2), or -
  case "$1/$2" in
    doar/ur) echo 0.95;; par_ph/ur) echo 0.94;; tpr/ur) echo 0.94;; ugal_le/ur) echo 0.85;;
    doar/adv+1) echo 0.50;; val/adv+1) echo 0.49;; par_ph/adv+1) echo 0.42;; tpr/adv+1) echo 0.48;; ugal_le/adv+1) echo 0.41;;
    doar/rp) echo 0.59;; val/rp) echo 0.49;; par_ph/rp) echo 0.47;; tpr/rp) echo 0.45;; ugal_le/rp) echo 0.43;;
    doar/r_mixed_ua\(75,25\)) echo 0.72;; doar/r_mixed_ua\(50,50\)) echo 0.61;; doar/r_mixed_ua\(25,75\)) echo 0.54;;
    val/r_mixed_ua\(75,25\)) echo 0.45;; val/r_mixed_ua\(50,50\)) echo 0.43;; val/r_mixed_ua\(25,75\)) echo 0.44;;
    par_ph/r_mixed_ua\(75,25\)) echo 0.61;; par_ph/r_mixed_ua\(50,50\)) echo 0.55;; par_ph/r_mixed_ua\(25,75\)) echo 0.50;;
    tpr/r_mixed_ua\(75,25\)) echo 0.67;; tpr/r_mixed_ua\(50,50\)) echo 0.55;; tpr/r_mixed_ua\(25,75\)) echo 0.51;;
    ugal_le/r_mixed_ua\(75,25\)) echo 0.40;; ugal_le/r_mixed_ua\(50,50\)) echo 0.38;; ugal_le/r_mixed_ua\(25,75\)) echo 0.40;;
    doar/n_mixed_ur\(75,25\)) echo 0.82;; doar/n_mixed_ur\(50,50\)) echo 0.71;; doar/n_mixed_ur\(25,75\)) echo 0.64;;
    par_ph/n_mixed_ur\(75,25\)) echo 0.69;; par_ph/n_mixed_ur\(50,50\)) echo 0.61;; par_ph/n_mixed_ur\(25,75\)) echo 0.54;;
    tpr/n_mixed_ur\(75,25\)) echo 0.69;; tpr/n_mixed_ur\(50,50\)) echo 0.59;; tpr/n_mixed_ur\(25,75\)) echo 0.52;;
    ugal_le/n_mixed_ur\(75,25\)) echo 0.69;; ugal_le/n_mixed_ur\(50,50\)) echo 0.57;; ugal_le/n_mixed_ur\(25,75\)) echo 0.50;;
    *) echo "-";;
  esac
}
paper_app() {  # routing app -> the paper's mean latency, cycles (Fig. 14), or -
  case "$1/$2" in
    par_ph/lu) echo 658.8;; tpr/lu) echo 734.2;; ugal_le/lu) echo 714.0;; doar/lu) echo 654.8;;
    par_ph/fft3d) echo 146.6;; tpr/fft3d) echo 190.1;; ugal_le/fft3d) echo 186.1;; doar/fft3d) echo 142.3;;
    par_ph/halo3d) echo 292.3;; tpr/halo3d) echo 362.5;; ugal_le/halo3d) echo 332.1;; doar/halo3d) echo 249.2;;
    par_ph/stencil5d) echo 134.2;; tpr/stencil5d) echo 209.9;; ugal_le/stencil5d) echo 198.7;; doar/stencil5d) echo 132.2;;
    par_ph/dl) echo 139.6;; tpr/dl) echo 214.9;; ugal_le/dl) echo 205.1;; doar/dl) echo 136.7;;
    par_ph/lulesh) echo 675.9;; tpr/lulesh) echo 840.8;; ugal_le/lulesh) echo 722.9;; doar/lulesh) echo 489.2;;
    *) echo "-";;
  esac
}
{
  echo "# Reproduction of seed 001 sec. 5 on \`$CONFIG\` ($topo_line)"
  echo
  phases_text=$PHASES; [ -n "$phases_text" ] || phases_text="the paper's (30,000 warm-up, 10,000 sample)"
  echo "Seed $SEED; sweep step $STEP; phases: $phases_text."
  echo "Saturation = the highest accepted throughput (flits/node/cycle) of a load whose mean latency"
  echo "stays under 500 cycles (\`doar sweep\`). Paper's figures in parentheses (its network is"
  echo "dfly(6,12,6,73) with a 2.0x internal speed-up; on another network only orderings compare)."
  [ -z "$ONLY" ] || { echo; echo "Only the runs whose names match ONLY='$ONLY' were run: the cells of the others are"; echo "empty or -."; }
  echo
  targets
  echo "## Saturation throughput, UR / ADV+1 / RP (seed 001 Fig. 10 d-f)"
  echo
  echo "| routing | UR | ADV+1 | RP |"
  echo "|---|---|---|---|"
  for r in $ROUTINGS; do
    row="| $r"
    for tr in ur adv+1 rp; do row="$row | $(sat "sweep_${r}_$(safe "$tr")") ($(paper_sat "$r" "$tr"))"; done
    echo "$row |"
  done
  echo
  echo "## Past saturation (issue 19 item 2: no congestion collapse)"
  echo
  echo "The lowest accepted load of the loads run above the saturation load (\`doar sweep --past F\`:"
  echo "F = 1.2 for the route policies, the loads up to 1.2 x saturation; F = 100 for DOAR, every grid"
  echo "load up to offered 1.0), and its share of the saturation throughput (the aim: at least 90 %)."
  echo
  echo "| routing | UR | ADV+1 | RP |"
  echo "|---|---|---|---|"
  for r in $ROUTINGS; do
    row="| $r (--past $(past "$r"))"
    for tr in ur adv+1 rp; do row="$row | $(post_share "sweep_${r}_$(safe "$tr")")"; done
    echo "$row |"
  done
  echo
  echo "The accepted load at offered 1.0 (\`doar sim --rate 1.0\`, the same phases; DOAR: its sweep's"
  echo "load line at 1.0) and its share of the saturation throughput (the aim: at least 90 %)."
  echo
  echo "| routing | UR | ADV+1 | RP |"
  echo "|---|---|---|---|"
  for r in $ROUTINGS; do
    row="| $r"
    for tr in ur adv+1 rp; do row="$row | $(at1_share "$r" "$tr")"; done
    echo "$row |"
  done
  echo
  echo "## ADV+i (seed 001 Fig. 11)"
  echo
  echo "| i | doar | val |"
  echo "|---|---|---|"
  echo "| 1 | $(sat sweep_doar_adv_1) | $(sat sweep_val_adv_1) |"
  for i in $(seq 2 "$MAXI"); do echo "| $i | $(sat "sweep_doar_adv_$i") | $(sat "sweep_val_adv_$i") |"; done
  echo
  echo "## Mixed traffic (seed 001 Fig. 13)"
  echo
  echo "| traffic | ${COMPARED// / | } |"
  echo "|---|$(for r in $COMPARED; do printf -- '---|'; done)"
  for m in $MIXES; do
    row="| $m"
    for r in $COMPARED; do row="$row | $(sat "sweep_${r}_$(safe "$m")") ($(paper_sat "$r" "$m"))"; done
    echo "$row |"
  done
  echo
  echo "## Application-like patterns: mean latency at offered $APP_RATE, cycles (seed 001 Fig. 14)"
  echo
  echo "The paper replays traces; ours are synthetic patterns with the same communication structure"
  echo "(docs/network.md) at a fixed load, so compare orderings."
  echo
  echo "| pattern | ${COMPARED// / | } |"
  echo "|---|$(for r in $COMPARED; do printf -- '---|'; done)"
  for a in $APPS; do
    row="| $a"
    for r in $COMPARED; do
      l=$(sed -nE 's/^sim: config=.* latency=([0-9.]+) .*/\1/p' "$OUT/runs/app_${r}_$a.txt" 2>/dev/null | tail -n 1)
      row="$row | ${l:--} ($(paper_app "$r" "$a"))"
    done
    echo "$row |"
  done
  echo
  echo "## Faults: DOAR saturation with failed links / routers (seed 001 Fig. 15)"
  echo
  echo "The paper's counts are scaled to this network's $LINKS links and $ROUTERS routers (at least 1)."
  echo
  echo "| scenario | count here | UR | ADV+1 | RP |"
  echo "|---|---|---|---|---|"
  echo "| none | 0 | $(sat sweep_doar_ur) (0.95) | $(sat sweep_doar_adv_1) (0.50) | $(sat sweep_doar_rp) (0.59) |"
  pf() { case $1 in l10) echo "0.95 0.50 0.59";; l40) echo "0.94 0.50 0.58";; l200) echo "0.88 0.47 0.56";; r10) echo "0.90 0.48 0.57";; r30) echo "0.85 0.45 0.56";; esac; }
  for n in $FAULTS_L; do
    read -r f_ur f_adv f_rp <<<"$(pf "l$n")"
    echo "| $n links | $(scale "$n" "$LINKS" "$PAPER_LINKS") | $(sat "fault_l${n}_ur") ($f_ur) | $(sat "fault_l${n}_adv_1") ($f_adv) | $(sat "fault_l${n}_rp") ($f_rp) |"
  done
  if [ "$ROUTER_FAULTS" = 1 ]; then
    for n in 10 30; do
      read -r f_ur f_adv f_rp <<<"$(pf "r$n")"
      echo "| $n routers | $(scale "$n" "$ROUTERS" "$PAPER_ROUTERS") | $(sat "fault_r${n}_ur") ($f_ur) | $(sat "fault_r${n}_adv_1") ($f_adv) | $(sat "fault_r${n}_rp") ($f_rp) |"
    done
    if [ "$DEAD_DESTS" = 1 ]; then
      read -r f_ur f_adv f_rp <<<"$(pf r30)"
      echo "| 30 routers, no packets for their nodes (\`--dead-dests skip\`) | $(scale 30 "$ROUTERS" "$PAPER_ROUTERS") | $(sat fault_r30skip_ur) ($f_ur) | $(sat fault_r30skip_adv_1) ($f_adv) | $(sat fault_r30skip_rp) ($f_rp) |"
    fi
  else
    echo "| routers | - | not run: this doar has no --router-faults | | |"
  fi
  echo
  echo "## DOAR's in-flight window (docs/network.md \"In-flight window\")"
  echo
  echo "Saturation with CongG's estimate leaving out the flits in flight on a global link (the"
  echo "default, the RTL's CONG_RTT) and with the whole occupancy, TG raised to 80 % of a global"
  echo "round trip (\`--cong-window 0\`, before 2026-11-26):"
  echo
  echo "| CongG of a global port | UR | ADV+1 | RP |"
  echo "|---|---|---|---|"
  echo "| in-flight window (default) | $(sat sweep_doar_ur) | $(sat sweep_doar_adv_1) | $(sat sweep_doar_rp) |"
  echo "| whole occupancy | $(sat sweep_doar_nowin_ur) | $(sat sweep_doar_nowin_adv_1) | $(sat sweep_doar_nowin_rp) |"
  echo
  echo "## DOAR's congestion measure (docs/network.md \"Demand on global ports\")"
  echo
  echo "Saturation with a port's congestion counting the flits waiting for it besides its credits"
  echo "(the default, the RTL's) and with credit occupancy alone (\`--cong-demand 0\`):"
  echo
  echo "| congestion of a global port | UR | ADV+1 | RP |"
  echo "|---|---|---|---|"
  echo "| credits + demand (default) | $(sat sweep_doar_ur) | $(sat sweep_doar_adv_1) | $(sat sweep_doar_rp) |"
  echo "| credits only | $(sat sweep_doar_credit_ur) | $(sat sweep_doar_credit_adv_1) | $(sat sweep_doar_credit_rp) |"
  echo
  if [ "$CONG_CSV" = 1 ]; then
    echo "## DOAR just past saturation, over time (issue 19 item 2)"
    echo
    [ -s "$OUT/runs/runaway.txt" ] && over=$(rate_of "$OUT/runs/runaway.txt")
    echo "UR at ${over:-?} (1.03 x DOAR's saturation), the routers' congestion state at the end of every"
    echo "1,000 cycles (\`doar sim --cong-csv\`, bins of 500; plot: plots/runaway.png):"
    echo
    if [ -s "$OUT/runs/runaway.csv" ]; then
      end=$(sed -nE 's/^sim: config=.* warmup=([0-9]+) sample=([0-9]+) .*/\1 \2/p' "$OUT/runs/runaway.txt" | awk '{ print $1 + $2 }')
      echo "| cycles | accepted | hops | global ports congested | source queue (packets/node) |"
      echo "|---|---|---|---|---|"
      awk -F, -v end="${end:-0}" 'NR > 1 && $1 % 1000 == 500 && $1 < end {
        printf "| %d-%d | %.4f | %.2f | %.1f %% | %.1f |\n", $1, $1 + 500, $2, $3, 100 * $4, $9 }' "$OUT/runs/runaway.csv"
      echo
      echo '```'
      tail -n 1 "$OUT/runs/runaway.txt"
      echo '```'
    else
      echo "(not run yet)"
    fi
    echo
  fi
  echo "## Diagnosis and recovery under load (seed 001 Fig. 17: 50 links, 5.2 / 10.3 us)"
  echo
  [ -s "$OUT/runs/series.txt" ] && hi=$(rate_of "$OUT/runs/series.txt")
  echo "UR at ${hi:-?} (0.9 x DOAR's saturation), $n50 links fail at cycle 15,000 and come back at 25,000"
  echo "(bins of 500 cycles; plot: plots/fault_series.png; table by scripts/fig17_table.sh):"
  echo
  if [ -s "$OUT/runs/series.csv" ]; then
    "$(dirname "$0")/fig17_table.sh" "$OUT/runs/series.csv" "$OUT/runs/series.txt" 10000 15000 25000 40000 2>&1 ||
      echo "(no table: the run did not finish)"
  else
    echo "(not run yet)"
  fi
  echo
  echo '```'
  grep -E "^sim: faults|^sim: config" "$OUT/runs/series.txt" 2>/dev/null
  echo '```'
  echo
  echo "## Hop distribution near saturation (seed 001 Fig. 10 a-c): share of packets by hops"
  echo
  for tr in ur adv+1 rp; do
    echo "$tr (each routing at 0.9 x its own saturation):"
    echo
    echo "| routing | rate | 1 | 2 | 3 | 4 | 5 | 6 | 7+ | mean |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for r in $ROUTINGS; do
      f="$OUT/runs/hops_${r}_$(safe "$tr").txt"
      [ -f "$f" ] || continue # (left out by ONLY, or not run yet)
      h=$(sed -nE 's/.* hops_hist=([0-9,]+).*/\1/p' "$f" | head -n 1)
      rate=$(sed -nE 's/^sim: config=.* offered=([0-9.]+) .*hops=([0-9.]+) .*/\1/p' "$f" | tail -n 1)
      mean=$(sed -nE 's/^sim: config=.* hops=([0-9.]+) .*/\1/p' "$f" | tail -n 1)
      [ -n "$h" ] || continue
      echo "| $r | $rate | $(hop_shares "$h") | $mean |"
    done
    echo
  done
  echo "## Global channel load near saturation (seed 001 Fig. 12)"
  echo
  echo "Flits per cycle on every wired global channel during the sample of the runs above (each"
  echo "routing at 0.9 x its own saturation): the busiest channel over the mean (1.0 = perfectly"
  echo "even), and the least-used one over the mean."
  echo
  echo "| routing | UR max/mean | UR min/mean | ADV+1 max/mean | ADV+1 min/mean |"
  echo "|---|---|---|---|---|"
  for r in $ROUTINGS; do
    row="| $r"
    for tr in ur adv+1; do
      l=$(grep -E "^sim: global_channels=" "$OUT/runs/hops_${r}_$(safe "$tr").txt" 2>/dev/null | head -n 1)
      row="$row | $(echo "$l" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        if (v["mean"] > 0) printf "%.2f | %.2f", v["max"] / v["mean"], v["min"] / v["mean"]; else printf "- | -" }')"
    done
    echo "$row |"
  done
  echo
  if [ -s "$OUT/runs/phases_doar_ur.txt" ]; then
    echo "## Shortened phases against the paper's"
    echo
    echo "DOAR at 0.9 x its saturation, phases \`$PHASES\` against the paper's \`$PAPER_PHASES\`:"
    echo
    echo "| traffic | rate | accepted (short) | accepted (paper's) | latency (short) | latency (paper's) |"
    echo "|---|---|---|---|---|---|"
    for tr in ur adv+1 rp; do
      a=$(grep -E "^sim: config=" "$OUT/runs/hops_doar_$(safe "$tr").txt" 2>/dev/null | tail -n 1)
      b=$(grep -E "^sim: config=" "$OUT/runs/phases_doar_$(safe "$tr").txt" 2>/dev/null | tail -n 1)
      f() { echo "$1" | sed -nE "s/.* $2=([0-9.]+).*/\1/p"; }
      echo "| $tr | $(f "$a" offered) | $(f "$a" accepted) | $(f "$b" accepted) | $(f "$a" latency) | $(f "$b" latency) |"
    done
    echo
  fi
  if [ $PLOTS = 1 ]; then
    echo "Plots:"
    echo
    for f in sweep_ur sweep_adv_1 sweep_rp hops_ur hops_adv_1 hops_rp channels_ur channels_adv_1 fault_series runaway; do
      [ -s "$OUT/plots/$f.png" ] && echo "![$f](plots/$f.png)"
    done
  fi
} > "$S"
T1=$(date +%s)
runs=$(( $(wc -l < "$jobs") + $(wc -l < "$jobs2") ))
failed=$(grep -lE "^sim: FAIL|doar (sim|sweep): " "$OUT"/runs/*.txt 2>/dev/null | wc -l)
# the runs' own times (an interrupted reproduction resumed later spans several invocations)
run_s=$(cat "$OUT"/runs/*.txt 2>/dev/null | sed -nE 's/^(sweep: points=.*|sim: cycles=.*) time=([0-9.]+)s.*/\2/p' | awk '{ t += $1 } END { printf "%.0f", t }')
echo "" >> "$S"
echo "Wall time of this invocation: $((T1 - T0)) s on $(nproc) cores ($JOBS runs at a time); the runs' own times add up to $run_s s ($((run_s / JOBS)) s at $JOBS at a time); $runs runs, $failed with an error." >> "$S"
echo "reproduce: config=$CONFIG runs=$runs failed=$failed wall=$((T1 - T0)) s summary=$S"
