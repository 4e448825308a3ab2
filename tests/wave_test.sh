#!/usr/bin/env bash
# make wave SCENARIO=..: each named scenario writes a readable FST whose signals include every
# one of its .gtkw save file's, and shows what it is named for (bulletin grants; non-minimal
# decisions after CongG rises; every kind of fault-handling command).
set -u
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
VCD=$(mktemp /tmp/doar_wave_XXXXXX)
trap 'rm -f "$VCD"' EXIT

for s in multicast-contention nonminimal fault-diagnosis; do
  line=$(make --no-print-directory wave SCENARIO=$s 2>&1 | grep '^wave:')
  echo "   $line"
  echo "$line" | grep -q "mismatches=0" && ok || bad "$s: $line"
  fst2vcd "build/waves/$s.fst" > "$VCD" 2>/dev/null && [ -s "$VCD" ] && ok || bad "$s: fst2vcd cannot read it"
  vars=$(grep '[$]var' "$VCD" | awk '{print $5}' | sort -u)
  missing=0
  while read -r sig; do
    echo "$vars" | grep -qx "$sig" || { missing=$((missing+1)); echo "   not in FST: $sig"; }
  done < <(grep -E '^TOP\.(router|fault)\.' "build/waves/$s.gtkw" | sed 's/\[[0-9]*:0\]$//; s/.*\.//')
  [ $missing -eq 0 ] && ok || bad "$s: $missing signals of the save file missing"
  groups=$(grep -c '^@800200' "build/waves/$s.gtkw")
  [ "$groups" -ge 3 ] && ok || bad "$s: only $groups signal groups"
done

# What the scenarios are for, read back from the waveforms.
python3 - "$VCD" <<'PY' && ok || bad "scenario content"
import subprocess, sys, collections
def values(fst, leaf_suffix):
    vcd = subprocess.run(["fst2vcd", fst], capture_output=True, text=True).stdout.split("\n")
    scope, ids, seen = [], {}, collections.Counter()
    for l in vcd:
        if l.startswith("$scope"): scope.append(l.split()[2])
        elif l.startswith("$upscope"): scope.pop()
        elif l.startswith("$var"):
            p = l.split()
            if ".".join(scope + [p[4]]).endswith(leaf_suffix): ids[p[3]] = 1
    for l in vcd:
        if l[:1] == "b":
            v, i = l[1:].split()
            if i in ids: seen[int(v, 2)] += 1
        elif l[:1] in "01" and l[1:] in ids: seen[int(l[0])] += 1
    return seen
cls = values("build/waves/nonminimal.fst", "g_in[0].route.out_class")
mc = values("build/waves/multicast-contention.fst", "router.mc_valid")
cmd = values("build/waves/fault-diagnosis.fst", "fault.cmd")
ok = any(cls[c] for c in (2, 3, 4)) and cls[1] > 0 and mc[1] > 0 and all(cmd[c] for c in (1, 2, 3, 4))
print("   nonminimal classes seen:", dict(cls), " bulletin grants toggled:", dict(mc),
      " fault commands seen (1 Travel_FD, 2 Match_FD, 3 Travel_FR, 4 Match_FR):", dict(cmd))
sys.exit(0 if ok else 1)
PY

echo "wave_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
