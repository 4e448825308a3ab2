#!/usr/bin/env python3
"""mutate.py — the lock-steps' mutation score (issue 21).

The mutants live in tests/mutants/mutants.txt, outside the product sources: each names an RTL file
(or a C model file checked by the fault campaigns' oracle, `doar faults`, by the network
simulator's blocks-against-cycles check, `test_network block`, or by its MPI split, `doar-mpi`),
one or more exact texts to find there (each must occur exactly once, so a mutant cannot rot
silently when the RTL changes) and their replacements, and the lock-step that must kill it.

  mutate.py [--list FILE] COMMAND ...             FILE instead of tests/mutants/mutants.txt
  mutate.py list                                  the mutants, one a line
  mutate.py apply NAME DIR                        copy rtl/ to DIR with mutant NAME applied
  mutate.py check                                 every mutant still applies (no build)
  mutate.py run [--only A,B] [--sample N [--seed S]] [--keep] [--timeout SECONDS]

A router mutant may name the internal speed-up its lock-step is built with ('speedup 1|2|4', default
2): the sum form of the credit check across planes is live only at S = 1 and S = 4. It may name
the longest packet ('maxlen 1..8', default 4, the router's MAX_LEN; the input VCs hold 8 flits): a
bug that needs a packet longer than the check's look-ahead is live only above 4. It may name
'bulletin 0': its lock-step is built without the Global Resource Bulletin (BULLETIN=0), where
multicasts acquire their ports one grant at a time; random traffic then ends in the deadlock the
bulletin exists to prevent (the lock-step stops at it with a conservation failure, the RTL and the
C model stuck alike), so such a mutant is killed by a mismatch alone, before that point.

A mutant marked 'equivalent REASON' (no lock-step can see it; docs/verification.md says why) is
checked to apply but not run or counted, unless named with --only.

`run` builds each mutant's lock-step from its copy (make ... MUTANT=NAME), runs it and classifies it:
killed (the lock-step reported a mismatch or a conservation failure) or survived. Before the first
mutant of a given lock-step it runs the unmutated RTL through the same lock-step (same
configuration, seed, cycles): that one must report no mismatch, or the run stops. The last line is
  mutate: killed=K total=N survived=NAMES      (NAMES: comma-separated, or "none")
Exit status: 0 every mutant killed, 1 a mutant survived or did not build, 2 bad input.
--sample N takes N mutants starting at (seed * N) mod total of the list taken in turn from each
lock-step (rcu, fault, router, rcu, ...), wrapping, so consecutive seeds walk the whole list; the seed defaults to the day number (UTC days since
1970-01-01), so `make test` exercises every mutant over successive days, and --seed reproduces one.
"""
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "tests", "mutants", "mutants.txt")
BUILD = "build"
HARNESSES = {"rcu", "fault", "router", "oracle", "block", "mpi"}
C_HARNESSES = {"oracle", "block", "mpi"}   # checks of the C model (a copy of csim/), not lock-steps
CONFIGS = {"tiny", "small", "fig8", "mid", "paper", "tianhe"}
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class BadInput(Exception):
    pass


def die(msg, code=2):
    print(f"mutate: {msg}", file=sys.stderr)
    sys.exit(code)


