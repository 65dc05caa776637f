#!/usr/bin/env python3
"""The bench CSVs of results/, one matrix row at a time ('make bench').

  csvrows.py current DIR ROW INPUTS   exit 0 if DIR's CSVs hold ROW's
                                      figures (or its skip) measured on
                                      INPUTS and nothing of ROW on others
  csvrows.py merge DIR WORK ROW       replace ROW's lines in each of DIR's
                                      CSVs by WORK's (a file at a time,
                                      through a temporary file and rename)

Lines are copied as they are, quoting included (rewritten only when the
header gains or loses columns); other rows' lines keep
their order and ROW's go last.
"""
import csv
import io
import os
import sys

CSVS = ("micro.csv", "perf.csv", "boot.csv", "cachesim.csv", "skipped.csv")


def lines(path):
    """(header, [(fields, raw line)]) of a CSV; (None, []) if missing."""
    if not os.path.exists(path):
        return None, []
    with open(path, newline="") as f:
        raw = f.read().splitlines(keepends=True)
    if not raw:
        return None, []
    header = next(csv.reader([raw[0]]))
    out = []
    for n, line in enumerate(raw[1:], 2):
        fields = next(csv.reader(io.StringIO(line)), [])
        if len(fields) != len(header):
            sys.exit("csvrows.py: %s:%d: %d fields, header has %d"
                     % (path, n, len(fields), len(header)))
        out.append((dict(zip(header, fields)), line))
    return raw[0], out


def current(d, row, inputs):
    found = {}
    for name in CSVS:
        for fields, _ in lines(os.path.join(d, name))[1]:
            if fields.get("row") != row:
                continue
            if fields.get("inputs") != inputs:
                return False
            found[name] = True
    if found.get("skipped.csv"):
        return True
    return bool(found.get("micro.csv") and found.get("boot.csv"))


def merge(d, work, row):
    for name in CSVS:
        header, new = lines(os.path.join(work, name))
        if header is None:
            continue
        dst = os.path.join(d, name)
        old_header, old = lines(dst)
        keep = [raw for fields, raw in old if fields.get("row") != row]
        if old_header is not None and old_header != header:
            # Columns came or went: the other rows' lines take the new
            # header, a new column empty in them until they are measured
            # again (the report reads an empty cell as not measured).
            cols = next(csv.reader([header]))
            keep = []
            for fields, _ in old:
                if fields.get("row") == row:
                    continue
                buf = io.StringIO()
                csv.writer(buf, lineterminator="\n").writerow(
                    [fields.get(c, "") for c in cols])
                keep.append(buf.getvalue())
            print("csvrows.py: %s: new columns; the other rows' lines take "
                  "them empty" % dst, file=sys.stderr)
        add = [raw for fields, raw in new if fields.get("row") == row]
        with open(dst + ".tmp", "w", newline="") as f:
            f.write(header)
            f.writelines(keep + add)
        os.replace(dst + ".tmp", dst)


def main(argv):
    if len(argv) == 4 and argv[0] == "current":
        return 0 if current(*argv[1:]) else 1
    if len(argv) == 4 and argv[0] == "merge":
        merge(*argv[1:])
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
