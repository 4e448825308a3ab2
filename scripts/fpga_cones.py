#!/usr/bin/env python3
"""Where a unit's LUTs go: attribute every combinational cell of a synthesized ECP5 netlist to the
registers and outputs whose fan-in cone holds it (docs/fpga.md item 23).

Usage: scripts/fpga_cones.py NETLIST.json [UNIT_TOP.v] [TOP]
  NETLIST.json  Yosys JSON after synth_ecp5, flattened (make fpga-unit's build/fpga/unit_U/unit.json,
                make fpga-ecp5's build/fpga/ecp5/router.json)
  UNIT_TOP.v    make fpga-unit's generated wrapper: splits its output register o_r by the unit's
                output ports (out:PORT rows)
  TOP           the top module (default: the module marked top, else unit_top)

A cone is walked from a flip-flop's DI, CE and LSR inputs (or a distributed RAM's write inputs)
back through LUT4, PFUMX, L6MUX21 and CCU2C cells, stopping at flip-flops, RAMs and ports. Rows,
largest first, per register name with bit indices dropped: the share (each cell split evenly over
the cones that hold it), the cells in no other cone (excl) and the largest single cone.
Last line: cones: cells=N attributed=M groups=G
"""
import collections
import json
import re
import sys

COMB = {"LUT4", "PFUMX", "L6MUX21", "CCU2C"}


def fail(msg):
    print(f"fpga_cones: {msg}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 2 or len(argv) > 4 or argv[1] in ("-h", "--help"):
        fail("usage: scripts/fpga_cones.py NETLIST.json [UNIT_TOP.v] [TOP]")
    try:
        with open(argv[1]) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{argv[1]}: not a readable Yosys JSON netlist ({e.__class__.__name__})")
    mods = d.get("modules") if isinstance(d, dict) else None
    if not isinstance(mods, dict) or not mods:
        fail(f"{argv[1]}: no modules (not a Yosys JSON netlist)")
    if len(argv) > 3:
        if argv[3] not in mods:
            fail(f"{argv[1]}: no module '{argv[3]}'")
        m = mods[argv[3]]
    else:
        tops = [mm for mm in mods.values() if str(mm.get("attributes", {}).get("top", "0")).strip("0") != ""]
        m = tops[0] if tops else mods.get("unit_top")
        if m is None:
            fail(f"{argv[1]}: no top module (name it as the third argument)")
    cells = m.get("cells", {})
    if not any(c.get("type") in COMB for c in cells.values()):
        fail(f"{argv[1]}: no LUT4/PFUMX/L6MUX21/CCU2C cells (run after synth_ecp5, flattened)")

    bitname = {}                       # bit -> the shortest public net name holding it
    for n, nn in m.get("netnames", {}).items():
        if nn.get("hide_name"):
            continue
        for b in nn["bits"]:
            if isinstance(b, int) and (b not in bitname or len(n) < len(bitname[b])):
                bitname[b] = n
    driver = {}
    for cn, c in cells.items():
        for p, bits in c["connections"].items():
            if c.get("port_directions", {}).get(p) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = cn

    def cone(start):
        seen, done, stack = set(), set(), list(start)
        while stack:
            b = stack.pop()
            if b in done:
                continue
            done.add(b)
            cn = driver.get(b)
            if cn is None or cn in seen or cells[cn]["type"] not in COMB:
                continue
            seen.add(cn)
            c = cells[cn]
            for p, bits in c["connections"].items():
                if c.get("port_directions", {}).get(p) == "input":
                    stack.extend(x for x in bits if isinstance(x, int))
        return seen

    def ints(bits):
        return [b for b in bits if isinstance(b, int)]

    groups = collections.defaultdict(list)
    ff_by_q = {}
    for cn, c in cells.items():
        con = c["connections"]
        if c["type"] == "TRELLIS_FF":
            q = con["Q"][0]
            ff_by_q[q] = c
            name = bitname.get(q, "?")
            for p in ("DI", "CE", "LSR"):
                groups[name].extend(ints(con.get(p, [])))
        elif c["type"] == "TRELLIS_DPR16X4":
            for p in ("DI", "WAD", "WRE"):
                groups["ram:" + cn.split(".")[0][:40]].extend(ints(con.get(p, [])))
        elif c["type"] in ("DP16KD", "PDPW16KD"):
            groups["bram:" + cn.split(".")[0][:40]].extend(
                ints(b for p, bs in con.items() if c.get("port_directions", {}).get(p) == "input" for b in bs))
    if len(argv) > 2:                  # split the wrapper's output register by the unit's ports
        try:
            with open(argv[2]) as f:
                text = f.read()
        except OSError:
            fail(f"{argv[2]}: cannot read")
        rng = {p: (int(lo), int(hi)) for p, hi, lo in re.findall(r"\.(\w+)\(o\[(\d+):(\d+)\]\)", text)}
        if not rng:
            fail(f"{argv[2]}: no '.PORT(o[HI:LO])' connections (not make fpga-unit's unit_top.v)")
        orb = m.get("netnames", {}).get("o_r", {}).get("bits", [])
        groups.pop("o_r", None)
        for k, b in enumerate(orb):
            c = ff_by_q.get(b)
            if c is not None:
                port = next((p for p, (lo, hi) in rng.items() if lo <= k <= hi), "?")
                groups["out:" + port].extend(ints(c["connections"]["DI"]))

    owner = collections.defaultdict(set)
    for g, bits in groups.items():
        for cn in cone(bits):
            owner[cn].add(g)
    share, excl, big = collections.Counter(), collections.Counter(), collections.Counter()
    size = collections.Counter()
    for cn, gs in owner.items():
        for g in gs:
            size[g] += 1
    for cn, gs in owner.items():
        for g in gs:
            base = re.sub(r"^u\.", "", re.sub(r"\[\d+\]", "", g))
            share[base] += 1.0 / len(gs)
            if len(gs) == 1:
                excl[base] += 1
    for g, n in size.items():
        base = re.sub(r"^u\.", "", re.sub(r"\[\d+\]", "", g))
        big[base] = max(big[base], n)
    ncomb = sum(1 for c in cells.values() if c["type"] in COMB)
    print(f"{'share':>9} {'excl':>7} {'cone':>7}  register / output")
    for g, s in share.most_common(40):
        print(f"{s:9.0f} {excl[g]:7d} {big[g]:7d}  {g}")
    print(f"cones: cells={ncomb} attributed={len(owner)} groups={len(share)}")


if __name__ == "__main__":
    main(sys.argv)