def parse(path=None):
    """Mutant records: name, file, harness, config, cycles, seed, args, edits [(find, replace)], why."""
    path = path or LIST
    mutants, cur = [], None
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}")
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        where = f"{os.path.relpath(path, ROOT)}:{no}"
        if not raw[0].isspace():
            key, _, val = line.partition(" ")
            if key != "mutant" or not NAME_RE.match(val.strip()):
                raise BadInput(f"{where}: expected 'mutant NAME' (lower case, digits, '-')")
            cur = {"name": val.strip(), "edits": [], "args": [], "seed": 1, "speedup": 2, "maxlen": 4, "bulletin": 1, "where": where}
            if any(m["name"] == cur["name"] for m in mutants):
                raise BadInput(f"{where}: mutant '{cur['name']}' defined twice")
            mutants.append(cur)
            continue
        if cur is None:
            raise BadInput(f"{where}: field before the first 'mutant' line")
        body = line.strip()
        key, _, val = body.partition(" ")
        val = val.strip()
        if key == "file":
            cur["file"] = val
        elif key == "lockstep":
            f = val.split()
            if len(f) < 3 or f[0] not in HARNESSES or f[1] not in CONFIGS or not f[2].isdigit():
                raise BadInput(f"{where}: expected 'lockstep rcu|fault|router|oracle|block|mpi CONFIG CYCLES [SEED] [-- ARGS]'")
            cur["harness"], cur["config"], cur["cycles"] = f[0], f[1], int(f[2])
            rest = f[3:]
            if rest and rest[0].isdigit():
                cur["seed"] = int(rest[0])
                rest = rest[1:]
            if rest:
                if rest[0] != "--":
                    raise BadInput(f"{where}: harness arguments follow '--'")
                cur["args"] = rest[1:]
        elif key == "speedup":
            if val not in ("1", "2", "4"):
                raise BadInput(f"{where}: expected 'speedup 1|2|4' (the router's crossbar planes)")
            cur["speedup"] = int(val)
        elif key == "maxlen":
            if not (val.isdigit() and 1 <= int(val) <= 8):
                raise BadInput(f"{where}: expected 'maxlen 1..8' (the router's longest packet, flits)")
            cur["maxlen"] = int(val)
        elif key == "bulletin":
            if val not in ("0", "1"):
                raise BadInput(f"{where}: expected 'bulletin 0|1' (the router built without or with the bulletin)")
            cur["bulletin"] = int(val)
        elif key == "find":
            cur["edits"].append([val, None])
        elif key == "replace":
            if not cur["edits"] or cur["edits"][-1][1] is not None:
                raise BadInput(f"{where}: 'replace' without its 'find'")
            cur["edits"][-1][1] = val
        elif key == "why":
            cur["why"] = (cur.get("why", "") + " " + val).strip()
        elif key == "equivalent":
            cur["equivalent"] = (cur.get("equivalent", "") + " " + val).strip()
        else:
            raise BadInput(f"{where}: unknown field '{key}'")
    for m in mutants:
        for need in ("file", "harness", "why"):
            if need not in m:
                raise BadInput(f"{m['where']}: mutant {m['name']} has no '{need if need != 'harness' else 'lockstep'}' line")
        if not m["edits"] or any(r is None or not f for f, r in m["edits"]):
            raise BadInput(f"{m['where']}: mutant {m['name']} needs find/replace pairs")
        if not (m["file"].startswith("rtl/") or m["file"].startswith("csim/")) or m["file"].count("/") != 1:
            raise BadInput(f"{m['where']}: mutant {m['name']}: only files of rtl/ and csim/ are mutated")
        if m["file"].startswith("csim/") != (m["harness"] in C_HARNESSES):
            raise BadInput(f"{m['where']}: mutant {m['name']}: a csim/ mutant runs on 'oracle', 'block' or 'mpi', "
                           "an rtl/ one on a lock-step")
        if (m["speedup"] != 2 or m["maxlen"] != 4 or m["bulletin"] != 1) and m["harness"] != "router":
            raise BadInput(f"{m['where']}: mutant {m['name']}: 'speedup', 'maxlen' and 'bulletin' are a router lock-step's "
                           "parameters")
        if m["harness"] == "mpi" and m["cycles"] < 2:
            raise BadInput(f"{m['where']}: mutant {m['name']}: 'mpi' needs at least 2 ranks")
    return mutants


def mutated_text(m):
    """The mutated file's text; BadInput when a find text does not occur exactly once."""
    src = os.path.join(ROOT, m["file"])
    try:
        text = open(src, encoding="utf-8").read()
    except OSError as e:
        raise BadInput(f"mutant {m['name']}: cannot read {m['file']}: {e.strerror}")
    for find, repl in m["edits"]:
        n = text.count(find)
        if n != 1:
            raise BadInput(f"mutant {m['name']}: '{find}' occurs {n} times in {m['file']} (must be exactly once: "
                           f"update tests/mutants/mutants.txt to the RTL)")
        text = text.replace(find, repl)
    return text


def apply(m, out_dir):
    text = mutated_text(m)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    shutil.copytree(os.path.join(ROOT, os.path.dirname(m["file"])), out_dir)
    with open(os.path.join(out_dir, os.path.basename(m["file"])), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out_dir, ".applied"), "w", encoding="utf-8") as f:
        f.write(m["name"] + "\n")


