#!/usr/bin/env bash
# End-to-end tests of `doar sim`: bad input (exit 2, one line on stderr), the summary line and its
# fields, accepted = offered at low load with no packet lost, mixed and application traffic, the
# same seed twice, another seed.
# (Loss and the deadlock watchdog need a broken network: tests/test_network.c builds those.)
# Usage: tests/sim_cli_test.sh DOAR
set -u
DOAR=${1:?doar binary}
TMP=$(mktemp -d /tmp/doar_sim_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/cli_lib.sh"

SHORT=(--warmup 300 --sample 600 --quiet)
echo "== sim: bad input"
expect_error "missing CONFIG" "$DOAR" sim --rate 0.1
expect_error "missing --rate" "$DOAR" sim tiny
expect_error "--rate '1.5': expected 0..1" "$DOAR" sim tiny --rate 1.5
expect_error "--rate '-0.1': expected 0..1" "$DOAR" sim tiny --rate -0.1
expect_error "--rate 'abc'" "$DOAR" sim tiny --rate abc
expect_error "routing 'UGAL_L': unknown" "$DOAR" sim tiny --rate 0.1 --routing UGAL_L
expect_error "--threshold-util '101': expected a percentage" "$DOAR" sim tiny --rate 0.1 --threshold-util 101
expect_error "--cong-demand '2': expected 0 or 1" "$DOAR" sim tiny --rate 0.1 --cong-demand 2
expect_error "--cong-demand 'yes': expected 0 or 1" "$DOAR" sweep tiny --cong-demand yes
expect_error "--thresholds '10': expected TL,TG" "$DOAR" sim tiny --rate 0.1 --thresholds 10
expect_error "faults need --routing doar" "$DOAR" sim small --rate 0.1 --routing val --link-faults 2
expect_error "routing 'fast': unknown" "$DOAR" sim tiny --rate 0.1 --routing fast
expect_error "traffic 'hotspot': expected ur, adv\+i" "$DOAR" sim tiny --rate 0.1 --traffic hotspot
expect_error "traffic 'adv\+3': with g=3" "$DOAR" sim tiny --rate 0.1 --traffic adv+3
expect_error "--packet-len '1': expected 2..15" "$DOAR" sim tiny --rate 0.1 --packet-len 1
expect_error "--packet-len '16'" "$DOAR" sim tiny --rate 0.1 --packet-len 16
expect_error "--latency '0,100': links need >= 1 cycle" "$DOAR" sim tiny --rate 0.1 --latency 0,100
expect_error "--latency '10': expected L,G" "$DOAR" sim tiny --rate 0.1 --latency 10
expect_error "--sample: expected a cycle count" "$DOAR" sim tiny --rate 0.1 --sample 0
expect_error "watchdog 10: must exceed" "$DOAR" sim tiny --rate 0.1 --watchdog 10
expect_error "--block '17': expected 0..16" "$DOAR" sim tiny --rate 0.1 --block 17
expect_error "block 11: expected 0 \(automatic\) or 1..16 cycles \(<= the shortest router link latency, 10\)" "$DOAR" sim tiny --rate 0.1 --block 11
expect_error "block 4: expected" "$DOAR" sim tiny --rate 0.1 --latency 3,9 --block 4
expect_error "unknown option '--frob'" "$DOAR" sim tiny --rate 0.1 --frob
expect_error "needs a value" "$DOAR" sim tiny --rate
expect_exit 0 "$DOAR" sim --help
grep -q "usage: doar sim" "$TMP/out" && ok || bad "sim --help"
# help and parsing come from one option table (csim/cmd_sim.c): what the help says is what is parsed
grep -q "no random choices" "$TMP/out" && bad "sim --help: --seed says no random choices" || ok
grep -Eq -- "--packet-len L +flits per packet, 2\.\.15 \(default 4\)" "$TMP/out" && ok || bad "sim --help: --packet-len 2..15 (default 4)"
grep -Eq -- "--speedup S .*1, 2 or 4 \(default" "$TMP/out" && ok || bad "sim --help: --speedup 1, 2 or 4"
grep -Eq -- "--oq-depth P .*packets, 1\.\.64 \(default" "$TMP/out" && ok || bad "sim --help: --oq-depth 1..64"
expect_error "--speedup '3': expected 1, 2 or 4" "$DOAR" sim tiny --rate 0.1 --speedup 3
# output queues and the in-flight window (docs/network.md): ranges, and a global link too long for
# the window named with the way out
for v in 0 65 x 8x ""; do expect_error "--oq-depth '$v': expected 1..64 packets" "$DOAR" sim tiny --rate 0.1 --oq-depth "$v"; done
for v in 2 -1 x; do expect_error "--cong-window '$v': expected 0 or 1" "$DOAR" sim tiny --rate 0.1 --cong-window "$v"; done
expect_error "global latency 2045: DOAR's in-flight window spans 2 x 2045 \+ 8 = 4098 cycles, at most 4096 \(latency <= 2044\); --cong-window 0 for longer links" \
  "$DOAR" sweep tiny --latency 10,2045
expect_exit 0 "$DOAR" sim tiny --rate 0.05 --latency 10,2045 --cong-window 0 --warmup 100 --sample 100 --quiet
expect_exit 0 "$DOAR" sim tiny --rate 0.05 --latency 10,2045 --routing min --warmup 100 --sample 100 --quiet
expect_exit 0 "$DOAR" sim tiny --rate 0.05 --oq-depth 1 --warmup 100 --sample 100 --quiet
grep -q " oq_depth=1 " "$TMP/out" && ok || bad "sim's first line does not give oq_depth=1"
expect_error "unknown option '--router'" "$DOAR" sim tiny --rate 0.1 --router 0,0
expect_exit 0 "$DOAR" sweep --help
grep -Eq -- "--step X +load step, 0\.005\.\.0\.5 \(default 0\.05\)" "$TMP/out" && ok || bad "sweep --help: --step 0.005..0.5 (default 0.05)"
grep -Eq -- "^  --(rate|series-csv) " "$TMP/out" && bad "sweep --help lists sim's --rate or files" || ok

SUMMARY='^sim: config=[a-z0-9.]+ routing=[a-z_]+ traffic=[a-z0-9+_(),]+ offered=[0-9.]+ accepted=[0-9.]+ latency=[0-9.]+ hops=[0-9.]+ delivered=[0-9]+ lost=[0-9]+$'
echo "== sim: summary line"
for spec in "tiny doar ur" "small doar adv+1" "small min rp" "small doar rp"; do
  # shellcheck disable=SC2086  # the spec is a list of words on purpose
  set -- $spec
  expect_exit 0 "$DOAR" sim "$1" --routing "$2" --traffic "$3" --rate 0.1 --seed 4 "${SHORT[@]}"
  last=$(tail -n 1 "$TMP/out")
  if echo "$last" | grep -qE "$SUMMARY"; then ok; else bad "summary '$last'"; fi
  echo "$last" | grep -q "config=$1 routing=$2 traffic=$3 offered=0.1000 " && ok || bad "fields: $last"
  echo "$last" | grep -q " lost=0$" && ok || bad "lost packets: $last"
  # at 0.1 every config here accepts what is offered (within sampling noise)
  acc=$(echo "$last" | sed -E 's/.*accepted=([0-9.]+).*/\1/')
  awk -v a="$acc" 'BEGIN { exit !(a > 0.08 && a < 0.12) }' && ok || bad "accepted $acc at offered 0.1: $last"
  echo "   $last"
done
echo "== sim: every packet length of --help's 2..15 runs (the output queues are sized for it)"
for len in 2 9 15; do
  expect_exit 0 "$DOAR" sim tiny --rate 0.1 --seed 4 --packet-len $len "${SHORT[@]}"
  last=$(tail -n 1 "$TMP/out")
  echo "$last" | grep -qE " delivered=[1-9][0-9]* lost=0$" && ok || bad "--packet-len $len: $last"
done
echo "== sim: mixed and application traffic (docs/network.md, Traffic patterns)"
expect_error "traffic 'r_mixed_ua\(30,30\)': x \+ y = 60" "$DOAR" sim small --rate 0.1 --traffic 'r_mixed_ua(30,30)'
expect_error "traffic 'r_mixed_ua\(a,b\)': expected r_mixed_ua\(x,y\)" "$DOAR" sim small --rate 0.1 --traffic 'r_mixed_ua(a,b)'
expect_error "traffic 'halo3d\(500\)': expected halo3d" "$DOAR" sweep small --traffic 'halo3d(500)'
# spec, then the name the summary must print (canonical: fft3d(500,linear) -> fft3d(linear,500))
for spec in "r_mixed_ua(50,50) r_mixed_ua(50,50)" "n_mixed_ur(25,75) n_mixed_ur(25,75)" \
            "fft3d(500,linear) fft3d(linear,500)" "dl(linear) dl(linear)"; do
  # shellcheck disable=SC2086  # the spec is a list of words on purpose
  set -- $spec
  expect_exit 0 "$DOAR" sim small --traffic "$1" --rate 0.1 --seed 4 "${SHORT[@]}"
  last=$(tail -n 1 "$TMP/out")
  if echo "$last" | grep -qE "$SUMMARY"; then ok; else bad "summary '$last'"; fi
  echo "$last" | grep -qF " traffic=$2 offered=0.1000 " && ok || bad "traffic field (want $2): $last"
  echo "$last" | grep -qE " delivered=[1-9][0-9]* lost=0$" && ok || bad "delivered/lost: $last"
  echo "   $last"
done
# dl(linear): node n sends to n+1, the same router for every even n (p = 2): far below UR's 2.3 hops
hops=$(echo "$last" | sed -E 's/.* hops=([0-9.]+).*/\1/')
awk -v h="$hops" 'BEGIN { exit !(h < 1.0) }' && ok || bad "dl(linear) hops $hops: the pattern did not reach the network"

echo "== sim: a long-idle network is no livelock; blocks end where cycle by cycle does"
# a packet now and then, none for longer than 10 watchdog periods in between: every run is healthy
expect_exit 0 "$DOAR" sim tiny --rate 0.0005 --latency 10,10 --watchdog 84 --warmup 20000 --sample 10000 --quiet --block 1
one=$(grep -v "time=" "$TMP/out")
echo "$one" | tail -n 1 | grep -q " lost=0$" && ok || bad "idle network: $(tail -n 1 "$TMP/out")"
expect_exit 0 "$DOAR" sim tiny --rate 0.0005 --latency 10,10 --watchdog 84 --warmup 20000 --sample 10000 --quiet
[ "$(grep -v "time=" "$TMP/out")" = "$one" ] && ok || bad "idle network: blocks give another result"
echo "== sim: same seed, same result; progress on stderr without --quiet"
"$DOAR" sim small --rate 0.3 --seed 9 --warmup 300 --sample 600 >"$TMP/a" 2>"$TMP/progress"
"$DOAR" sim small --rate 0.3 --seed 9 "${SHORT[@]}" >"$TMP/b"
if [ "$(tail -n 1 "$TMP/a")" = "$(tail -n 1 "$TMP/b")" ]; then ok; else bad "seed 9 twice differs"; fi
"$DOAR" sim small --rate 0.3 --seed 10 "${SHORT[@]}" >"$TMP/c"
if [ "$(tail -n 1 "$TMP/a")" != "$(tail -n 1 "$TMP/c")" ]; then ok; else bad "seeds 9 and 10 give the same run"; fi

echo "== sweep: saturation, CSV, routing that would fail if broken"
SW=(--warmup 1500 --sample 1500 --step 0.1 --quiet)
sat_of() { sed -n 's/^sweep: config=.* saturation=\([0-9.]*\)$/\1/p' "$TMP/out" | tail -n 1; }
expect_exit 0 "$DOAR" sweep small --routing min --traffic ur --seed 2 "${SW[@]}" --csv "$TMP/ur.csv"
tail -n 1 "$TMP/out" | grep -qE '^sweep: config=small routing=min traffic=ur saturation=[0-9.]+$' && ok || bad "sweep last line: $(tail -n 1 "$TMP/out")"
sat_ur=$(sat_of); echo "   min ur: saturation $sat_ur"
rows=$(($(wc -l < "$TMP/ur.csv") - 1))
head -n 1 "$TMP/ur.csv" | grep -qx "rate,accepted,latency,hops,saturated,stopped" && [ "$rows" -ge 3 ] && ok || bad "csv: $rows rows"
# the highest unsaturated load carries no more than it was offered and a saturated one is reported
grep -q "saturated=1 stopped=[01] time=" "$TMP/out" && ok || bad "min ur never saturated up to 1.0"
# the early stop only shortens saturated loads: without it the same loads are run, the unsaturated
# ones give the same figures and the saturation found is the same; a stopped load is saturated
cp "$TMP/out" "$TMP/early"
expect_exit 0 "$DOAR" sweep small --routing min --traffic ur --seed 2 "${SW[@]}" --full-points
grep -q "stopped=1 " "$TMP/early" && ! grep -q "stopped=1 " "$TMP/out" && ok || bad "no load stopped early (or one did with --full-points)"
! grep -q "saturated=0 stopped=1 " "$TMP/early" && ok || bad "a load stopped early without being saturated"
unsat() { grep "^sweep: rate=.* saturated=0 " "$1" | sed 's/ stopped=[01] time=.*$//'; }
if [ "$(unsat "$TMP/early")" = "$(unsat "$TMP/out")" ] && [ "$(tail -n 1 "$TMP/early")" = "$(tail -n 1 "$TMP/out")" ] &&
   [ "$(grep -c "^sweep: rate=" "$TMP/early")" = "$(grep -c "^sweep: rate=" "$TMP/out")" ]; then ok
else bad "early stop changed the sweep: $(diff <(grep "^sweep: rate" "$TMP/early") <(grep "^sweep: rate" "$TMP/out") | head -n 4)"; fi
# --resume: an interrupted run's loads are taken from its output, not run again (a planted value
# shows it), and the sweep ends as the uninterrupted one; another sweep's output is not used
head -n 5 "$TMP/early" | sed -E '/^sweep: rate=0.1000 /{s/latency=[0-9.]+/latency=4321.0/;s/time=[0-9.]+s/time=9876.5s/}' > "$TMP/partial"
expect_exit 0 "$DOAR" sweep small --routing min --traffic ur --seed 2 "${SW[@]}" --resume "$TMP/partial"
grep -q "^sweep: rate=0.1000 .* latency=4321.0 .* time=9876.5s$" "$TMP/out" && ok || bad "--resume ran a load its file holds (or lost its time)"
# a resumed load's own time still counts in the sweep's time (the reproduction's machine time)
awk '/^sweep: points=/ { for (i = 1; i <= NF; i++) if ($i ~ /^time=/) { sub(/time=/, "", $i); t = $i + 0 } } END { exit !(t >= 9876.5) }' "$TMP/out" &&
  ok || bad "sweep time leaves out the resumed loads: $(grep '^sweep: points=' "$TMP/out")"
rates() { grep "^sweep: rate=" "$1" | sed 1d | sed 's/ time=.*$//'; }
[ "$(rates "$TMP/out")" = "$(rates "$TMP/early")" ] &&
  [ "$(tail -n 1 "$TMP/out")" = "$(tail -n 1 "$TMP/early")" ] && ok || bad "--resume changed the sweep"
"$DOAR" sweep small --routing min --traffic ur --seed 5 "${SW[@]}" --resume "$TMP/partial" 2>&1 >/dev/null | grep -q "not the output of this sweep" &&
  ok || bad "--resume took another sweep's output"
"$DOAR" sweep small --routing min --traffic ur --seed 2 "${SW[@]}" --latency 10,50 --resume "$TMP/partial" 2>&1 >/dev/null | grep -q "not the output of this sweep" &&
  ok || bad "--resume took the output of a sweep with other link latencies"
# DOAR's sweeps name the congestion measure (a route policy's do not: it does not read it), so a
# run with the other measure is not resumed from
! grep -q "cong_demand\|cong_window" "$TMP/early" && ok || bad "a min sweep header names cong_demand or cong_window"
"$DOAR" sweep tiny --traffic ur --seed 1 --step 0.5 --warmup 300 --sample 300 --quiet > "$TMP/dsw" 2>&1
sed -n 2p "$TMP/dsw" | grep -q " cong_demand=1 cong_window=1$" && ok || bad "doar sweep header: $(sed -n 2p "$TMP/dsw")"
head -n 3 "$TMP/dsw" > "$TMP/dpartial"
"$DOAR" sweep tiny --traffic ur --seed 1 --step 0.5 --warmup 300 --sample 300 --cong-demand 0 --resume "$TMP/dpartial" 2>&1 >/dev/null |
  grep -q "not the output of this sweep" && ok || bad "--resume took a sweep with the other congestion measure"
cp "$TMP/early" "$TMP/out"
expect_exit 0 "$DOAR" sweep small --routing min --traffic adv+1 --seed 2 "${SW[@]}"
sat_adv=$(sat_of); echo "   min adv+1: saturation $sat_adv (bound 1/(a*p) = 0.125)"
# MIN on ADV+1 has one global link per group pair: it saturates near 1/(a*p), far below UR
awk -v u="$sat_ur" -v a="$sat_adv" 'BEGIN { exit !(u > 0.4 && a < 0.14 && a < u) }' && ok || bad "min: ur $sat_ur, adv+1 $sat_adv"
expect_error "--step '0': expected" "$DOAR" sweep small --step 0
expect_error "unknown option '--rate'" "$DOAR" sweep small --rate 0.1
expect_error "a sweep keeps its faults" "$DOAR" sweep small --link-faults 2 --repair-at 100
expect_error "faults need --routing doar" "$DOAR" sweep small --link-faults 2 --routing min
# a sweep with failed links (seed 001 Fig. 15): runs, reports its faults, ends with the stable line
expect_exit 0 "$DOAR" sweep small --link-faults 3 --seed 2 "${SW[@]}"
grep -q "^sweep: faults links=3 routers=0 from cycle 0" "$TMP/out" && tail -n 1 "$TMP/out" | grep -qE '^sweep: config=small routing=doar traffic=ur saturation=0\.[0-9]+$' && ok || bad "sweep with faults: $(tail -n 2 "$TMP/out")"
echo "   doar ur, 3 failed links: saturation $(sat_of)"
expect_error "faults need --routing doar" "$DOAR" sweep small --router-faults 2 --routing val
expect_error "router faults 36: must be 0..35" "$DOAR" sim small --rate 0.1 --router-faults 36

echo "== global channel load (seed 001 Fig. 12): MIN piles ADV+1 on one link per group, DOAR spreads it"
# At 0.2 the group's 8 nodes offer 1.6 flits/cycle to its one minimal link to the next group: MIN
# fills that link and leaves every other global link idle; DOAR fills the minimal link too (at low
# load it stays minimal, seed 001 Fig. 10e) and sends the rest over all the others
min_min=0 max_min=0 min_doar=0 max_doar=0   # set by the loop (eval)
for r in min doar; do
  expect_exit 0 "$DOAR" sim small --routing "$r" --traffic adv+1 --rate 0.2 --seed 2 --warmup 1500 --sample 1500 --quiet --channel-csv "$TMP/ch_$r.csv"
  line=$(grep '^sim: global_channels=' "$TMP/out"); echo "   $r: $line"
  eval "min_$r=$(echo "$line" | sed -E 's/.* min=([0-9.]+).*/\1/')"
  eval "max_$r=$(echo "$line" | sed -E 's/.* max=([0-9.]+).*/\1/')"
  rows=$(($(wc -l < "$TMP/ch_$r.csv") - 1))
  [ "$rows" -eq 72 ] && head -n 1 "$TMP/ch_$r.csv" | grep -qx "router,gid,bid,port,peer_gid,load" && ok || bad "channel csv: $rows rows"
done
awk -v a="$min_min" -v m="$max_min" -v d="$min_doar" 'BEGIN { exit !(m > 0.9 && a == 0 && d > 0.03) }' &&
  ok || bad "channel loads: min $min_min..$max_min, doar $min_doar..$max_doar"
# the CSV's busiest MIN link is a minimal one (group G to G+1) and DOAR's busiest links carry no more than it
awk -F, 'NR > 1 && $6 > b { b = $6; w = ($5 - $2 + 9) % 9 } END { exit !(w == 1) }' "$TMP/ch_min.csv" &&
  ok || bad "MIN's busiest global link does not lead to the next group"
expect_error "--channel-csv '/nonexistent/x.csv': cannot write" "$DOAR" sim small --rate 0.1 --quiet --channel-csv /nonexistent/x.csv

echo "== congestion over time (--cong-csv): idle at low load, congested and queueing when overloaded"
# MIN at 0.05: no port congested, no source queue builds, no route longer than L-G-L (3 hops); the
# bins are the run's whole bins and their accepted load is the time series' own
expect_exit 0 "$DOAR" sim small --routing min --rate 0.05 --seed 3 --warmup 1000 --sample 1000 --quiet \
  --cong-csv "$TMP/cg_low.csv" --series-csv "$TMP/se_low.csv" --bin 250
cycles=$(sed -nE 's/^sim: cycles=([0-9]+) .*/\1/p' "$TMP/out")
head -n 1 "$TMP/cg_low.csv" | grep -qx "cycle,accepted,hops,congg,congl,global_occ,global_demand,local_occ,source_queue" &&
  ok || bad "cong csv header: $(head -n 1 "$TMP/cg_low.csv")"
[ "$(($(wc -l < "$TMP/cg_low.csv") - 1))" -eq "$((cycles / 250))" ] && ok || bad "cong csv: $(wc -l < "$TMP/cg_low.csv") lines for $cycles cycles"
[ "$(cut -d, -f1,2 "$TMP/cg_low.csv" | sed 1d)" = "$(cut -d, -f1,2 "$TMP/se_low.csv" | sed 1d | head -n "$((cycles / 250))")" ] &&
  ok || bad "cong csv's accepted load is not the series'"
awk -F, 'NR > 1 && ($4 != 0 || $5 != 0 || $9 >= 0.1 || $3 > 3 || $3 < 1) { bad = 1 } END { exit bad }' "$TMP/cg_low.csv" &&
  ok || bad "MIN at 0.05: a port congested, a queue, or hops out of 1..3: $(sed -n 2,4p "$TMP/cg_low.csv")"
# DOAR at 1.0 (small saturates near 0.9): most global ports read congested, the source queues grow
expect_exit 0 "$DOAR" sim small --rate 1.0 --seed 3 --warmup 1500 --sample 1500 --drain-limit 300 --quiet \
  --cong-csv "$TMP/cg_high.csv" --bin 250
awk -F, 'NR > 1 && $1 < 3000 { if ($4 > mx) mx = $4; if (NR == 2) q0 = $9; q = $9; if ($6 > go) go = $6 }
         END { printf "   doar 1.0: highest congg %.2f, source queue %.1f -> %.1f packets/node\n", mx, q0, q;
               exit !(mx >= 0.5 && q > 3 * q0 && q > 5 && go > 0) }' "$TMP/cg_high.csv" &&
  ok || bad "DOAR overloaded: no congestion or no queue in the cong csv"
# dead routers: their ports are left out, and the state is written as for a healthy network
expect_exit 0 "$DOAR" sim small --rate 0.1 --seed 3 --warmup 1000 --sample 1000 --router-faults 4 --fault-at 0 --quiet \
  --cong-csv "$TMP/cg_dead.csv" --bin 500
awk -F, 'NR > 1 && ($4 < 0 || $4 > 1 || $5 < 0 || $5 > 1 || $6 < 0) { bad = 1 } NR > 1 { n++ } END { exit bad || n < 4 }' "$TMP/cg_dead.csv" &&
  ok || bad "cong csv with dead routers: $(sed -n 2,3p "$TMP/cg_dead.csv")"
expect_error "--cong-csv '/nonexistent/x.csv': cannot write" "$DOAR" sim small --rate 0.1 --quiet --cong-csv /nonexistent/x.csv

echo "sim_cli_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
