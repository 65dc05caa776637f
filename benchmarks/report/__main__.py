"""Render every published table of results/ from its raw data alone.

Usage (from the repository root):
  python3 -m benchmarks.report [RESULTS-DIR] [--readme README.md]
                               [--docs DOCS-DIR] [--no-plots]

RESULTS-DIR (default results) gets, from what it holds:
  micro.csv & co.    README.md, targets.csv, the plots (*.dat, and with
                     gnuplot *.svg and *.png); with --readme, the headline
                     block of that file too
  trace/*.txt        trace/README.md
  bootprof/*.tsv     bootprof/README.md
  pageflags.csv      pageflags.md
  tagcounts.csv      tagcounts.md
  objsize.csv        objsize.md (with objsize-series.csv)
  aslr.csv         aslr.md (with perf.csv)
  capture/*.csv      capture/README.md and capture/flame.svg
  inputs.txt         benchmarks/inputs-hash.sh's "ROW INPUTS" lines and
                     scripts/survey/inputs.sh's "kernel:KERNEL INPUTS"
                     ones, what the tree would record as measured when
                     'make report' wrote it: README.md lists the raw data
                     measured on other inputs, and each is warned about on
                     stderr
--readme README.md also gets the counts of the tree (tree.py) in its
"tree" block, and --docs DOCS-DIR the generated blocks of postings.md (the
postings and their churn) and variants.md.
--no-plots writes the plots' data but does not run gnuplot.  Exit 1 when the icount runs disagree (README.md says where), 2 on
bad input.
"""
import os
import sys

from . import capture, aslr, data, plots, survey, targets, text, traces, tree
from .matrix import MatrixError


def write(path, content):
    with open(path + ".tmp", "w") as f:
        f.write(content)
    os.replace(path + ".tmp", path)


def stale(r, inputs):
    """Raw data whose recorded inputs are not the tree's, as (place, name,
    recorded inputs): inputs maps a matrix row (and "capture" and "bpf",
    make capture's units) to what it would record now."""
    out = []
    bench = {}
    for x in r.micro + r.perf + r.boot + r.cache + r.skipped:
        bench.setdefault(x["row"], set()).add(x.get("inputs"))
    for row, hs in sorted(bench.items()):
        if hs != {inputs.get(row)}:
            out.append(("bench CSVs", row, ", ".join(sorted(h or "-" for h in hs))))
    traced = [("trace/" + ("" if c == "page-0" else c + "/"), x,
               r.trace_meta(x, c)) for c in r.trace_cases()
              for x in r.trace_rows(c)]
    profiled = [("bootprof/", x, r.bootprof(x)[0]) for x in r.bootprof_rows()]
    profiled += [("bootprof/%s/" % w, x, r.workload_profile(x, w)[0])
                 for w, x in r.workload_profiles()]
    for sub, x, meta in traced + profiled:
        h = meta.get("inputs")
        if h != inputs.get(x):
            out.append((sub, x, h or "-"))
    if r.has("capture", "cost.csv"):
        out += [("capture/", "", h) for h in sorted(
            {c["inputs"] for c in capture.load(r.path("capture"))[0]})
            if h != inputs.get("capture")]
    out += [("capture/bpf.csv", "", h) for h in sorted(
        {c["inputs"] for c in capture.load_bpf(r.path("capture"))})
        if h != inputs.get("bpf")]
    # make survey's object sizes, tag counts and mm/slub.o through the
    # series, each kernel's by its own inputs ("guest-" names a guest
    # kernel)
    # make aslr's runs, a row's by its inputs, as make bench's
    read = {}
    for x in r.optional_csv("aslr.csv"):
        read.setdefault(x["row"], set()).add(x.get("inputs") or "-")
    out += [("aslr.csv", k, ", ".join(sorted(hs)))
            for k, hs in sorted(read.items()) if hs != {inputs.get(k)}]
    for name, rows in (("objsize.csv", r.objsize()),
                       ("tagcounts.csv", r.optional_csv("tagcounts.csv")),
                       ("objsize-series.csv",
                        r.optional_csv("objsize-series.csv"))):
        read = {}
        for x in rows:
            c = x["config"]
            read.setdefault(c[len("guest-"):] if c.startswith("guest-")
                            else c, set()).add(x.get("inputs") or "-")
        out += [(name, k, ", ".join(sorted(hs)))
                for k, hs in sorted(read.items())
                if "-" in hs or hs != {inputs.get("kernel:" + k)}]
    return out


