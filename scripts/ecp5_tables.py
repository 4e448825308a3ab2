#!/usr/bin/env python3
"""Packs one router's table images ($readmemh files written by `doar tables`) into the load ROM of
fpga/ecp5_router_top.v: one line per table write, {port[5:0], table[1:0], addr[7:0], data[63:0]}
as 20 hex digits. Usage: ecp5_tables.py DIR/gGGGGbBB K OUT; prints the number of lines."""
import os
import sys


def rows(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("//")[0].strip()
            if line:
                out.append(int(line, 16))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: ecp5_tables.py ROUTER_DIR K OUT")
    d, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = []
    for port in range(k):
        for table, suffix in enumerate("abc"):
            path = os.path.join(d, "p%02d.%s.hex" % (port, suffix))
            if not os.path.exists(path):
                sys.exit("ecp5_tables: %s is missing" % path)
            for addr, data in enumerate(rows(path)):
                word = (((port << 2 | table) << 8 | addr) << 64) | data
                lines.append("%020x" % word)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(len(lines))


if __name__ == "__main__":
    main()
