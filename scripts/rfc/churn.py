#!/usr/bin/env python3
"""Count each posting's churn: the lines a patch adds that a later patch of
the same posting removes again, file by file.

A reviewer reads every patch of a posting; a line that one patch adds and
a later one removes is read twice for nothing.  The postings are those of
kernel/patches/series ("# posting X: TITLE" before the first patch of
each, as make-rfc.sh and scripts/lib.sh's postings() read them).

Only non-trivial lines count: not blank, and not made only of braces,
brackets, parentheses, semicolons, commas and comment markers ("/*",
"*/", "*", "//").  Lines are compared with their leading and trailing
white space stripped, so that a line re-indented by a later patch counts
too.  Within a patch, its removals are matched before its additions are
kept, and each removal consumes at most one earlier addition of the same
text in the same file.  A line added in an earlier posting and removed in
a later one is not churn: each posting is posted, and read, on its own.

Usage: churn.py [-v] [PATCHES-DIR]   (default: kernel/patches)
Prints "X N" per posting; -v adds "  X N FILE" per file with churn.
"""
import collections
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

TRIVIAL = re.compile(r"^[\s{}()\[\];,]*$|^\s*(/\*+|\*+/|\*|//)\s*$")
HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


class ChurnError(Exception):
    pass


def postings(series):
    """[(letter, [patch file, ...])] of a series file, in order."""
    out = []
    with open(series) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"# posting ([A-Z]):", line)
            if m:
                out.append((m.group(1), []))
            elif line.strip() and not line.startswith("#"):
                if not out:
                    raise ChurnError("%s:%d: a patch before any '# posting "
                                     "X:' line" % (series, n))
                out[-1][1].append(line.strip())
    return out


def changes(path):
    """[(file, sign, text)] of a patch's diff: sign '+' or '-', text the
    line as the patch has it, in the order of the diff."""
    out = []
    old = new = None
    left = [0, 0]   # lines still to come in the hunk: removed, added
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if left[0] > 0 or left[1] > 0:
                sign = line[:1]
                if sign == "-":
                    left[0] -= 1
                    out.append((old, "-", line[1:]))
                elif sign == "+":
                    left[1] -= 1
                    out.append((new, "+", line[1:]))
                elif sign in (" ", ""):
                    left[0] -= 1
                    left[1] -= 1
                elif sign != "\\":
                    raise ChurnError("%s:%d: a hunk ends early" % (path, n))
                continue
            if line.startswith("diff --git "):
                m = re.match(r"diff --git a/(\S+) b/(\S+)$", line)
                if not m:
                    raise ChurnError("%s:%d: cannot read '%s'" % (path, n, line))
                old, new = m.group(1), m.group(2)
            elif line.startswith("--- ") and old is not None:
                old = line[6:] if line.startswith("--- a/") else new
            elif line.startswith("+++ ") and new is not None:
                new = line[6:] if line.startswith("+++ b/") else old
            elif line.startswith("@@ "):
                m = HUNK.match(line)
                if not m or old is None:
                    raise ChurnError("%s:%d: cannot read '%s'" % (path, n, line))
                left = [int(m.group(1) or 1), int(m.group(2) or 1)]
    if left[0] > 0 or left[1] > 0:
        raise ChurnError("%s: the last hunk is cut short" % path)
    return out


def churn(patches_dir):
    """[(letter, total, {file: count})] of the series in patches_dir."""
    series = os.path.join(patches_dir, "series")
    if not os.path.isfile(series):
        raise ChurnError("%s: no such file" % series)
    out = []
    for letter, patches in postings(series):
        added = collections.defaultdict(collections.Counter)
        files = collections.Counter()
        for p in patches:
            path = os.path.join(patches_dir, p)
            if not os.path.isfile(path):
                raise ChurnError("%s names %s, which is not in %s"
                                 % (series, p, patches_dir))
            adds = []
            for f, sign, text in changes(path):
                if TRIVIAL.match(text):
                    continue
                text = text.strip()
                if sign == "-":
                    if added[f][text] > 0:
                        added[f][text] -= 1
                        files[f] += 1
                else:
                    adds.append((f, text))
            for f, text in adds:
                added[f][text] += 1
        out.append((letter, sum(files.values()), dict(files)))
    return out


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.exit("usage: churn.py [-v] [PATCHES-DIR]")
    d = args[0] if args else os.path.join(TOP, "kernel", "patches")
    try:
        result = churn(d)
    except (ChurnError, OSError) as e:
        sys.exit("churn.py: %s" % e)
    for letter, total, files in result:
        print("%s %d" % (letter, total))
        if verbose:
            for f, n in sorted(files.items(), key=lambda x: (-x[1], x[0])):
                print("  %s %d %s" % (letter, n, f))


if __name__ == "__main__":
    main(sys.argv[1:])
