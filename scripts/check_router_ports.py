#!/usr/bin/env python3
"""check_router_ports.py — the router's port list is written once (issue 23), in tb/router_ports.h;
the harnesses are built from it. This check (in `make lint`) holds the two Verilog files that
cannot include it to the same list:

  * rtl/router.v declares exactly clk, rst and the list's ports, its inputs and its outputs each in
    the list's order, each port with the list's direction and width (W * N, evaluated for every named configuration's P A H G);
  * fpga/ecp5_router_top.v's router instance binds every one of them, and nothing else.

  check_router_ports.py [--ports tb/router_ports.h] [--router rtl/router.v] [--top fpga/ecp5_router_top.v]
                        (--configs "NAME:P,A,H,G ..." | --configs-mk build/configs.mk)

Exit 0 and one line `ports: N ports agree ...`; 1 with the differences listed; 2 bad input.
"""
import argparse
import math
import re
import sys

HARNESS_DRIVEN = ["clk", "rst"]   # the clock and the reset: driven by every harness itself


def die(msg, code=2):
    print(f"check_router_ports: {msg}", file=sys.stderr)
    sys.exit(code)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")


def parse_list(text):
    """[(name, direction, width expression)] from the ROUTER_PORTS_IN / _OUT X-macros."""
    ports = []
    for macro, direction in (("ROUTER_PORTS_IN", "input"), ("ROUTER_PORTS_OUT", "output")):
        m = re.search(r"#define " + macro + r"\(X\)(.*?)(?:\n\s*\n|\n#)", text, re.S)
        if not m:
            die(f"no #define {macro}(X) in the port list")
        for row in re.finditer(r"X\(\s*(\w+)\s*,\s*([^,]+?)\s*,\s*([^,]+?)\s*,", m.group(1)):
            ports.append((row.group(1), direction, f"({row.group(2)}) * ({row.group(3)})"))
    if not ports:
        die("the port list is empty")
    return ports


def parse_router(text):
    """[(name, direction, width expression)] from rtl/router.v's port declarations, in order."""
    m = re.search(r"\bmodule\s+router\b.*?\)\s*\((.*?)\);", text, re.S)
    if not m:
        die("no 'module router #(...) (...);' in the RTL file")
    body = re.sub(r"//[^\n]*", "", m.group(1))
    ports = []
    for d in re.finditer(r"\b(input|output)\s+wire\s*(\[([^\]:]+):\s*0\s*\])?\s*(\w+)", body):
        width = f"({d.group(3)}) + 1" if d.group(2) else "1"
        ports.append((d.group(4), d.group(1), width))
    return ports


def widths(p, a, h, g):
    clog = lambda n: max(1, math.ceil(math.log2(n))) if n > 1 else 1   # rtl/router.v's $clog2 forms
    k = p + a - 1 + h
    return {"P": p, "A": a, "H": h, "G": g, "K": k, "AH": a * h, "GW": clog(g), "BW": clog(a),
            "TAW": clog(p + a + g)}


def width_of(expr, env):
    try:
        return eval(expr, {"__builtins__": {}}, env)   # expressions of our own two files only
    except Exception as e:   # noqa: BLE001 - any failure is a malformed width
        die(f"cannot evaluate the width '{expr}': {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ports", default="tb/router_ports.h")
    ap.add_argument("--router", default="rtl/router.v")
    ap.add_argument("--top", default="fpga/ecp5_router_top.v")
    ap.add_argument("--configs", help='"NAME:P,A,H,G ..."')
    ap.add_argument("--configs-mk", help="the named configurations as `doar configs --make` writes them")
    o = ap.parse_args()
    if bool(o.configs) == bool(o.configs_mk):
        die("give --configs or --configs-mk (one of them)")
    spec = o.configs or " ".join(f"{n}:{','.join(v.split())}"
                                 for n, v in re.findall(r"^DFLY_(\w+)\s*:=\s*([\d ]+?)\s*$", read(o.configs_mk), re.M))
    configs = []
    for c in spec.split():
        m = re.fullmatch(r"(\w+):(\d+),(\d+),(\d+),(\d+)", c)
        if not m:
            die(f"--configs: '{c}' is not NAME:P,A,H,G")
        configs.append((m.group(1), *map(int, m.group(2, 3, 4, 5))))
    if not configs:
        die("no configurations given")
    want = parse_list(read(o.ports))
    have = parse_router(read(o.router))
    errors = []
    have_names = [n for n, _, _ in have]
    want_names = HARNESS_DRIVEN + [n for n, _, _ in want]
    extra = [n for n in have_names if n not in want_names]
    missing = [n for n in want_names if n not in have_names]
    if extra or missing:
        errors.append(f"{o.router} ports not in {o.ports}: {extra or 'none'}; listed but not declared: {missing or 'none'}")
    for direction in ("input", "output"):
        order_rtl = [n for n, d, _ in have if d == direction and n in want_names and n not in HARNESS_DRIVEN]
        order_list = [n for n, d, _ in want if d == direction and n in have_names]
        if order_rtl != order_list:
            errors.append(f"the {direction}s are in another order in {o.router} than in {o.ports}")
    have_by = {n: (d, w) for n, d, w in have}
    for name, direction, wexpr in want:
        if name not in have_by:
            continue
        d, rexpr = have_by[name]
        if d != direction:
            errors.append(f"{name}: {o.router} says {d}, {o.ports} {direction}")
        for cname, p, a, h, g in configs:
            env = widths(p, a, h, g)
            wl, wr = width_of(wexpr, env), width_of(rexpr, env)
            if wl != wr:
                errors.append(f"{name} on {cname}: {o.router} {wr} bits, {o.ports} {wl}")
    top = read(o.top)
    m = re.search(r"\brouter\s*#\s*\(.*?\)\s*\w+\s*\((.*?)\);", top, re.S)
    if not m:
        errors.append(f"{o.top}: no router instance")
    else:
        bound = re.findall(r"\.(\w+)\s*\(", m.group(1))
        dup = sorted({n for n in bound if bound.count(n) > 1})
        unbound = [n for n in want_names if n not in bound]
        unknown = [n for n in bound if n not in want_names]
        if dup or unbound or unknown:
            errors.append(f"{o.top}: router instance binds twice {dup or 'none'}, leaves unbound {unbound or 'none'}, "
                          f"binds unknown {unknown or 'none'}")
    for e in errors:
        print(f"check_router_ports: {e}")
    if errors:
        sys.exit(1)
    print(f"ports: {len(want)} ports (+ clk, rst) agree: {o.ports}, {o.router} on {len(configs)} configurations, {o.top}")


if __name__ == "__main__":
    main()
