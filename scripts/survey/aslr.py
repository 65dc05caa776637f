#!/usr/bin/env python3
"""results/aslr.csv, a row at a time (scripts/survey/aslr.sh).

  aslr.py current OUT ROW INPUTS    exit 0 if OUT holds ROW's lines, all
                                      measured on INPUTS
  aslr.py merge OUT PERF ROW...     replace each ROW's lines of OUT by
                                      its icount runs' lines of PERF (a
                                      perf.csv of benchmarks/run.sh),
                                      through a temporary file and rename

OUT takes PERF's header; lines are copied as they are.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "benchmarks"))
from csvrows import lines as read  # noqa: E402  (make bench's reader)


def current(out, row, inputs):
    got = {f.get("inputs") for f, _ in read(out)[1] if f.get("row") == row}
    return got == {inputs}


def merge(out, perf, rows):
    header, new = read(perf)
    if header is None:
        sys.exit("aslr.py: %s: missing or empty" % perf)
    old_header, old = read(out)
    if old_header is not None and old_header != header:
        sys.exit("aslr.py: %s has other columns than %s: measure every "
                 "row again (FULL=1)" % (out, perf))
    add = [raw for f, raw in new
           if f.get("row") in rows and f.get("icount") != "off"]
    for r in rows:
        if not any(f.get("row") == r for f, _ in new):
            sys.exit("aslr.py: %s has no line of row %s" % (perf, r))
    keep = [raw for f, raw in old if f.get("row") not in rows]
    with open(out + ".tmp", "w", newline="") as f:
        f.write(header)
        f.writelines(keep + add)
    os.replace(out + ".tmp", out)


def main(argv):
    if len(argv) == 4 and argv[0] == "current":
        return 0 if current(*argv[1:]) else 1
    if len(argv) >= 4 and argv[0] == "merge":
        merge(argv[1], argv[2], argv[3:])
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