def harness_bin(h, cfg, mutant, speedup=2, bulletin=1, maxlen=4):
    if h == "oracle":   # the C model's fault campaigns against the oracle: build/doar from the copy
        return f"{BUILD}/mutants/{mutant}/doar" if mutant else f"{BUILD}/doar"
    if h == "block":    # tests/test_network.c built from the copy (unmutated: build/net/)
        return f"{BUILD}/mutants/{mutant}/test_network" if mutant else f"{BUILD}/net/test_network"
    if h == "mpi":      # doar-mpi built from the copy
        return f"{BUILD}/mutants/{mutant}/doar-mpi" if mutant else f"{BUILD}/doar-mpi"
    # the Makefile's ROUTER_DIR: an unmutated router without the bulletin, at another speed-up or
    # another longest packet is built apart (_nobulletin, _sS, _lN)
    d = f"{BUILD}/mutants/{mutant}/{h}_{cfg}" if mutant else \
        f"{BUILD}/{h}/{cfg}" + ("_nobulletin" if bulletin == 0 else "") + (f"_s{speedup}" if speedup != 2 else "") + \
        (f"_l{maxlen}" if maxlen != 4 else "")
    return f"{d}/{h}_lockstep"


def make(*args):
    p = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def run_lockstep(m, mutant, wave_dir, timeout):
    """(verdict, detail): 'killed' | 'survived' | 'error'."""
    exe = os.path.join(ROOT, harness_bin(m["harness"], m["config"], mutant, m["speedup"]))
    if m["harness"] in ("block", "mpi"):
        return run_network_check(m, exe, timeout)
    if m["harness"] == "oracle":   # CYCLES: campaigns
        cmd = [exe, "faults", m["config"], "--campaigns", str(m["cycles"]), "--seed", str(m["seed"]), "--quiet", *m["args"]]
    else:
        cmd = [exe, "--config", m["config"], "--tables", f"{BUILD}/tables/{m['config']}", "--seed", str(m["seed"]),
               "--cycles", str(m["cycles"]), "--quiet", "--wave-dir", wave_dir, *m["args"]]
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "error", f"timed out after {timeout} s"
    out = p.stdout
    if m["harness"] == "oracle":
        last = (out.strip().splitlines() or ["(no output)"])[-1]
        if p.returncode == 1 and re.match(r"faults: FAIL .*oracle_mismatches=[1-9]", last):
            return "killed", "the oracle disagrees: " + last[:150]
        if p.returncode == 0:
            return "survived", last[:200]
        return "error", f"doar faults exited {p.returncode}: {last[:150]}"
    # without the bulletin the run ends in the multicast deadlock (a conservation failure of the
    # RTL and the model alike): only a mismatch tells the mutant apart
    kills = r"(MISMATCH at cycle \d+)" if m["bulletin"] == 0 else r"(MISMATCH at cycle \d+|CONSERVATION FAILED in epoch \d+)"
    hit = re.search(kills, out)
    if p.returncode == 2:
        return "error", "lock-step refused its input: " + (out.strip().splitlines() or ["?"])[-1][:200]
    if hit and p.returncode != 0:
        return "killed", hit.group(1).lower()
    if p.returncode < 0 or p.returncode > 3:
        return "error", f"lock-step exited {p.returncode}"
    last = (out.strip().splitlines() or ["(no output)"])[-1]
    return "survived", last[:200]


def strip_wall(text):
    """doar sim's output without its wall-clock fields (as tests/mpi_test.sh strips them)."""
    text = re.sub(r" (time|wall)=[0-9.]+s", "", text)
    text = re.sub(r" speed=[0-9]+ router-cycles/s", "", text)
    return "\n".join(l for l in text.splitlines() if not l.startswith("sim: mpi "))


