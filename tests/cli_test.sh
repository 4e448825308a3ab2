#!/usr/bin/env bash
# End-to-end tests of build/doar: help, bad input (exit 2, one line), the checker on every
# named configuration, table images written, loaded, corrupted and checked.
# Usage: tests/cli_test.sh SANITIZED_DOAR FAST_DOAR
set -u
DOAR=${1:?sanitized doar binary}
FAST=${2:-$1}
TMP=$(mktemp -d /tmp/doar_cli_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/cli_lib.sh"
last_line_matches() {
  local pattern=$1
  if tail -n 1 "$TMP/out" | grep -qE -- "$pattern"; then ok; else bad "last line '$(tail -n 1 "$TMP/out")' !~ /$pattern/"; fi
}

echo "== help"
expect_exit 0 "$DOAR" --help
for cmd in topo tables check configs; do expect_exit 0 "$DOAR" $cmd --help; grep -q "usage: doar $cmd" "$TMP/out" && ok || bad "$cmd help"; done
expect_exit 2 "$DOAR"

echo "== bad input"
expect_error "unknown command" "$DOAR" frobnicate
expect_error "unknown option '--frob'" "$DOAR" check small --frob
expect_error "unknown configuration 'huge'" "$DOAR" topo huge
expect_error "radix k = .* = 69 exceeds 64" "$DOAR" topo --dfly 40,20,10,9
expect_error "g = 10 exceeds a\*h\+1 = 9" "$DOAR" check --dfly 2,4,2,10
expect_error "expected four positive integers" "$DOAR" topo --dfly 2,4,2
expect_error "one configuration" "$DOAR" topo small mid
expect_error "missing CONFIG" "$DOAR" check
expect_error "--seed 'x1'" "$DOAR" topo small --seed x1
expect_error "needs a value" "$DOAR" topo small --seed
expect_error "no such router" "$DOAR" topo small --router 9,0
expect_error "--port '7': expected 0..6" "$DOAR" tables small --router 0,0 --port 7 --dump
expect_error "--nm-slots '9'" "$DOAR" check small --nm-slots 9
expect_error "h=60: table A global entry" "$DOAR" tables --dfly 1,2,60,3 --out "$TMP/x"
expect_error "--vc-rule 'maybe'" "$DOAR" check small --vc-rule maybe

echo "== topo"
expect_exit 0 "$DOAR" topo small --router 3,1 --seed 7
last_line_matches '^topo: config=small p=2 a=4 h=2 g=9 k=7 routers=36 nodes=72 local_links=54 global_links=36$'
# Group 3's own-id group-level port 3 (router 1, port 6) leads to group a*h = 8 (brief, "Topology").
grep -q "port  6 global   group-level port 3 -> group 8, router (8,1) port 6" "$TMP/out" && ok || bad "router (3,1) wiring"
grep -q "port  5 global   group-level port 2 -> group 2, router (2,1) port 6" "$TMP/out" && ok || bad "router (3,1) wiring"
expect_exit 0 "$DOAR" topo fig8 --router 0,0
grep -q "group-level port 0: unwired" "$TMP/out" && ok || bad "fig8 own-id port unwired"
expect_exit 0 "$DOAR" topo tianhe
last_line_matches 'k=63 routers=16416 nodes=262656'

echo "== configs: the named configurations, and the Makefile's build/configs.mk"
expect_exit 0 "$DOAR" configs --make
cp "$TMP/out" "$TMP/configs.mk"
names=""
# each DFLY_NAME := p a h g is what doar topo NAME says
while read -r var op p a h g; do
  name=${var#DFLY_}; names="$names $name"
  [ "$op" = ":=" ] && ok || bad "configs --make: '$var $op' is not an assignment"
  expect_exit 0 "$DOAR" topo "$name"
  last_line_matches "^topo: config=$name p=$p a=$a h=$h g=$g "
done < <(grep '^DFLY_' "$TMP/configs.mk")
configs_line=$(grep '^CONFIGS := ' "$TMP/configs.mk")
[ "$configs_line" = "CONFIGS := ${names# }" ] && ok || bad "configs --make: '$configs_line' is not the DFLY_ names (${names# })"
[ "$(grep -c '^DFLY_' "$TMP/configs.mk")" -eq 6 ] && ok || bad "configs --make: not six configurations"
expect_exit 0 "$DOAR" configs
last_line_matches "^configs: n=6 names=${names# }\$"
expect_exit 0 "$DOAR" configs --help
grep -q "usage: doar configs" "$TMP/out" && ok || bad "configs help"
expect_error "configs: takes no CONFIG \('small' given" "$DOAR" configs small
expect_error "configs: unknown option '--dfly'" "$DOAR" configs --make --dfly 1,2,1,3
expect_error "configs: unknown option '--frob'" "$DOAR" configs --frob

echo "== check on the named configurations"
for cfg in tiny small fig8 mid; do
  expect_exit 0 "$DOAR" check $cfg --quiet
  last_line_matches '^check: ok pairs=[0-9]+ routes=[0-9]+ max_hops=[0-7] max_vc=[0-3] cdg=acyclic$'
  echo "   $cfg: $(tail -n 1 "$TMP/out")"
done
expect_exit 0 "$FAST" check paper
# 7 hops: LG-LL-GLL, the destination-group refraction after LG-LL-G (a fault fallback, issue 20)
last_line_matches '^check: ok pairs=4604256 routes=[0-9]+ max_hops=7 max_vc=3 cdg=acyclic$'
echo "   paper: $(tail -n 1 "$TMP/out") ($(grep -o 'time=[0-9.]*s' "$TMP/out"))"
grep -q "LG-LL-GL " "$TMP/out" && grep -q "LG-LL-GLL" "$TMP/out" && ok || bad "paper: LG-LL-GL or LG-LL-GLL never seen"
expect_exit 0 "$FAST" check tianhe --dests 1 --quiet
last_line_matches 'cdg=acyclic sampled_dest_routers=1/16416$'
expect_exit 0 "$DOAR" check --dfly 1,10,2,21 --quiet
last_line_matches '^check: ok '
expect_exit 0 "$DOAR" check --dfly 3,6,3,10 --nm-slots 3 --quiet
last_line_matches '^check: ok '

echo "== the checker can fail"
expect_exit 1 "$DOAR" check small --vc-rule none --quiet
last_line_matches '^check: FAIL cdg cycle: cycle '

echo "== table images"
D="$TMP/small"
expect_exit 0 "$DOAR" tables small --out "$D"
last_line_matches '^tables: wrote dir=.* config=small routers=36 files=792 '
[ -f "$D/manifest.txt" ] && [ -f "$D/g0008b03/p06.c.hex" ] && ok || bad "image files missing"
head -n 1 "$D/g0002b01/p03.a.hex" | grep -q '^// doar table=A router=2,1 port=3 class=local entries=15 bits=64$' && ok || bad "header"
expect_exit 0 "$DOAR" tables --load "$D"
last_line_matches '^tables: ok loaded dir=.* config=small routers=36/36 ports=252 distinct_port_tables=108 verified=routes$'
expect_exit 0 "$DOAR" check small --tables "$D" --quiet
gen_routes=$("$DOAR" check small --quiet | tail -n 1)
[ "$(tail -n 1 "$TMP/out")" = "$gen_routes" ] && ok || bad "loaded tables check differently"
expect_exit 0 "$DOAR" tables small --router 2,1 --port 3 --dump
# Router (2,1) owns group-level ports 2 (its own id: to group 8, router port 5) and 3 (to group 3, port 6).
grep -q "A G\[3\] LP=6g" "$TMP/out" && grep -q "A G\[8\] LP=5g" "$TMP/out" && ok || bad "dump of direct G-zone entries"
grep -q "B G\[0\] LP=2l 5g 6g" "$TMP/out" && ok || bad "dump of table B (exit router 0 or own global ports)"
expect_exit 0 "$DOAR" tables small --router 2,1 --port 0 --dump
grep -q "lpc0=bid" "$TMP/out" && grep -q "lpc1..8=" "$TMP/out" && ok || bad "dump of global configuration"
expect_exit 0 "$DOAR" tables tianhe --router 100,5 --out "$TMP/th"
last_line_matches 'routers=1 files=190'
expect_exit 0 "$DOAR" tables --load "$TMP/th"
last_line_matches 'routers=1/16416'
expect_error "cover 1 of 16416 routers" "$DOAR" check --tables "$TMP/th"

echo "== images with problems: one line naming the file, exit 2"
fresh() { rm -rf "$D"; "$DOAR" tables small --out "$D" >/dev/null; }
F="$D/g0003b02/p04.a.hex"
fresh; sed -i '$d' "$F"
expect_error "p04.a.hex: truncated: 14 of 15 entries" "$DOAR" tables --load "$D"
fresh; sed -i '5s/.*/00000000000zz001/' "$F"
expect_error "p04.a.hex:[0-9]+: not a hex word" "$DOAR" tables --load "$D"
fresh; sed -i '5s/.*/0001/' "$F"
expect_error "p04.a.hex:[0-9]+: expected 16 hex digits, found 4" "$DOAR" tables --load "$D"
fresh; sed -i '3s/.*/0000000000000080/' "$F"
expect_error "p04.a.hex:3: .*names port 7 but k=7" "$DOAR" tables --load "$D"
fresh; cp "$D/g0003b02/p03.a.hex" "$F"
expect_error "p04.a.hex: header mismatch" "$DOAR" tables --load "$D"
fresh; echo 0000000000000000 >> "$F"
expect_error "p04.a.hex:[0-9]+: more than 15 entries" "$DOAR" tables --load "$D"
fresh; rm "$D/g0003b02/p04.c.hex"
expect_error "p04.c.hex: cannot open" "$DOAR" tables --load "$D"
fresh; sed -i '2s/.*/000000008100/' "$D/g0003b02/p00.c.hex"
expect_error "p00.c.hex:2: table C row 0 item 1: port 1 is not an intra-group port" "$DOAR" tables --load "$D"
fresh; G="$D/g0003b02/p00.a.hex"; row=$(grep -n '^// zone G' "$G" | cut -d: -f1); sed -i "$((row+1))s/.*/00000000000000c1/" "$G"
expect_error "p00.a.hex:$((row+1)): table A zone G\[0\]: bad lpc0 0xc1" "$DOAR" tables --load "$D"
fresh; sed -i '2s/.*/7f/' "$D/g0003b02/router.hex"
expect_error "router.hex:2: wired-port mask 7f does not match" "$DOAR" tables --load "$D"
fresh; sed -i '$d' "$D/manifest.txt"
expect_error "manifest.txt: truncated: routers=36 but 35 router lines" "$DOAR" tables --load "$D"
fresh; sed -i 's/^nm_slots=8/colour=blue/' "$D/manifest.txt"
expect_error "manifest.txt:[0-9]+: unknown key 'colour'" "$DOAR" tables --load "$D"
fresh; sed -i 's/^zones=2,4,9/zones=2,4,8/' "$D/manifest.txt"
expect_error "manifest.txt: zones=2,4,8 but dfly gives 2,4,9" "$DOAR" tables --load "$D"
fresh; echo "nm_slots=4" >> "$D/manifest.txt"
expect_error "manifest.txt:[0-9]+: header key 'nm_slots' after routers=" "$DOAR" tables --load "$D"
fresh; echo "dfly=2,4,2,8" >> "$D/manifest.txt"
expect_error "header key 'dfly' after routers=" "$DOAR" tables --load "$D"
expect_error "exceed a million files" "$DOAR" tables tianhe --out "$TMP/th_all"
fresh
expect_error "images are for dfly\(2,4,2,9\), not mid" "$DOAR" tables --load "$D" mid
expect_error "manifest.txt: cannot open" "$DOAR" tables --load "$TMP/nowhere"

echo "== a valid but wrong image is caught by the checker (and by tables --load, issue 24)"
fresh   # router (5,0), global input: zone B[2] emptied in table A and in table B (its refraction)
for F in "$D/g0005b00/p05.a.hex" "$D/g0005b00/p05.b.hex"; do
  row=$(grep -n '^// zone B' "$F" | cut -d: -f1); sed -i "$((row+3))s/.*/0000000000000000/" "$F"
done
expect_exit 1 "$DOAR" tables --load "$D"
last_line_matches '^tables: FAIL dir=.* config=small routes: dead end: router \(5,0\) port 5: no route option toward router \(5,2\)'
expect_exit 1 "$DOAR" check small --tables "$D" --quiet
last_line_matches '^check: FAIL dead end: router \(5,0\) port 5: no route option toward router \(5,2\)'

echo "cli_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