def parse_inputs(text):
    """benchmarks/inputs-hash.sh's "NAME INPUTS" lines, as a dict."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) != 2:
            raise ValueError("inputs.txt: want NAME INPUTS lines "
                             "(benchmarks/inputs-hash.sh), got %r" % line)
        out[f[0]] = f[1]
    return out


def render(d, readme=None, draw=True, docs=None):
    """Write everything; return the icount mismatches (none: [])."""
    r = data.Results(d)
    if readme:
        text.write_block(readme, "tree", tree.counts(r.matrix, targets.load()))
    if docs:
        text.write_block(os.path.join(docs, "postings.md"), "postings",
                         tree.postings_table())
        text.write_block(os.path.join(docs, "postings.md"), "churn",
                         tree.churn_table())
        text.write_block(os.path.join(docs, "variants.md"), "variants",
                         tree.variants_table())
    if r.has("pageflags.csv"):
        write(r.path("pageflags.md"), survey.pageflags(r.pageflags))
    if r.has("tagcounts.csv"):
        write(r.path("tagcounts.md"), survey.tagcounts(r.tagcounts))
    if r.has("objsize.csv"):
        write(r.path("objsize.md"), survey.objsize(
            r.objsize(), r.optional_csv("objsize-series.csv")))
    if r.trace_rows():
        write(r.path("trace", "README.md"), traces.trace_readme(r))
    if traces.bootprof_pairs(r):
        write(r.path("bootprof", "README.md"), traces.bootprof_readme(r))
    if r.has("capture", "stacks.csv"):
        capture.render(r.path("capture"), write)
    if not r.has("micro.csv"):
        return []
    for name in data.BENCH_CSVS:
        r.csv(name)         # each one there, or an error naming it
    old = []
    if r.has("inputs.txt"):
        with open(r.path("inputs.txt")) as f:
            old = stale(r, parse_inputs(f.read()))
    for place, name, h in old:
        print("benchmarks.report: warning: %s %s (%s) was measured on other "
              "inputs than the tree's: 'make results' measures it again"
              % (place, name, h), file=sys.stderr)
    if r.has("aslr.csv"):
        write(r.path("aslr.md"), aslr.render(r))
    judged = targets.judge(r)
    targets.write(r.path("targets.csv"), judged)
    made = plots.write(r, judged, draw)
    write(r.path("README.md"), text.readme(r, judged, made, old))
    if readme:
        text.write_headline(readme, text.headline(r, judged))
    return r.determinism()[1]


def main(argv):
    args, readme, docs, draw = [], None, None, True
    it = iter(argv)
    for a in it:
        if a == "--readme":
            readme = next(it, None)
        elif a == "--docs":
            docs = next(it, None)
        elif a == "--no-plots":
            draw = False
        elif a.startswith("-"):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) > 1 or (readme is None and "--readme" in argv) or \
            (docs is None and "--docs" in argv):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = args[0] if args else "results"
    if not os.path.isdir(d):
        print("benchmarks.report: %s: no such directory" % d, file=sys.stderr)
        return 2
    try:
        mismatch = render(d, readme, draw, docs)
    except (data.DataError, MatrixError, capture.CaptureError, ValueError) as e:
        print("benchmarks.report: %s" % e, file=sys.stderr)
        return 2
    if mismatch:
        print("benchmarks.report: icount runs disagree; see %s/README.md" % d,
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
