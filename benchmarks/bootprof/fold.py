#!/usr/bin/env python3
"""Boot profiles from the insnprof plugin (benchmarks/bootprof/bootprof.sh).

  fold.py SYSTEM.MAP PROFILE   per-function counts (TSV) on stdout

PROFILE has "hexaddress count" lines; each address is charged to the
text symbol at or below it in System.map.  Functions are listed by name
(static functions of the same name in different files add up), largest
first; addresses below the first text symbol are charged to "?".
results/bootprof/README.md is rendered by the report (python3 -m
benchmarks.report).
"""
import bisect
import collections
import sys


def die(msg):
    sys.exit(f"fold.py: {msg}")


def text_symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in "tTwW":
                syms.append((int(p[0], 16), p[2]))
    if not syms:
        die(f"{path}: no text symbols")
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def fold(sysmap, prof):
    addrs, names = text_symbols(sysmap)
    counts = collections.Counter()
    with open(prof) as f:
        for no, line in enumerate(f, 1):
            p = line.split()
            if len(p) != 2:
                die(f"{prof}:{no}: expected 'address count'")
            a, n = int(p[0], 16), int(p[1])
            i = bisect.bisect_right(addrs, a) - 1
            counts[names[i] if i >= 0 else "?"] += n
    for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{name}\t{n}")


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    fold(argv[1], argv[2])


if __name__ == "__main__":
    main(sys.argv)
