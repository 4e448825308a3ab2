#!/usr/bin/env bash
# Issue 24, "bad input never gives a wrong answer": each input here once gave a silently wrong
# result, a second line of error or the wrong exit status. Every case must now be refused with
# exit 2 and one line on stderr, or give the right answer. docs/cli.md lists the classes.
# Usage: tests/bad_input_test.sh DOAR [FAST_DOAR]   (DOAR the sanitized build: every case also runs
#        under ASan/UBSan; FAST_DOAR, the plain build, for the memory estimate against the real peak)
set -u
DOAR=${1:?doar binary}
FAST=${2:-$1}
TMP=$(mktemp -d /tmp/doar_bad_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/cli_lib.sh"
SHORT=(--warmup 200 --sample 300 --quiet)

echo "== 1. faults: --faults is exact whatever order --campaigns / --max-faults come in"
for order in "--faults 3 --campaigns 2" "--campaigns 2 --faults 3"; do
  read -ra opts <<<"$order"
  expect_exit 0 "$DOAR" faults tiny "${opts[@]}" --quiet
  head -n 1 "$TMP/out" | grep -q " campaigns=2 faults=3 " && ok || bad "$order: $(head -n 1 "$TMP/out")"
done
# every campaign has exactly 3 faults: 2 campaigns make 6 (links + routers)
n=$(sed -n 's/^faults: link_faults=\([0-9]*\) router_faults=\([0-9]*\).*/\1 \2/p' "$TMP/out")
[ "$(echo "$n" | awk '{print $1 + $2}')" = 6 ] && ok || bad "2 campaigns x --faults 3 gave '$n' faults"
expect_exit 0 "$DOAR" faults tiny --campaigns 2 --max-faults 3 --quiet
head -n 1 "$TMP/out" | grep -q " max_faults=3 " && ok || bad "--max-faults: $(head -n 1 "$TMP/out")"
expect_error "give --faults F .* or --max-faults F .*, not both" "$DOAR" faults tiny --faults 3 --max-faults 4

echo "== 2. options that would be ignored: refused"
expect_error "--fault-at 1000000000: past the end of the run \(cycle 10500 = " \
  "$DOAR" sim tiny --rate 0.1 --link-faults 1 --fault-at 1000000000 "${SHORT[@]}"
expect_error "--repair-at 20000: past the end of the run" \
  "$DOAR" sim tiny --rate 0.1 --link-faults 1 --fault-at 100 --repair-at 20000 "${SHORT[@]}"
expect_error "--fault-at needs --link-faults N or --router-faults N" "$DOAR" sim tiny --rate 0.1 --fault-at 100 "${SHORT[@]}"
expect_error "--repair-at needs --link-faults N" "$DOAR" sim tiny --rate 0.1 --repair-at 100 "${SHORT[@]}"
expect_error "--fault-at needs" "$DOAR" sweep tiny --fault-at 100 "${SHORT[@]}"
expect_error "--fault-at 500: past the end of the run \(cycle 500 = warm-up \+ sample\)" \
  "$DOAR" sweep tiny --link-faults 1 --fault-at 500 "${SHORT[@]}"
expect_error "--bin needs --series-csv FILE" "$DOAR" sim tiny --rate 0.1 --bin 100 "${SHORT[@]}"
# a fault cycle inside the drain limit that the run ends before: a FAIL line and exit 1, not a
# fault-free figure reported as a faulty one
expect_exit 1 "$DOAR" sim tiny --rate 0.05 --link-faults 1 --fault-at 9000 "${SHORT[@]}"
grep -q "^sim: FAIL the run ended at cycle [0-9]*, before --fault-at 9000$" "$TMP/out" && ok || bad "no FAIL line: $(tail -n 2 "$TMP/out")"
tail -n 1 "$TMP/out" | grep -qE '^sim: config=tiny routing=doar traffic=ur offered=' && ok || bad "last line: $(tail -n 1 "$TMP/out")"
[ "$(grep -c . "$TMP/err")" = 1 ] && grep -q "warning: the run ended at cycle" "$TMP/err" && ok || bad "warning: $(cat "$TMP/err")"

echo "== 3. --resume checks what it reads"
SW=(--warmup 200 --sample 300 --step 0.25 --quiet)
expect_exit 0 "$DOAR" sweep tiny "${SW[@]}"
cp "$TMP/out" "$TMP/done.txt"
# a finished sweep's own output is taken whole: every load resumed, the same answer
expect_exit 0 "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/done.txt"
grep -q "not the output of this sweep" "$TMP/err" && bad "a finished sweep's output was refused" || ok
diff <(grep -v '^sweep: points=' "$TMP/done.txt" | sed 's/ time=.*//') <(grep -v '^sweep: points=' "$TMP/out" | sed 's/ time=.*//') >/dev/null \
  && ok || bad "resumed sweep differs from the one it resumed"
sed '3s/accepted=[0-9.]*/accepted=nan/' "$TMP/done.txt" > "$TMP/nan.txt"
expect_error "--resume .*nan.txt:3: not a load line of doar sweep: .*accepted=nan" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/nan.txt"
[ -s "$TMP/out" ] && bad "refused --resume printed output" || ok
sed '3s/latency=\([0-9.]*\)/latency=-\1/' "$TMP/done.txt" > "$TMP/neg.txt"
expect_error "neg.txt:3: not a load line" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/neg.txt"
sed '3s/saturated=0/saturated=7/' "$TMP/done.txt" > "$TMP/sat.txt"
expect_error "sat.txt:3: not a load line" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/sat.txt"
sed '3s/$/ junk/' "$TMP/done.txt" > "$TMP/junk.txt"
expect_error "junk.txt:3: not a load line" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/junk.txt"
cp "$TMP/done.txt" "$TMP/same.txt"
expect_error "--csv '.*same.txt' is the --resume file" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/same.txt" --csv "$TMP/same.txt"
cmp -s "$TMP/done.txt" "$TMP/same.txt" && ok || bad "--csv emptied the --resume file"
ln -s same.txt "$TMP/link.txt"
expect_error "is the --resume file" "$DOAR" sweep tiny "${SW[@]}" --resume "$TMP/same.txt" --csv "$TMP/link.txt"

echo "== 4. an impossible shape is bad input before any output"
expect_error "h=63: table A global entry" "$DOAR" sweep --dfly 1,1,63,64 --quiet
[ -s "$TMP/out" ] && bad "sweep printed its header before refusing" || ok
expect_error "h=63: table A global entry" "$DOAR" sim --dfly 1,1,63,64 --rate 0.1 --quiet
[ -s "$TMP/out" ] && bad "sim printed its header before refusing" || ok

echo "== 5. memory: estimated before allocating, refused with the figure"
expect_error "this run needs about 4[0-9]\.[0-9] GiB of memory, more than --max-memory \(16\.0 GiB\)" \
  timeout 20 "$DOAR" faults --dfly 1,32,32,1025 --max-memory 16G
expect_error "this run needs about [0-9.]+ GiB of memory, more than --max-memory" \
  timeout 20 "$DOAR" sim --dfly 1,32,32,1025 --rate 0.1 --max-memory 16G
expect_error "this run needs about 11\.[0-9] GiB of memory, more than --max-memory \(1\.0 GiB\)" \
  timeout 20 "$DOAR" sweep tianhe --max-memory 1G
[ -s "$TMP/out" ] && bad "sweep printed its header before refusing" || ok
# the issue's own case, with no limit given: the machine's memory is the limit
mem_kib=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
if [ -n "$mem_kib" ] && [ "$mem_kib" -lt $((40 * 1024 * 1024)) ]; then
  expect_error "needs about 4[0-9]\.[0-9] GiB of memory, more than the machine's" timeout 20 "$DOAR" faults --dfly 1,32,32,1025
else echo "   (machine has >= 40 GiB: the no-limit case is not refused here)"; fi
# past the estimate (--max-memory 1T), the first router's measured size refuses a network that
# cannot fit in the memory available, pointing to MPI (net_part_memory_check; ~10 s, 1.7 GB)
avail_kib=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
if [ -n "$avail_kib" ] && [ "$avail_kib" -lt $((30 * 1024 * 1024)) ] && [ "$avail_kib" -gt $((3 * 1024 * 1024)) ]; then
  expect_error "needs ~3[0-9]\.[0-9] GiB in one process \(32800 routers x 0\.[0-9]+ MiB \+ links \+ [0-9.]+ GiB of tables and nodes\), [0-9.]+ GiB available: run it over MPI" \
    timeout 120 "$FAST" sim --dfly 1,32,32,1025 --rate 0.1 --max-memory 1T --quiet
else echo "   (MemAvailable outside 3..30 GiB: the measured refusal is not tried here)"; fi
for m in 1x 0 512K 99999999999999999999G -1G " 1G"; do
  expect_error "--max-memory '.*': expected a size" "$DOAR" sim tiny --rate 0.1 --max-memory "$m"
done
# the figure in the set-up line is of the order of the real peak (not 10x off either way)
if [ -x /usr/bin/time ]; then
  for run in "sim mid --rate 0.05 --warmup 100 --sample 100 --quiet" "faults mid --campaigns 1 --quiet" \
             "sim small --rate 0.05 --warmup 100 --sample 100 --link-faults 2 --quiet"; do
    read -ra cmd <<<"$run"
    /usr/bin/time -f "rss_kib=%M" "$FAST" "${cmd[@]}" >"$TMP/out" 2>"$TMP/err"
    est=$(head -n 1 "$TMP/out" | sed -n 's/.* memory=\([0-9]*\)MiB$/\1/p'); rss=$(sed -n 's/^rss_kib=//p' "$TMP/err")
    if [ -n "$est" ] && [ -n "$rss" ] && awk -v e="$est" -v r="$rss" 'BEGIN { r /= 1024; exit !(e >= 0.7 * r - 2 && e <= 1.6 * r + 2) }'
    then ok; else bad "$run: estimate ${est:-?} MiB vs peak $((${rss:-0} / 1024)) MiB"; fi
    echo "   $run: estimate ${est:-?} MiB, peak $((${rss:-0} / 1024)) MiB"
  done
else bad "/usr/bin/time missing (Debian package time, scripts/deps.sh)"; fi

echo "== 6. numbers: decimal only, no junk, no overflow"
expect_exit 0 "$DOAR" sim tiny --rate 0.1 --seed 010 --warmup 10 --sample 10 --quiet
head -n 1 "$TMP/out" | grep -q " seed=10 " && ok || bad "--seed 010: $(head -n 1 "$TMP/out")"
expect_exit 0 "$DOAR" sim tiny --rate 0.1 --seed 08 --warmup 10 --sample 10 --quiet
head -n 1 "$TMP/out" | grep -q " seed=8 " && ok || bad "--seed 08: $(head -n 1 "$TMP/out")"
expect_exit 0 "$DOAR" topo tiny --seed 18446744073709551615
for s in 0x10 18446744073709551616 -1 +1 " 1" "1 " 1e3 1x; do
  expect_error "--seed '.*': expected a decimal integer" "$DOAR" topo tiny --seed "$s"
done
for v in 5x " 5" +5 -5 0x5 99999999999999999999 9223372036854775808 5.0; do
  expect_error "--warmup: expected a cycle count" "$DOAR" sim tiny --rate 0.1 --warmup "$v"
  expect_error "--campaigns: expected a positive integer" "$DOAR" faults tiny --campaigns "$v"
  expect_error "--packet-len '.*': expected 2..15" "$DOAR" sim tiny --rate 0.1 --packet-len "$v"
done
expect_error "--latency '10,100x'" "$DOAR" sim tiny --rate 0.1 --latency 10,100x
expect_error "--latency ' 10,100'" "$DOAR" sim tiny --rate 0.1 --latency " 10,100"
expect_error "--thresholds '20,\+30'" "$DOAR" sim tiny --rate 0.1 --thresholds 20,+30
expect_error "--router '0, 1': expected G,B" "$DOAR" topo small --router "0, 1"
expect_error "--router '0,99999999999999999999'" "$DOAR" topo small --router 0,99999999999999999999
for r in nan inf " 0.1" 0x0.1p0 0.1x; do
  expect_error "--rate '.*': expected 0..1" "$DOAR" sim tiny --rate "$r"
done
expect_error "--router-share 'nan'" "$DOAR" faults tiny --router-share nan
expect_error "--step 'inf'" "$DOAR" sweep tiny --step inf
# --past F: a factor above 1 (issue 19); a refusal before the header, whatever the value
for f in 0 -1.2 1 1.0 0.5 nan inf 1.2x x 101 " 1.2" ""; do
  expect_error "--past '.*': expected a factor F, 1 < F <= 100" "$DOAR" sweep tiny --past "$f" --quiet
  [ -s "$TMP/out" ] && bad "sweep --past '$f' printed before refusing" || ok
done
expect_error "option --past needs a value$" "$DOAR" sweep tiny --quiet --past
expect_error "--past needs a value \(got the option '--quiet'\)" "$DOAR" sweep tiny --past --quiet
expect_error "unknown option '--past'" "$DOAR" sim tiny --rate 0.1 --past 1.2

echo "== 7. the table-image manifest is strict"
"$DOAR" tables tiny --out "$TMP/img" >/dev/null || bad "tables tiny --out"
manifest_case() {   # SED-EXPR PATTERN: the edited manifest must be refused naming PATTERN
  rm -rf "$TMP/x"; cp -r "$TMP/img" "$TMP/x"; sed -i "$1" "$TMP/x/manifest.txt"
  expect_error "$2" "$DOAR" tables --load "$TMP/x"
}
manifest_case 's/^routers=6$/routers=6abc/' "manifest.txt:[0-9]+: routers: expected a whole number"
manifest_case 's/^k=3$/k=3xyz/' "manifest.txt:[0-9]+: k: expected a whole number"
manifest_case 's/^k=3$/k=99999999999999999999/' "manifest.txt:[0-9]+: k: expected a whole number"
manifest_case 's/^nm_slots=8$/nm_slots=8 /' "nm_slots: expected a whole number"
manifest_case 's/^zones=1,2,3$/zones=1,2,3,4/' "zones: expected nz,bz,gz"
manifest_case 's/dir=g0000b00$/dir=g0000b00 junk/' "manifest.txt:[0-9]+: bad router line"
manifest_case 's/^router=0,0 /router=0,0x /' "bad router line"
manifest_case 's/^config=tiny$/config=small/' "config=small is dfly\(2,4,2,9\) but dfly=1,2,1,3"
manifest_case 's/^config=tiny$/config=anything/' "config=anything: not a named configuration nor dfly1.2.1.3"
manifest_case '/^config=/d' "missing config="
manifest_case 's/^k=3$/k=3\nk=3/' "k= given twice"
rm -rf "$TMP/x"; cp -r "$TMP/img" "$TMP/x"; rm "$TMP/x/g0000b01/p01.b.hex"; mkdir "$TMP/x/g0000b01/p01.b.hex"
expect_error "g0000b01/p01.b.hex: not a regular file \(a directory\)" "$DOAR" tables --load "$TMP/x"
"$DOAR" tables --dfly 1,2,1,3 --out "$TMP/own" >/dev/null || bad "tables --dfly --out"
expect_exit 0 "$DOAR" tables --load "$TMP/own"

echo "== 8. tables --load checks the routes, not only the encoding"
"$DOAR" tables small --out "$TMP/small" >/dev/null || bad "tables small --out"
expect_exit 0 "$DOAR" tables --load "$TMP/small" small
tail -n 1 "$TMP/out" | grep -q " verified=routes$" && ok || bad "load: $(tail -n 1 "$TMP/out")"
# zone N entry 0 of router (0,0) port 0 sends node 0's packets to terminal port 1: validly encoded
cp -r "$TMP/small" "$TMP/wrong"
sed -i '3s/^0000000000000001$/0000000000000002/' "$TMP/wrong/g0000b00/p00.a.hex"
cmp -s "$TMP/small/g0000b00/p00.a.hex" "$TMP/wrong/g0000b00/p00.a.hex" && bad "the wrong route was not planted" || ok
expect_exit 1 "$DOAR" tables --load "$TMP/wrong" small
tail -n 1 "$TMP/out" | grep -q "^tables: FAIL dir=.* routes: misdelivery: router (0,0) port 0" && ok || bad "wrong route: $(tail -n 1 "$TMP/out")"
# a sampled set is compared with the generated tables word for word
"$DOAR" tables small --router 0,0 --out "$TMP/one" >/dev/null || bad "tables --router --out"
expect_exit 0 "$DOAR" tables --load "$TMP/one"
tail -n 1 "$TMP/out" | grep -q " verified=generated$" && ok || bad "partial load: $(tail -n 1 "$TMP/out")"
sed -i '3s/^0000000000000001$/0000000000000002/' "$TMP/one/g0000b00/p00.a.hex"
expect_exit 1 "$DOAR" tables --load "$TMP/one"
tail -n 1 "$TMP/out" | grep -q "router 0,0 port 0 table A row 0 differs from the generated tables" && ok || bad "partial wrong: $(tail -n 1 "$TMP/out")"

echo "== 9. messages stay one line; option values are not options; bare doar"
expect_error "traffic 'ur\\\\x0ax': expected ur" "$DOAR" sim tiny --rate 0.1 --traffic $'ur\nx'
expect_error "unknown configuration 'a\\\\x0ab'" "$DOAR" topo $'a\nb'
expect_error "--resume needs a value \(got the option '--quiet'\)" "$DOAR" sweep small --resume --quiet
expect_error "--csv needs a value \(got the option '--step'\)" "$DOAR" sweep small --csv --step 0.1
expect_error "--out needs a value" "$DOAR" tables small --out --sample 2
expect_error "^doar: missing command \(commands: .*see doar --help\)$" "$DOAR"
expect_error "unknown command 'x\\\\x1b\[31m'" "$DOAR" $'x\e[31m'

echo "== 10. FPGA scripts: fpga_bound.sh without a patch (nothing is built), nextpnr_summary.sh, ECP5_LUTS"
expect_error "^usage: scripts/fpga_bound.sh NAME, NAME one of: .*no_cross_plane_check" scripts/fpga_bound.sh
expect_error "^usage: scripts/fpga_bound.sh NAME" scripts/fpga_bound.sh ../x
expect_error "^usage: scripts/fpga_bound.sh NAME" scripts/fpga_bound.sh nope
expect_error "^usage: scripts/fpga_bound.sh NAME" scripts/fpga_bound.sh a b
# nextpnr_summary.sh: the last timing pass of a log in nextpnr's format (figures chosen here: the
# early pass and the cross-domain path must not be read); a log with no timing report is refused
{ printf 'Info: \t          TRELLIS_FF:    1000/  83640     1%%\n'
  printf 'Info: \t        TRELLIS_COMB:   20000/  83640    23%%\n'
  echo "Info: Max frequency for clock 'clk': 10.00 MHz (FAIL at 50.00 MHz)"
  echo "Info: Critical path report for clock 'clk' (posedge -> posedge):"
  echo "Info: 30.00 ns logic, 70.00 ns routing"
  echo "Warning: Max frequency for clock 'clk': 25.00 MHz (FAIL at 50.00 MHz)"
  echo "Info: Critical path report for clock 'clk' (posedge -> posedge):"
  echo "Info: 12.34 ns logic, 27.66 ns routing"
  echo "Info: Critical path report for cross-domain path 'posedge clk' -> '<async>':"
  echo "Info: 1.00 ns logic, 2.00 ns routing"; } >"$TMP/pnr.log"
expect_exit 0 scripts/nextpnr_summary.sh "$TMP/pnr.log"
[ "$(cat "$TMP/out")" = "luts=20000 ffs=1000 fmax_mhz=25.00 critical_ns=40.0 logic_ns=12.3 routing_ns=27.7" ] && ok ||
  bad "nextpnr_summary: $(cat "$TMP/out")"
head -n 3 "$TMP/pnr.log" >"$TMP/pnr_cut.log"
expect_error "^nextpnr_summary: .* has no timing report" scripts/nextpnr_summary.sh "$TMP/pnr_cut.log"
expect_error "^nextpnr_summary: no log" scripts/nextpnr_summary.sh "$TMP/none.log"
# the FPGA flows' ABC LUT sizes: refused while make reads its files, before anything is built
expect_error "ECP5_LUTS must be 4 or 4:5 \.\. 4:8.*got '4:9'" make -s --no-print-directory fpga-ecp5 ECP5_LUTS=4:9
expect_error "ECP5_LUTS must be .*got 'x'" make -s --no-print-directory fpga-unit UNIT=oq ECP5_LUTS=x
expect_error "MAX_LEN must be 1 \.\. 8.*got '9'" make -s --no-print-directory lockstep-router MAX_LEN=9
expect_error "SPEEDUP must be 1, 2 or 4.*got '3'" make -s --no-print-directory lockstep-router SPEEDUP=3
expect_error "COVERAGE must be required or optional.*got 'some'" make -s --no-print-directory lockstep-router COVERAGE=some

echo "bad_input_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
