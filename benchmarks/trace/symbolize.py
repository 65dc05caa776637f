#!/usr/bin/env python3
"""Instruction traces of one alloc+free pair (see trace.sh).

symbolize.py SYSTEM.MAP PCS   print "address symbol" for each address

The traces' README is rendered by the report (python3 -m benchmarks.report).
"""
import bisect
import sys

MODULES = 0xFFFFFFFFA0000000  # x86_64 module area: allocbench's own code


def symbolize(system_map, pcs):
    syms = []
    with open(system_map) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in "tTwW":
                syms.append((int(addr, 16), name))
    syms.sort()
    addrs = [a for a, _ in syms]
    with open(pcs) as f:
        for line in f:
            pc = int(line, 16)
            if pc >= MODULES:
                name = "[allocbench module]"
            else:
                i = bisect.bisect_right(addrs, pc) - 1
                name = syms[i][1] if i >= 0 else "?"
            print("%x %s" % (pc, name))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    symbolize(argv[1], argv[2])


if __name__ == "__main__":
    main(sys.argv)
