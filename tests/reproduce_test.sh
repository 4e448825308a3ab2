#!/usr/bin/env bash
# scripts/reproduce.sh and scripts/reproduce_save.sh on `tiny` with very short phases: the
# evaluation runs end to end and writes its summary; its runs saved and taken up again on a fresh
# output directory (RESUME_FROM: how the evaluation on `paper` goes on across machines) are kept,
# not run again — a planted figure shows it — a run missing from the saved ones is run, and an
# unfinished sweep goes on from its saved loads; the summary comes out the same; runs of another
# router (saved, or in the output directory itself) run again; bad input.
# Usage: tests/reproduce_test.sh DOAR
set -u
DOAR=${1:?doar binary}
HERE=$(cd "$(dirname "$0")" && pwd)
SCRIPTS="$HERE/../scripts"
# the router the binary names in its runs (csim/router.h ROUTER_VERSION)
RV=$(sed -nE 's/^#define ROUTER_VERSION "([a-z0-9]+)"$/\1/p' "$HERE/../csim/router.h")
[ -n "$RV" ] || { echo "reproduce_test: no ROUTER_VERSION in csim/router.h" >&2; exit 2; }
TMP=$(mktemp -d /tmp/doar_repro_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
. "$HERE/cli_lib.sh"
export SEED=1 PHASES="--warmup 300 --sample 300" STEP=0.25 JOBS=2

echo "== reproduce: tiny end to end"
expect_exit 0 "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/a"
last=$(tail -n 1 "$TMP/out")
echo "   $last"
echo "$last" | grep -qE "^reproduce: config=tiny runs=[0-9]+ failed=0 wall=[0-9]+ s summary=$TMP/a/summary.md$" && ok || bad "last line: $last"
S="$TMP/a/summary.md"
for r in min val ugal_l ugal_g par par_ph ugal_le tpr doar; do
  grep -qE "^\| $r \| [0-9.]+ \(.*\) \| [0-9.]+ \(.*\) \| [0-9.]+ \(.*\) \|$" "$S" && ok || bad "no saturation row for $r"
done
grep -qE "^\| whole occupancy \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$" "$S" && ok || bad "no row for CongG without the in-flight window"
grep -q -- "--cong-window 0 --resume [^ ]*/sweep_doar_nowin_ur.partial" "$TMP/a/jobs1.txt" && ok || bad "the window ablation does not take --cong-window 0"
# past saturation: every routing's row, each cell a post-saturation load and its share; DOAR's sweeps
# go on to 1.0, the others' to 1.2 x saturation
for r in min val ugal_l ugal_g par par_ph ugal_le tpr doar; do
  grep -qE "^\| $r \(--past (1\.2|100)\)( \| [0-9.]+ \([0-9]+ %\)){3} \|$" "$S" && ok || bad "no past-saturation row for $r"
done
grep -q -- "--routing doar --traffic 'rp' .*--past 100 " "$TMP/a/jobs1.txt" && grep -q -- "--routing val --traffic 'rp' .*--past 1.2 " "$TMP/a/jobs1.txt" &&
  ok || bad "the sweeps' --past"
# offered 1.0: every routing's row, each cell an accepted load and its share; a sim at 1.0 for
# every routing but DOAR (its sweep's grid reaches 1.0), whose cells match its sweep's 1.0 line
for r in min val ugal_l ugal_g par par_ph ugal_le tpr doar; do
  grep -qE "^\| $r( \| [0-9.]+ \([0-9]+ %\)){3} \|$" "$S" && ok || bad "no offered-1.0 row for $r"
done
[ "$(grep -c -- "--rate 1.0 .*> [^ ]*/runs/at1_" "$TMP/a/jobs2.txt")" = 24 ] && ! grep -q "at1_doar" "$TMP/a/jobs2.txt" &&
  ok || bad "the offered-1.0 runs: $(grep -c at1_ "$TMP/a/jobs2.txt") lines"
d1=$(sed -nE 's/^sweep: rate=1\.0000 accepted=([0-9.]+) .*/\1/p' "$TMP/a/runs/sweep_doar_ur.txt")
grep -qE "^\| doar \| $d1 \(" "$S" && ok || bad "DOAR's UR cell at 1.0 is not its sweep's $d1"
grep -qE "^\| credits only \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$" "$S" && ok || bad "no row for credit-only congestion"
grep -q -- "--cong-demand 0 --resume [^ ]*/sweep_doar_credit_adv_1.partial" "$TMP/a/jobs1.txt" && ok || bad "the credit-only sweeps do not take --cong-demand 0"
grep -q "the runs' own times add up to [0-9]* s" "$S" && ok || bad "summary gives no machine time"
# the 30-router scenario once more with the dead routers' nodes left out of the traffic
# shellcheck disable=SC2016  # the backticks are markdown, not a command
grep -qE '^\| 30 routers, no packets for their nodes \(`--dead-dests skip`\) \| [0-9]+( \| [0-9.]+ \([0-9.]+\)){3} \|$' "$S" &&
  grep -q -- "--router-faults [0-9]* --dead-dests skip --resume [^ ]*/fault_r30skip_rp.partial" "$TMP/a/jobs1.txt" &&
  ok || bad "no 30-router row with --dead-dests skip"
# DOAR just past saturation over time: a --cong-csv run at 1.03 x the UR saturation, its table
grep -q -- "--routing doar --traffic ur --rate [0-9.]* .*--cong-csv [^ ]*/runs/runaway.csv --bin 500" "$TMP/a/jobs2.txt" &&
  grep -qE "^\| [0-9]+-[0-9]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ % \| [0-9.]+ \|$" "$S" && ok || bad "no runaway run or table"
grep -qE "^\| back within 3 % of before \| (all the time|from [0-9]+|not before the repair)" "$S" &&
  grep -qE "^\| diagnosis / recovery \| [0-9]+ / [0-9]+ cycles \|" "$S" && ok || bad "no Fig. 17 table in the summary"
# every load line of a sweep carries its own time and the sweep's time adds them up
f="$TMP/a/runs/sweep_doar_ur.txt"
sum=$(sed -nE 's/^sweep: rate=.* time=([0-9.]+)s$/\1/p' "$f" | awk '{ t += $1 } END { printf "%.1f", t }')
tot=$(sed -nE 's/^sweep: points=.* time=([0-9.]+)s wall=.*/\1/p' "$f")
awk -v a="$sum" -v b="$tot" 'BEGIN { d = a - b; exit !(d < 0.3 && d > -0.3) }' && ok || bad "sweep time $tot is not its loads' $sum"

echo "== reproduce_save + RESUME_FROM: runs taken, not run again"
expect_exit 0 "$SCRIPTS/reproduce_save.sh" "$TMP/a" "$TMP/saved"
saved=$(tail -n 1 "$TMP/out"); echo "   $saved"
echo "$saved" | grep -qE "^reproduce_save: saved=([0-9]+) ended=\1 partial=0 own_time=[0-9]+s dest=$TMP/saved$" && ok || bad "save: $saved"
grep -qE "UTC on .*: ended=[0-9]+ partial=0 runs_own_time=[0-9]+s$" "$TMP/saved/SAVES.log" && ok || bad "no SAVES.log line"
n_saved=$(find "$TMP/saved" -maxdepth 1 -name '*.txt' | wc -l)
# plant a figure in an ended run (kept: it shows), leave one run out (run again), and cut a
# sweep back to its header and first load with a planted latency (goes on from there)
sed -i -E 's/^(sim: config=tiny routing=doar traffic=lu .* latency=)[0-9.]+/\19999.9/' "$TMP/saved/app_doar_lu.txt"
rm "$TMP/saved/app_val_halo3d.txt"
# a run of another router (its first line says so) is not taken: it runs again
sed -i -E '1s/ router=[a-z0-9]+ / router=v2 /' "$TMP/saved/app_doar_fft3d.txt"
grep -q ' router=v2 ' "$TMP/saved/app_doar_fft3d.txt" && ok || bad "the sim's first line names no router"
awk '/^sweep: rate=/ { n++; if (n > 1) exit } { print }' "$TMP/a/runs/sweep_min_ur.txt" |
  sed -E '/^sweep: rate=/s/latency=[0-9.]+/latency=4321.0/' > "$TMP/saved/sweep_min_ur.txt"
expect_exit 0 env RESUME_FROM="$TMP/saved" "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/b"
grep -q "^reproduce: took $((n_saved - 2)) run outputs from $TMP/saved (1 of another router left there)$" "$TMP/err" && ok || bad "took: $(grep took "$TMP/err")"
grep -qE "^reproduce: 1 to run, [0-9]+ kept from an earlier run$" "$TMP/err" && ok || bad "stage 1 ran more than the unfinished sweep: $(grep 'to run' "$TMP/err" | head -n 1)"
grep -qE "^reproduce: 2 to run, [0-9]+ kept from an earlier run$" <(grep 'to run' "$TMP/err" | sed -n 2p) && ok || bad "stage 2 ran more than the missing run and the other router's: $(grep 'to run' "$TMP/err" | sed -n 2p)"
grep -q " router=$RV " "$TMP/b/runs/app_doar_fft3d.txt" && ok || bad "the other router's run was taken, not run again"
grep -q "latency=9999.9" "$TMP/b/runs/app_doar_lu.txt" && grep -q "| lu | .* 9999.9" "$TMP/b/summary.md" && ok || bad "a saved run was run again"
grep -q "^sweep: rate=0.2500 .* latency=4321.0 " "$TMP/b/runs/sweep_min_ur.txt" && ok || bad "the unfinished sweep did not go on from its saved load"
grep -qE "^sweep: config=tiny routing=min traffic=ur saturation=" "$TMP/b/runs/sweep_min_ur.txt" && ok || bad "the unfinished sweep did not end"
grep -qE "^sim: config=tiny routing=val traffic=halo3d " "$TMP/b/runs/app_val_halo3d.txt" && ok || bad "the missing run was not run"
# apart from the planted figure, the same evaluation (the simulator is deterministic)
if diff <(grep -E '^\|' "$TMP/a/summary.md" | grep -v '^| lu |') <(grep -E '^\|' "$TMP/b/summary.md" | grep -v '^| lu |') > "$TMP/diff"; then ok
else bad "the resumed evaluation differs: $(head -n 4 "$TMP/diff")"; fi
# a saved run that has ended is not replaced by a partial one, and one not ended is replaced by it
cp "$TMP/a/runs/sweep_val_ur.txt" "$TMP/keep.txt"
head -n 3 "$TMP/a/runs/sweep_val_ur.txt" > "$TMP/saved/sweep_val_ur.txt"
expect_exit 0 env RESUME_FROM="$TMP/saved" "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/b"
cmp -s "$TMP/keep.txt" "$TMP/b/runs/sweep_val_ur.txt" && ok || bad "an ended run was replaced by a saved partial one"

echo "== an output directory's own runs of another router are run again, not kept"
cp -r "$TMP/a" "$TMP/c"
f="$TMP/c/runs/sweep_val_adv_1.txt"
sed -i -E '/^sweep: packet_len=/s/ router=[a-z0-9]+/ router=v2/; s/^(sweep: config=.* saturation=)[0-9.]+/\10.1234/' "$f"
grep -q ' router=v2' "$f" && grep -q 'saturation=0.1234' "$f" && ok || bad "could not plant another router's sweep"
expect_exit 0 "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/c"
grep -q "^reproduce: moved 1 run outputs of another router (not router=$RV) to $TMP/c/runs-other-router; they run again$" "$TMP/err" &&
  ok || bad "moved: $(grep moved "$TMP/err")"
grep -qE "^reproduce: 1 to run, [0-9]+ kept from an earlier run$" "$TMP/err" && ok || bad "stage 1 ran more or less than the other router's sweep: $(grep 'to run' "$TMP/err" | head -n 1)"
grep -q 'saturation=0.1234' "$TMP/c/runs-other-router/sweep_val_adv_1.txt" && ok || bad "the other router's run was not set aside"
grep -q " router=$RV" "$f" && ! grep -q 'saturation=0.1234' "$f" && grep -qE '^sweep: config=tiny routing=val traffic=adv\+1 saturation=' "$f" &&
  ok || bad "the other router's sweep was kept, not run again"
untimed() { sed -E '/^sweep: resume:/d; s/ time=[0-9.]+s//; s/ wall=[0-9.]+s//' "$1"; }   # (the resume note names its directory)
[ "$(untimed "$TMP/a/runs/sweep_val_adv_1.txt")" = "$(untimed "$f")" ] && ok || bad "the sweep run again differs from the first"

echo "== the targets of issues 19 and 20: verdicts from planted figures"
# the verdicts worked out by hand: MIN UR 0.8600 >= 0.85 met; DOAR UR 0.8500 < 0.90 missed, ADV+1
# 0.4800 >= 0.48 met (the bound counts), RP 0.5400 < 0.55 missed; UR: TPR's 0.8600 beats DOAR's
# 0.8500, missed; ADV+1: DOAR 0.4800 above 0.4700 / 0.3000 / 0.4600, met; DOAR UR past saturation
# 0.7600 = 89.4 % of 0.8500 and RP 0.4850 = 89.8 % of 0.5400, listed below 90 % (one decimal: not
# as 90 %); 40 links 0.8330: 2.0 % lost, met; 200 links 0.7600:
# 10.6 % lost, missed
mkdir -p "$TMP/tsaved"; cp "$TMP/a/runs/"* "$TMP/tsaved/"
plant() { echo "sweep: config=tiny routing=$2 traffic=$3 saturation=$4${5:+ post_saturation=$5}" >> "$TMP/tsaved/$1.txt"; }
plant sweep_min_ur min ur 0.8600 0.8600; plant sweep_doar_ur doar ur 0.8500 0.7600
plant sweep_doar_adv_1 doar adv+1 0.4800 0.4800; plant sweep_doar_rp doar rp 0.5400 0.4850
plant sweep_par_ph_ur par_ph ur 0.8400 0.8400; plant sweep_tpr_ur tpr ur 0.8600 0.8600; plant sweep_ugal_le_ur ugal_le ur 0.8000 0.8000
plant sweep_par_ph_adv_1 par_ph adv+1 0.4700 0.4700; plant sweep_tpr_adv_1 tpr adv+1 0.3000 0.3000; plant sweep_ugal_le_adv_1 ugal_le adv+1 0.4600 0.4600
plant fault_l40_ur doar ur 0.8330; plant fault_l200_ur doar ur 0.7600; plant fault_r30_ur doar ur 0.7200; plant fault_r10_ur doar ur 0.7600
expect_exit 0 env RESUME_FROM="$TMP/tsaved" "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/t"
T="$TMP/t/summary.md"
grep -qF "| MIN UR saturation >= 0.85 (issue 19 item 1) | 0.8600 | met |" "$T" && ok || bad "targets: MIN UR"
grep -qF "| DOAR UR saturation >= 0.90 | 0.8500 | missed |" "$T" && grep -qF "| DOAR ADV+1 saturation >= 0.48 | 0.4800 | met |" "$T" &&
  grep -qF "| DOAR RP saturation >= 0.55 | 0.5400 | missed |" "$T" && ok || bad "targets: DOAR's saturation rows"
grep -qF "| DOAR ahead of PAR_PH, TPR and UGAL_LE on UR | doar 0.8500; par_ph 0.8400, tpr 0.8600, ugal_le 0.8000 | missed |" "$T" &&
  grep -qF "| DOAR ahead of PAR_PH, TPR and UGAL_LE on ADV+1 | doar 0.4800; par_ph 0.4700, tpr 0.3000, ugal_le 0.4600 | met |" "$T" &&
  ok || bad "targets: DOAR ahead"
grep -E "^\| every routing and traffic past saturation .* \| [0-9]+ of 27; below 90 %: .*doar ur 89\.4 %, doar rp 89\.8 % \| missed \|$" "$T" > /dev/null && ok || bad "targets: past saturation"
grep -qE "^\| every routing and traffic at offered 1\.0 .* \| [0-9]+ of 27(; below 90 %: .*)? \| (met|missed) \|$" "$T" && ok || bad "targets: offered 1.0"
grep -qF "| DOAR ur saturation lost to 40 failed links <= 3 % (issue 20 item 2) | 2.0 % | met |" "$T" &&
  grep -qF "| DOAR ur saturation lost to 200 failed links <= 10 % (issue 20 item 2) | 10.6 % | missed |" "$T" && ok || bad "targets: link faults"
# dead routers against the v1 router's losses: 30 routers 0.7200 = 15.3 % lost <= 16.3 %, met; 10
# routers 0.7600 = 10.6 % > 9.2 %, missed
grep -qF "| DOAR ur saturation lost to 30 dead routers <= 16.3 %, the v1 router's (issue 20 item 2) | 15.3 % | met |" "$T" &&
  grep -qF "| DOAR ur saturation lost to 10 dead routers <= 9.2 %, the v1 router's (issue 20 item 2) | 10.6 % | missed |" "$T" &&
  ok || bad "targets: router faults"
grep -qE "^\| Fig\. 17: .* \| (all the time .*|from [0-9]+ \([0-9]+ cycles after diagnosis ended\)|not before the repair|from [0-9]+) \| (met|missed) \|$" "$T" &&
  ok || bad "targets: Fig. 17"
n=$(sed -n '/^## Targets/,/^## Saturation throughput/p' "$T" | grep -cE "^\| .* \| (met|missed|-) \|$")
[ "$n" = 22 ] && ok || bad "targets: $n verdict rows, not 22"

echo "== ONLY: a subset of the runs"
expect_exit 0 env ONLY='^sweep_min_' "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/o"
ran=$(find "$TMP/o/runs" -maxdepth 1 -name '*.txt' -printf '%f\n' | sort | tr '\n' ' ')
[ "$ran" = "sweep_min_adv_1.txt sweep_min_rp.txt sweep_min_ur.txt " ] && ok || bad "ONLY ran: $ran"
grep -qE "^reproduce: 3 to run, [0-9]+ kept from an earlier run or left out by ONLY$" "$TMP/err" && ok || bad "ONLY progress: $(grep 'to run' "$TMP/err" | head -n 1)"
# a progress line per finished run, with its exit status and its name
prog=$(sed -nE 's/^reproduce: [1-3]\/3 runs done \(rc=0 run=([a-z0-9_]+), [0-9]+ min into the stage\)$/\1/p' "$TMP/err" | sort | tr '\n' ' ')
[ "$prog" = "sweep_min_adv_1 sweep_min_rp sweep_min_ur " ] && ok || bad "ONLY's progress lines: $(grep 'runs done' "$TMP/err" | tr '\n' ';')"
grep -qF "Only the runs whose names match ONLY='^sweep_min_' were run" "$TMP/o/summary.md" && ok || bad "the summary does not say ONLY left runs out"
[ -z "$(find "$TMP/o/plots" -name '*.png' -size 0)" ] && ok || bad "empty plots: $(find "$TMP/o/plots" -name '*.png' -size 0 | tr '\n' ' ')"

echo "== fig17_table: a series made up here, every figure worked out by hand"
# before (1000-2000): bins 0.50 and 0.52 -> 0.51; the faults' bin at 2000: 0.40; down 2500-4000:
# 0.47, 0.50, 0.52 -> mean 0.4967, lowest 0.40; within 3 % (0.4947) from 3000 = 200 cycles after
# diagnosis ended (2000 + 800); after (4500-6000): 0.51, 0.49, 0.50 -> 0.50; latency before
# (100 x 10 + 130 x 30) / 40 = 122.5, while down (2000-4000) 4,780 / 30 = 159.3, after 3,100 / 30 = 103.3
printf '%s\n' cycle,accepted,latency,packets 0,0.30,90.0,5 500,0.45,95.0,5 1000,0.50,100.0,10 \
  1500,0.52,130.0,30 2000,0.40,200.0,4 2500,0.47,180.0,6 3000,0.50,150.0,10 3500,0.52,140.0,10 \
  4000,0.49,120.0,10 4500,0.51,110.0,10 5000,0.49,100.0,10 5500,0.50,100.0,10 6000,0.10,90.0,1 > "$TMP/f17.csv"
echo "sim: faults links=3 at=2000 repair=4000 dest_refraction=1 fd_fr_packets=9 ctl_unwired=0 diagnosis_cycles=800 recovery_cycles=300 lost_on_links=7 lost_discarded=2; lost by creation: before_fault=0" > "$TMP/f17.txt"
expect_exit 0 "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.txt" 1000 2000 4000 6000
T="$TMP/out"
grep -qF "| accepted before the faults (1000-2000) | 0.5100 |" "$T" && ok || bad "fig17 before: $(sed -n 3p "$T")"
grep -qF "| the faults' bin (2000-2500) | 0.4000 (-21.6 %) |" "$T" && ok || bad "fig17 faults' bin: $(sed -n 4p "$T")"
grep -qF "| lowest bin while the links are down | 0.4000 (-21.6 %) |" "$T" && ok || bad "fig17 lowest: $(sed -n 5p "$T")"
grep -qF "| mean while the links are down (2500-4000) | 0.4967 (-2.6 %) |" "$T" && ok || bad "fig17 mean down: $(sed -n 6p "$T")"
grep -qF "| back within 3 % of before | from 3000 (200 cycles after diagnosis ended) |" "$T" && ok || bad "fig17 within: $(sed -n 7p "$T")"
grep -qF "| mean latency before / while down / after the repair | 122.5 / 159.3 / 103.3 cycles |" "$T" && ok || bad "fig17 latency: $(sed -n 8p "$T")"
grep -qF "| accepted after the repair (4500-6000) | 0.5000 (-2.0 %) |" "$T" && ok || bad "fig17 after: $(sed -n 9p "$T")"
grep -qF "| diagnosis / recovery | 800 / 300 cycles |" "$T" && grep -qF "| packets lost: on links / discarded | 7 / 2 |" "$T" && ok || bad "fig17 cycles/losses: $(tail -n 2 "$T")"
# a dip after the series came back moves "within 3 %" to the bin after it; no dip at all: all the time
sed 's/^2500,0.47,/2500,0.30,/; s/^2000,0.40,/2000,0.50,/' "$TMP/f17.csv" > "$TMP/f17b.csv"
expect_exit 0 "$SCRIPTS/fig17_table.sh" "$TMP/f17b.csv" "$TMP/f17.txt" 1000 2000 4000 6000
grep -qF "| back within 3 % of before | from 3000 (200 cycles after diagnosis ended) |" "$TMP/out" && ok || bad "fig17 dip after recovery: $(sed -n 7p "$TMP/out")"
sed 's/^2500,0.47,/2500,0.50,/; s/^2000,0.40,/2000,0.50,/' "$TMP/f17.csv" > "$TMP/f17c.csv"
expect_exit 0 "$SCRIPTS/fig17_table.sh" "$TMP/f17c.csv" "$TMP/f17.txt" 1000 2000 4000 6000
grep -qF "| back within 3 % of before | all the time (no bin below 0.97 x before) |" "$TMP/out" && ok || bad "fig17 no dip: $(sed -n 7p "$TMP/out")"
expect_error "not all on bin starts \(bins of 500 cycles\)" "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.txt" 1000 2000 3800 6000
expect_error "expected FROM < FAULT < REPAIR < END" "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.txt" 1000 4000 2000 6000
expect_error "'x1': expected a cycle" "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.txt" x1 2000 4000 6000
expect_error "not a --series-csv file" "$SCRIPTS/fig17_table.sh" "$TMP/f17.txt" "$TMP/f17.txt" 1000 2000 4000 6000
expect_error "no 'sim: faults' line" "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.csv" 1000 2000 4000 6000
expect_error "does not cover 1000..9000" "$SCRIPTS/fig17_table.sh" "$TMP/f17.csv" "$TMP/f17.txt" 1000 2000 8500 9000

echo "== bad input"
expect_error "RESUME_FROM=$TMP/none is not a directory" env RESUME_FROM="$TMP/none" "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/c"
expect_error "unknown config 'huge'" "$SCRIPTS/reproduce.sh" "$DOAR" huge "$TMP/c"
expect_error "is not an extended regex" env ONLY='(' "$SCRIPTS/reproduce.sh" "$DOAR" tiny "$TMP/c"
expect_error "usage: scripts/reproduce.sh DOAR CONFIG OUTDIR" "$SCRIPTS/reproduce.sh" "$DOAR" tiny
expect_error "$TMP/none/runs: no such directory" "$SCRIPTS/reproduce_save.sh" "$TMP/none" "$TMP/d"
expect_error "usage: scripts/reproduce_save.sh OUTDIR DEST" "$SCRIPTS/reproduce_save.sh"

echo "reproduce_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