def run_network_check(m, exe, timeout):
    """The network simulator's checks: 'block' (test_network block: the blocked runs equal the
    cycle-by-cycle ones) and 'mpi' (a split run equals one process)."""
    try:
        if m["harness"] == "block":
            p = subprocess.run([exe, "block"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
            line = next((l.strip() for l in p.stdout.splitlines() if "blocks against cycle by cycle" in l), "")
            same = re.search(r": ([0-9]+) of ([0-9]+) runs", line)
            if p.returncode == 0 and same and same.group(1) == same.group(2):
                return "survived", line[:200]
            if p.returncode == 1 and same and same.group(1) != same.group(2):
                return "killed", "blocked runs differ: " + line[:150]
            return "error", f"test_network block exited {p.returncode}: {line[:150] or p.stdout[-150:]}"
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        args = ["sim", m["config"], "--rate", "0.3", "--warmup", "1000", "--sample", "1000", "--seed", str(m["seed"]),
                "--quiet", *m["args"]]
        def sim(cmd):
            p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=timeout, env=env)
            return p.returncode, strip_wall(p.stdout)
        rc0, ref = sim([os.path.join(ROOT, BUILD, "doar"), *args])
        rc1, one = sim(["mpirun", "-np", "1", exe, *args])
        rcr, split = sim(["mpirun", "-np", str(m["cycles"]), exe, *args])
    except subprocess.TimeoutExpired:
        return "error", f"timed out after {timeout} s"
    except OSError as e:
        return "error", f"cannot run: {e.strerror}"
    if rc0 != 0 or rc1 != rc0 or one != ref:
        return "error", f"doar-mpi at R=1 does not reproduce build/doar (exit {rc1}, build/doar {rc0})"
    if rcr == rc0 and split == ref:
        return "survived", f"R={m['cycles']} identical to one process"
    return "killed", f"R={m['cycles']} differs from one process (R=1 agrees)"


def interleaved(mutants):
    """The mutants taken in turn from each lock-step (rcu, fault, router, rcu, ...), each in file
    order: a window of a sample then holds about as many of each, so the sample's cost (a router
    build is several times an rcu or fault one) stays about the same from day to day."""
    groups = {}
    for m in mutants:
        groups.setdefault(m["harness"], []).append(m)
    out, i = [], 0
    while len(out) < len(mutants):
        for g in groups.values():
            if i < len(g):
                out.append(g[i])
        i += 1
    return out


def cmd_run(argv):
    only, sample, seed, keep, timeout = None, None, None, False, 600
    i = 0
    while i < len(argv):
        a = argv[i]
        v = argv[i + 1] if i + 1 < len(argv) else None
        if a == "--keep":
            keep = True
            i += 1
            continue
        if a not in ("--only", "--sample", "--seed", "--timeout") or v is None:
            raise BadInput(f"unknown or incomplete option '{a}' (usage: mutate.py run [--only A,B] [--sample N [--seed S]] [--keep] [--timeout S])")
        if a == "--only":
            only = [x for x in v.split(",") if x]
            if not only:
                raise BadInput("--only: expected mutant names, comma-separated")
        else:
            if not re.fullmatch(r"[0-9]{1,12}", v):
                raise BadInput(f"{a} '{v}': expected a non-negative integer")
            if a == "--sample":
                sample = int(v)
                if sample < 1:
                    raise BadInput("--sample: expected at least 1")
            elif a == "--seed":
                seed = int(v)
            else:
                timeout = int(v)
                if timeout < 1:
                    raise BadInput("--timeout: expected at least 1 second")
        i += 2
    if seed is not None and sample is None:
        raise BadInput("--seed picks a sample: give --sample N too")
    if only is not None and sample is not None:
        raise BadInput("--only and --sample exclude each other")
    mutants = parse()
    by_name = {m["name"]: m for m in mutants}
    if only is not None:
        unknown = [n for n in only if n not in by_name]
        if unknown:
            raise BadInput(f"unknown mutant '{unknown[0]}' (mutate.py list names them)")
        chosen = [by_name[n] for n in only]
    elif sample is not None:
        # the network simulator's mutants are not sampled: `make test` runs both every time
        # (make plant-block, make mpi-tests), and the MPI one needs Open MPI
        mutants = [m for m in mutants if "equivalent" not in m and m["harness"] not in ("block", "mpi")]
        if seed is None:
            seed = int(time.time() // 86400)
        n = min(sample, len(mutants))
        order = interleaved(mutants)
        start = (seed * n) % len(order)
        chosen = [order[(start + j) % len(order)] for j in range(n)]
        print(f"mutate: sample of {n} of {len(mutants)} mutants, seed {seed} "
              f"(reproduce: make mutate MUTATE_SAMPLE={sample} MUTATE_SEED={seed})", flush=True)
    else:
        equivalent = [m["name"] for m in mutants if "equivalent" in m]
        if equivalent:
            print(f"mutate: equivalent, not run (docs/verification.md; --only runs one): {','.join(equivalent)}")
        chosen = [m for m in mutants if "equivalent" not in m]
    for m in chosen:               # every chosen mutant must still apply before anything is built
        mutated_text(m)

    killed, survived, errors = [], [], []
    baselines = {}
    t_all = time.time()
    for k, m in enumerate(chosen, 1):
        t0 = time.time()
        key = (m["harness"], m["config"], m["cycles"], m["seed"], tuple(m["args"]), m["speedup"], m["bulletin"],
               m["maxlen"])
        sp = [f"SPEEDUP={m['speedup']}", f"BULLETIN={m['bulletin']}", f"MAX_LEN={m['maxlen']}"] \
            if m["harness"] == "router" else []
        unit = {"oracle": "campaigns", "block": "(unused)", "mpi": "ranks"}.get(m["harness"], "cycles")
        where = f"{m['harness']} {m['config']} {m['cycles']} {unit} seed {m['seed']}" + \
            (f" S={m['speedup']}" if m["speedup"] != 2 else "") + (f" max_len={m['maxlen']}" if m["maxlen"] != 4 else "") + \
            (" no bulletin" if m["bulletin"] == 0 else "")
        if key not in baselines:
            rc, out = make(f"tables-verify", f"CONFIG={m['config']}")
            if rc == 0:
                rc, out = make(harness_bin(m["harness"], m["config"], None, m["speedup"], m["bulletin"], m["maxlen"]), f"CONFIG={m['config']}", *sp)
            if rc != 0:
                die(f"the unmutated {m['harness']} lock-step of {m['config']} does not build:\n{out[-2000:]}", 1)
            verdict, detail = run_lockstep(m, None, f"{BUILD}/mutants/_baseline_waves", timeout)
            if verdict != "survived":
                die(f"the unmutated RTL fails its own lock-step ({where}): {detail}", 1)
            baselines[key] = True
            print(f"mutate: baseline {where}: no mismatch", flush=True)
        mdir = f"{BUILD}/mutants/{m['name']}"
        rc, out = make(harness_bin(m["harness"], m["config"], m["name"]), f"CONFIG={m['config']}", f"MUTANT={m['name']}", *sp)
        if rc != 0:
            verdict, detail = "error", "build failed: " + " | ".join(out.strip().splitlines()[-3:])[:300]
        else:
            verdict, detail = run_lockstep(m, m["name"], f"{mdir}/waves", timeout)
        dt = time.time() - t0
        print(f"mutate: [{k}/{len(chosen)}] {m['name']} ({m['file']}; {where}): {verdict}, {detail} ({dt:.0f} s)",
              flush=True)
        {"killed": killed, "survived": survived, "error": errors}[verdict].append(m["name"])
        if not keep and verdict == "killed":   # the model is large; the copy of rtl/ stays (PLANT=1 uses two)
            for sub in (f"{m['harness']}_{m['config']}", "waves"):
                if os.path.isdir(os.path.join(ROOT, mdir, sub)):
                    shutil.rmtree(os.path.join(ROOT, mdir, sub))
    total = len(chosen)
    if errors:
        print(f"mutate: not built or not run (count as survived): {','.join(errors)}")
    alive = survived + errors
    print(f"mutate: {time.time() - t_all:.0f} s, {(time.time() - t_all) / max(1, total):.0f} s a mutant")
    print(f"mutate: killed={len(killed)} total={total} survived={','.join(alive) if alive else 'none'}")
    return 0 if not alive else 1


def main(argv):
    global LIST
    if len(argv) >= 2 and argv[0] == "--list":   # another mutant list (tests/mutate_test.sh)
        LIST = os.path.abspath(argv[1])
        argv = argv[2:]
    if len(argv) < 1:
        raise BadInput("usage: mutate.py list | check | apply NAME DIR | run [options]")
    cmd = argv[0]
    if cmd == "list":
        if len(argv) != 1:
            raise BadInput("usage: mutate.py list")
        for m in parse():
            eq = "  [equivalent: " + m["equivalent"] + "]" if "equivalent" in m else ""
            print(f"{m['name']:32} {m['file']:22} {m['harness']} {m['config']} {m['cycles']}  {m['why']}{eq}")
        return 0
    if cmd == "check":
        if len(argv) != 1:
            raise BadInput("usage: mutate.py check")
        ms = parse()
        for m in ms:
            mutated_text(m)
        print(f"mutate: check: {len(ms)} mutants, every find text occurs exactly once")
        return 0
    if cmd == "apply":
        if len(argv) != 3:
            raise BadInput("usage: mutate.py apply NAME DIR")
        by_name = {m["name"]: m for m in parse()}
        if argv[1] not in by_name:
            raise BadInput(f"unknown mutant '{argv[1]}' (mutate.py list names them)")
        apply(by_name[argv[1]], argv[2])
        return 0
    if cmd == "run":
        return cmd_run(argv[1:])
    raise BadInput(f"unknown command '{cmd}' (list, check, apply, run)")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        die(str(e), 2)
    except KeyboardInterrupt:
        die("interrupted", 130)
