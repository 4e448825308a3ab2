#!/usr/bin/env python3
"""Turns a nextpnr JSON report into doar's FPGA report line and file.

usage: fpga_report.py TARGET BOARD DESIGN CLOCK_MHZ NEXTPNR_REPORT.json OUT.txt
Prints `fpga: target=T board=B design=D luts=N ffs=N bram=N fmax_mhz=F clock_mhz=C ok|FAIL`
and writes the same line (plus the utilisation table) to OUT.txt. Exit 1 on FAIL (the design
misses its clock), 2 on unreadable input.
"""
import json
import sys

# nextpnr cell names per architecture: (LUTs, flip-flops, block RAM)
CELLS = {
    "ice40": ("ICESTORM_LC", None, "ICESTORM_RAM"),
    "ecp5": ("TRELLIS_COMB", "TRELLIS_FF", "DP16KD"),
}


def used(util, name):
    return int(util.get(name, {}).get("used", 0)) if name else 0


def main(argv):
    if len(argv) != 7:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    target, board, design, clock, path, out = argv[1:]
    try:
        with open(path) as f:
            rep = json.load(f)
        clock_mhz = float(clock)
    except (OSError, ValueError) as e:
        print(f"fpga_report: {path}: {e}", file=sys.stderr)
        return 2
    if target not in CELLS:
        print(f"fpga_report: unknown target '{target}'", file=sys.stderr)
        return 2
    util = rep.get("utilization", {})
    lut_name, ff_name, bram_name = CELLS[target]
    luts = used(util, lut_name)
    # iCE40 logic cells hold a LUT and a flip-flop; the FF count comes from the packer's DFF cells
    ffs = used(util, ff_name) if ff_name else int(rep.get("doar_ffs", 0))
    bram = used(util, bram_name)
    fmax = min((v.get("achieved", 0.0) for v in rep.get("fmax", {}).values()), default=0.0)
    ok = fmax >= clock_mhz and luts > 0
    line = (f"fpga: target={target} board={board} design={design} luts={luts} ffs={ffs} bram={bram} "
            f"fmax_mhz={fmax:.1f} clock_mhz={clock_mhz:g} {'ok' if ok else 'FAIL'}")
    with open(out, "w") as f:
        f.write(line + "\n\nutilisation (nextpnr):\n")
        for name, v in sorted(util.items()):
            f.write(f"  {name:16s} {v.get('used', 0):7d} / {v.get('available', 0)}\n")
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
