#!/usr/bin/env python3
"""Instruction traces of one alloc+free pair (see trace.sh).

symbolize.py SYSTEM.MAP PCS [VMLINUX SRCDIR]
    print "address count symbol" for each address PCS holds, once, in the
    order of its first execution, with the times it was executed (a batch
    round runs the same instructions hundreds of times: one line each would
    make a trace tens of megabytes).  With VMLINUX (the same
    kernel's text, with DWARF) and SRCDIR (the source it was built from),
    "address count symbol<TAB>frames", frames being where the instruction is in
    each function it was inlined through, innermost first, as
    FUNCTION@FILE:LINE separated by ';'; then a "# src FILE:LINE<TAB>TEXT"
    line for each source line the frames name.

The traces' README is rendered by the report (python3 -m benchmarks.report).
"""
import bisect
import os
import re
import subprocess
import sys

MODULES = 0xFFFFFFFFA0000000  # x86_64 module area: allocbench's own code


def frames(vmlinux, srcdir, pcs):
    """{pc: [(function, "file:line"), ...]} for the kernel's addresses in
    @pcs, from addr2line, innermost first; files relative to @srcdir."""
    want = sorted({pc for pc in pcs if pc < MODULES})
    if not want:
        return {}
    out = subprocess.run(["addr2line", "-e", vmlinux, "-a", "-f", "-i"],
                         input="".join("%x\n" % pc for pc in want),
                         capture_output=True, text=True, check=True).stdout
    root = os.path.realpath(srcdir) + "/"
    chains, pc = {}, None
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            pc = int(lines[i], 16)
            chains[pc] = []
            i += 1
            continue
        if pc is None or i + 1 >= len(lines):
            sys.exit("symbolize.py: addr2line: unexpected output '%s'" % lines[i])
        where = re.sub(r" \(discriminator \d+\)$", "", lines[i + 1])
        path, _, line = where.rpartition(":")
        path = os.path.realpath(path) if path.startswith("/") else path
        if path.startswith(root):
            path = path[len(root):]
        chains[pc].append((lines[i], "%s:%s" % (path, line)))
        i += 2
    missing = [pc for pc in want if pc not in chains]
    if missing:
        sys.exit("symbolize.py: addr2line gave nothing for %x" % missing[0])
    return chains


def source_lines(srcdir, places):
    """{"file:line": text} of @places, for the files found under @srcdir."""
    text, files = {}, {}
    for p in sorted(places):
        path, _, line = p.rpartition(":")
        if path not in files:
            try:
                with open(os.path.join(srcdir, path), errors="replace") as f:
                    files[path] = f.read().splitlines()
            except OSError:
                files[path] = []
        n = int(line) if line.isdigit() else 0
        if 0 < n <= len(files[path]):
            text[p] = files[path][n - 1].strip()
    return text


def symbolize(system_map, pcs_file, vmlinux=None, srcdir=None):
    syms = []
    with open(system_map) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in "tTwW":
                syms.append((int(addr, 16), name))
    syms.sort()
    addrs = [a for a, _ in syms]
    runs = {}  # in first-execution order
    with open(pcs_file) as f:
        for line in f:
            pc = int(line, 16)
            runs[pc] = runs.get(pc, 0) + 1
    chains = frames(vmlinux, srcdir, runs) if vmlinux else None
    for pc, n in runs.items():
        if pc >= MODULES:
            name = "[allocbench module]"
        else:
            i = bisect.bisect_right(addrs, pc) - 1
            name = syms[i][1] if i >= 0 else "?"
        if chains is None:
            print("%x %d %s" % (pc, n, name))
        else:
            print("%x %d %s\t%s" % (pc, n, name, ";".join(
                "%s@%s" % fw for fw in chains.get(pc, [])) or "-"))
    if chains is not None:
        places = {w for c in chains.values() for _, w in c}
        for p, t in sorted(source_lines(srcdir, places).items()):
            print("# src %s\t%s" % (p, t))


def main(argv):
    if len(argv) not in (3, 5):
        sys.exit(__doc__)
    symbolize(*argv[1:])


if __name__ == "__main__":
    main(sys.argv)
