#!/usr/bin/env python3
"""Boot profiles from the insnprof plugin (benchmarks/trace/bootprof.sh).

  bootprof.py fold SYSTEM.MAP PROFILE   per-function counts (TSV) on stdout
  bootprof.py report DIR FORK:STOCK...  results/bootprof/README.md on stdout

fold: PROFILE has "hexaddress count" lines; each address is charged to the
text symbol at or below it in System.map.  Functions are listed by name
(static functions of the same name in different files add up), largest
first; addresses below the first text symbol are charged to "?".

report: reads DIR/ROW.tsv for every row named and writes, per pair, the
kernel instructions each ran to /init and the functions whose counts
differ most.
"""
import bisect
import collections
import os
import sys

TOP_N = 12


def die(msg):
    sys.exit(f"bootprof.py: {msg}")


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


def load(path):
    meta, counts = {}, {}
    if not os.path.exists(path):
        die(f"{path} missing (run benchmarks/trace/bootprof.sh)")
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                for word in line[1:].split():
                    k, _, v = word.partition("=")
                    if v:
                        meta[k] = v
                continue
            name, n = line.rstrip("\n").split("\t")
            counts[name] = int(n)
    return meta, counts


def report(d, pairs):
    rows = {}
    for p in pairs:
        for r in p.split(":"):
            if r not in rows:
                rows[r] = load(os.path.join(d, r + ".tsv"))
    first = next(iter(rows.values()))[0]
    print("# Boot profiles: kernel instructions to /init, by function\n")
    print("Written by `benchmarks/trace/bootprof.py` from the `.tsv` files "
          "beside it (`make bootprof`). Each row's kernel booted under QEMU "
          f"TCG with `-icount shift=0,sleep=off` ({first.get('mem', '?')} guest "
          "RAM, 1 vCPU) and the `insnprof` plugin "
          "(`benchmarks/cachesim/insnprof.c`), which counts every kernel "
          "instruction executed from reset until `run_init_process()` first "
          "runs, folded into functions with the kernel's `System.map`. Each "
          "row booted twice; the two profiles were identical. Unlike the "
          "boot table's time to `/init`, these are instructions alone: no "
          "idle time.\n")
    print(f"Linux {first.get('linux', '?')}, QEMU {first.get('qemu', '?')}, "
          f"accelerator {first.get('accel', '?')}, commit {first.get('commit', '?')}, "
          f"{first.get('date', '?')}.\n")
    print("| row | kernel | boot arguments | instructions to /init | vs peer |")
    print("|---|---|---|---:|---:|")
    peer_of = dict(p.split(":") for p in pairs)
    for r, (meta, c) in rows.items():
        tot = sum(c.values())
        vs = ""
        if r in peer_of:
            d_ = tot - sum(rows[peer_of[r]][1].values())
            vs = f"{d_:+d} vs {peer_of[r]}"
        print(f"| {r} | {meta.get('kernel_variant', '?')} | "
              f"`{meta.get('boot_args', '-')}` | {tot} | {vs} |")
    for p in pairs:
        fork, stock = p.split(":")
        a, b = rows[stock][1], rows[fork][1]
        diff = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
        top = sorted((k for k in diff if diff[k]),
                     key=lambda k: (-abs(diff[k]), k))[:TOP_N]
        total = sum(b.values()) - sum(a.values())
        print(f"\n## {fork} against {stock}: {total:+d}\n")
        print(f"The {len(top)} functions whose counts differ most "
              f"({sum(1 for k in diff if diff[k])} differ in all):\n")
        print(f"| function | {stock} | {fork} | difference |")
        print("|---|---:|---:|---:|")
        for k in top:
            print(f"| `{k}` | {a.get(k, 0)} | {b.get(k, 0)} | {diff[k]:+d} |")


def main(argv):
    if len(argv) == 4 and argv[1] == "fold":
        fold(argv[2], argv[3])
    elif len(argv) >= 4 and argv[1] == "report":
        report(argv[2], argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
