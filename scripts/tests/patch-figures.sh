#!/bin/bash
# A patch's message that gives mm/slub.o's size ("N bytes of text, against
# M before", and "adds X KiB to mm/slub.o") quotes make survey's
# measurement of it, not a build by hand: N is results/objsize-series.csv's
# text at that patch, M at the patch before it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top/kernel/patches" "$top/results/objsize-series.csv" <<'PY'
import csv, glob, os, re, sys

patches, path = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
text = {r["patch"]: int(r["text"]) for r in rows}
order = [r["patch"] for r in rows]
checked, bad = 0, []
for f in sorted(glob.glob(os.path.join(patches, "*.patch"))):
    n = os.path.basename(f)[:4]
    msg = open(f).read().split("\n---\n", 1)[0]
    if "mm/slub.o" not in msg:
        continue
    for m in re.finditer(r"(\d+)\s+bytes\s+of\s+text,\s+against\s+(\d+)",
                         msg):
        if n not in text:
            bad.append("%s quotes mm/slub.o; %s has no row for it" % (
                os.path.basename(f), path))
            continue
        before = text[order[order.index(n) - 1]]
        got = (int(m.group(1)), int(m.group(2)))
        if got != (text[n], before):
            bad.append("%s: %d against %d; objsize-series.csv: %d against %d"
                       % (os.path.basename(f), got[0], got[1], text[n],
                          before))
        # and what it adds, in KiB to a tenth, where the message says
        for k in re.finditer(r"adds\s+(\d+\.\d)\s+KiB\s+to\s+mm/slub\.o",
                             msg):
            want = "%.1f" % ((text[n] - before) / 1024)
            if k.group(1) != want:
                bad.append("%s: adds %s KiB; objsize-series.csv: %s" % (
                    os.path.basename(f), k.group(1), want))
        checked += 1
if bad or not checked:
    print("\n".join(bad) or "no patch message quotes mm/slub.o's size")
    sys.exit(1)
print("patch-figures: %d mm/slub.o size(s) in patch messages, as measured"
      % checked)
PY
