#!/usr/bin/env python3
"""Fill in the cover letter that scripts/rfc/make-rfc.sh had git format-patch
write: the subject and the blurb, in plain text (no Markdown), prose wrapped
at 72 columns.  The prose is fixed; every figure and table is read from the
raw data in results/, through the report's data module
(benchmarks/report/data.py, rows from benchmarks/matrix.txt), or from the
check outputs make-rfc.sh wrote beside the patches:

  results/micro.csv     order-0 alloc_page+__free_page, guest instructions
                        (run icount-1, rep 1), per benchmark row
  results/boot.csv      page_ext bytes per row and guest size
  results/trace/*.txt   per-function instruction traces (make trace), used
                        only when they were taken on the series' kernel
  results/pageflags.csv the page-flag budget survey (make survey)
  results/tagcounts.csv allocation tag counts (make survey)
  results/capture/      the capture flag's cost (make capture)
  WORK-DIR/checkpatch.txt, build-each.txt, get_maintainer.txt

Tables are printed as space-padded columns, cells without Markdown.  A row,
file or table that is missing gives a sentence saying so, never a crash.

Usage: cover-letter.py RESULTS-DIR WORK-DIR   (environment: RFC_N, RFC_KVER,
RFC_DEBVER, RFC_COMMIT, RFC_DATE, RFC_SOURCE and RFC_SERIES, set by
make-rfc.sh; without RFC_SERIES the series is RFC_KVER's first two numbers)
"""
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from benchmarks.report import attribution, capture, data, matrix, survey  # noqa: E402

SUBJECT = ("mm/alloc_tag: link-time tag indices in page flags, "
           "with a page_ext fallback")

# The benchmark rows, from benchmarks/matrix.txt in its order: the main
# baseline (off) and the rows over it that keep a tag reference (not
# page_owner, which is not allocation profiling).
MATRIX = matrix.load()
ROWS = [m.name for m in MATRIX.group(MATRIX.main)
        if m.name == MATRIX.main or m.ref != "none"]
# The rows over another baseline: on Debian amd64's page-flag budget (0
# spare bits), against off-distro; stock's "1,compressed" switches
# profiling off there.
DISTRO = [m.name for b in dict.fromkeys(m.baseline for m in
                                        MATRIX.rows.values())
          if b != MATRIX.main for m in MATRIX.group(b)]


# --- text ------------------------------------------------------------------

def wrap(text):
    return "\n\n".join(textwrap.fill(p, 72, break_on_hyphens=False,
                                   break_long_words=False)
                     for p in text.strip().split("\n\n"))


def bullets(items):
    return "\n".join(textwrap.fill(it, 72, initial_indent="- ",
                                   subsequent_indent="  ",
                                   break_on_hyphens=False,
                                   break_long_words=False)
                     for it in items)


def heading(title):
    return "\n%s\n%s\n" % (title, "-" * len(title))


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def series_of(version):
    """"7.3" from "7.3.4+" or "7.3.4-1~bpo13+1"; None if it has none."""
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return "%s.%s" % m.groups() if m else None


# --- tables as plain text ---------------------------------------------------

def clean(cell):
    """A Markdown cell as plain text: no backticks, bold or link syntax."""
    cell = re.sub(r"!?\[([^]]*)\]\([^)]*\)", r"\1", cell)
    return cell.replace("`", "").replace("**", "").strip()


def plain(table):
    """A (header, rows) table of the report as (header, right-aligned
    flags, rows), its cells without Markdown."""
    header, rows = table
    rows = [[clean(str(c)) for c in r] for r in rows]
    return header, [numeric(r[i] for r in rows)
                    for i in range(len(header))], rows


def numeric(cells):
    """Right-align a column when every cell in it is a number."""
    cells = [c for c in cells if c]
    return bool(cells) and all(re.match(r"^[-+]?[0-9][0-9.,]*%?$", c)
                               for c in cells)


def pick(table, cols):
    """Only the columns named in cols: a name, or (label, [names]) for one
    column made of "name value" pairs, those whose value is 0 left out.
    Unknown names are dropped; with none left, the table is kept whole."""
    header, right, rows = table
    idx = {h: i for i, h in reversed(list(enumerate(header)))}
    spec = []
    for c in cols:
        if isinstance(c, tuple):
            parts = [idx[n] for n in c[1] if n in idx]
            if parts:
                spec.append((c[0], parts, False))
        elif c in idx:
            spec.append((c, [idx[c]], right[idx[c]]))
    if not spec:
        return table

    def cell(r, parts):
        if len(parts) == 1:
            return r[parts[0]]
        return ", ".join("%s %s" % (header[i], r[i]) for i in parts
                         if r[i] not in ("0", ""))
    return ([s[0] for s in spec], [s[2] for s in spec],
            [[cell(r, s[1]) for s in spec] for r in rows])


def plain_table(header, right, rows, width=72, indent=2, gap=2):
    """Columns padded with spaces; headers, then cells, wrap at spaces
    when the table would be wider than width, narrowing first the column
    that costs the fewest extra lines."""
    n = len(header)

    def fill(c, x):
        return textwrap.wrap(c, x, break_on_hyphens=False,
                             break_long_words=False) or [""]

    def height(w):
        return sum(max(len(fill(c, w[i])) for i, c in enumerate(r))
                   for r in [header] + rows)

    def longest_word(s):
        return max([len(w) for w in s.split()] + [0])
    cellw = [max([len(r[i]) for r in rows] + [1]) for i in range(n)]
    minw = [max([longest_word(r[i]) for r in rows] +
                [longest_word(header[i]), 1]) for i in range(n)]
    w = [max(cellw[i], len(header[i])) for i in range(n)]

    def total():
        return indent + sum(w) + gap * (n - 1)
    if total() > width:
        w = [max(cellw[i], minw[i]) for i in range(n)]
    while total() > width:
        can = [j for j in range(n) if w[j] > minw[j]]
        if not can:
            break
        i = min(can, key=lambda j: (height(w[:j] + [w[j] - 1] + w[j + 1:]),
                                    -w[j]))
        w[i] -= 1

    def lines(row, bottom):
        cols = [fill(c, w[i]) for i, c in enumerate(row)]
        h = max(len(c) for c in cols)
        cols = [([""] * (h - len(c)) + c) if bottom else
                (c + [""] * (h - len(c))) for c in cols]
        return [(" " * indent + (" " * gap).join(
            c[k].rjust(w[i]) if right[i] else c[k].ljust(w[i])
            for i, c in enumerate(cols))).rstrip() for k in range(h)]
    body = [lines(r, False) for r in rows]
    out = lines(header, True)
    out.append(" " * indent + (" " * gap).join("-" * x for x in w))
    tall = any(len(b) > 1 for b in body)
    for k, b in enumerate(body):
        if tall and k:
            out.append("")
        out.extend(b)
    return "\n".join(out)


# --- measured figures --------------------------------------------------------

def sizes(mibs):
    """"1, 4 and 16 GiB" from MiB figures."""
    mibs = sorted(mibs)
    if mibs and all(m % 1024 == 0 for m in mibs):
        return listing(str(m // 1024) for m in mibs) + " GiB"
    return listing(str(m) for m in mibs) + " MiB" if mibs else "?"


def listing(words, conj="and"):
    words = list(words)
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " %s " % conj + words[-1]


def csv_stamp(micro, boot, series):
    """Where and when the figures were measured, from the CSVs."""
    rows = micro + boot
    if not rows:
        return None

    def vals(k, data=rows):
        return ", ".join(sorted({r.get(k, "?") for r in data})) or "?"
    ic = [r for r in rows if r.get("run", "").startswith("icount-")]
    dates = sorted(r.get("date", "") for r in rows)
    def mems(data):
        return sizes({int(r["mem_mib"]) for r in data
                      if r.get("mem_mib", "").isdigit()})
    text = ("Measured on Linux %s (Debian source %s) in QEMU %s, %s, "
            "-icount %s (one guest nanosecond is one instruction), %s vCPU; "
            "the microbenchmark in a %s guest, the boot at %s; runs from %s "
            "to %s." % (
                vals("kernel"), vals("debian_source"), vals("qemu"),
                vals("accel").upper(), vals("icount", ic or rows),
                vals("vcpus"), mems(micro), mems(boot),
                dates[0], dates[-1]))
    text += " Project commit %s." % vals("commit")
    kseries = {series_of(r.get("kernel")) for r in rows}
    if series and kseries != {series}:
        text += (" These figures were not taken on Linux %s, the base of "
                 "this series." % series)
    return text


def measured(res, series):
    """Instructions per order-0 alloc+free and page_ext per GiB, per row,
    and what they say about the fork against upstream's compressed mode."""
    micro, boot = res.optional_csv("micro.csv"), res.optional_csv("boot.csv")
    if not micro and not boot:
        return wrap("Not measured: results/ has no micro.csv or boot.csv "
                    "(run 'make bench').")
    if os.path.exists(res.path("NOT-RERUN.txt")):
        with open(res.path("NOT-RERUN.txt")) as f:
            first = f.read().split("\n\n")[1]
        stale = wrap(" ".join(first.split()))
    else:
        stale = None
    ins = {x: res.micro_icount(x, data.MODULE_SITE) if micro else None
           for x in ROWS}
    pe = {x: res.page_ext_per_gib(x) if boot else None for x in ROWS}
    off = ins["off"]

    def over(r):
        if ins[r] is None or not off:
            return None
        return ins[r] - off
    table = []
    for r in ROWS:
        d = over(r)
        table.append([
            r, "not measured" if ins[r] is None else "%.1f" % ins[r],
            "" if r == "off" or d is None else
            "%+.1f (%+.1f%%)" % (d, 100.0 * d / off),
            "not measured" if pe[r] is None else "%d" % pe[r],
            "" if pe[r] is None else "%.2f" % (pe[r] / 262144.0)])
    out = [wrap(
        "Guest instructions per order-0 alloc_pages()+__free_pages() pair "
        "in a module's loop (allocbench), and page_ext bytes for tagging "
        "per GiB of RAM (the largest over the guest sizes). 'off' is the "
        "stock source with profiling compiled out; 'stock-*' rows boot "
        "stock %s and 'fork-*' rows the series, both with profiling built "
        "in and CONFIG_MEM_ALLOC_PROFILING_DEBUG off, all from one "
        "tarball. %s"
        % (series, boot_args(micro + boot)))]
    when = csv_stamp(micro, boot, series)
    if when:
        out += ["", wrap(when)]
    if stale:
        out += ["", stale]
    out += ["", plain_table(
        ["row", "instructions", "over off", "page_ext per GiB",
         "a page"],
        [False, True, True, True, True], table)]
    missing = [r for r in ROWS if ins[r] is None]
    if missing:
        out += ["", wrap(
            "Not measured: %s %s no order-0 figure in results/micro.csv "
            "(icount-1 run, bench page, arg 0, kind hot), so %s left out "
            "of the comparison below." % (
                listing(missing), "has" if len(missing) == 1 else "have",
                "it is" if len(missing) == 1 else "they are"))]
    out += ["", bullets(comparison(ins, over, pe))]
    out += ["", distro(res, micro, survey.spare_bits(
        res.optional_csv("pageflags.csv"), "guest-distro"))]
    return "\n".join(out)


# Per-tag control's rows: what each is, in the order they are compared.
PER_TAG = [("fork-flags-pretag", "before per-tag control"),
           ("fork-flags", "no tag flagged"),
           ("fork-flags-other-off", "dup_mm's tag off"),
           ("fork-flags-tag-off", "measured tags off"),
           ("fork-disabled", "profiling off at boot")]
CAPTURE_MODES = {"none": "no flag", "flag": "flag set", "perf": "perf -g"}


def per_tag(res):
    """Instructions per order-0 pair at both call sites on the per-tag
    rows, and the capture flag's cost from results/capture/."""
    micro = res.optional_csv("micro.csv")
    rows = [(r, what, [res.micro_icount(r, data.SITES[k]) if micro else None
                       for k in ("module", "kernel")])
            for r, what in PER_TAG if r in MATRIX.rows]
    out = []
    if all(v is None for _, _, vs in rows for v in vs):
        out.append(wrap("Not measured: results/micro.csv has none of %s."
                        % listing([r for r, _, _ in rows])))
    else:
        out += [wrap(
            "Guest instructions per order-0 page alloc+free (icount), at "
            "allocbench's own call site and at a kernel one, on the rows "
            "that measure per-tag control, each on its own kernel or boot "
            "arguments (benchmarks/matrix.txt). The first row is the "
            "series cut before its per-tag control patch."), "",
            plain_table(["row", "what", "module site", "kernel site"],
                        [False, False, True, True],
                        [[r, what] + ["not measured" if v is None else "%.1f" % v
                                      for v in vs] for r, what, vs in rows])]
    out += [""]
    try:
        cost, _ = capture.load(res.path("capture"))
    except capture.CaptureError as e:
        out.append(wrap("The capture flag's cost is not measured (%s: run "
                        "'make capture')." % e))
        return "\n".join(out)
    per = {(c["site"], c["mode"]): float(c["total_ns"]) / int(c["n"])
           for c in cost}
    table = []
    for site, label in capture.SITES.items():
        v = [per.get((site, m)) for m, _ in capture.MODES]
        table.append([label] + ["" if x is None else "%.1f" % x for x in v])
    c0 = cost[0]
    out += [wrap(
        "The capture flag, on the same kernel built with tracefs (%s, "
        "Linux %s, project commit %s): the same pair with no flag, with "
        "the flag set while no event is enabled, and with 'perf record -g "
        "-a' taking alloc_tag_mem_alloced and alloc_tag_mem_freed."
        % (c0.get("kernel_variant", "fork-bench-tracing"), c0["kernel"],
           c0["commit"])), "",
        plain_table(["site"] + [CAPTURE_MODES[m] for m, _ in capture.MODES],
                    [False, True, True, True], table)]
    return "\n".join(out)


def distro(res, micro, spare):
    """The distro-budget rows, when results/micro.csv has them; spare is
    the page-flag survey's figure for that budget."""
    ins = {x: res.micro_icount(x, data.MODULE_SITE) if micro else None
           for x in DISTRO}
    off = ins[DISTRO[0]]
    if off is None or all(ins[r] is None for r in DISTRO[1:]):
        return wrap(
            "Not measured yet on Debian's amd64 page-flag budget: results/"
            "micro.csv has no %s rows. The fork-page_ext row above forces "
            "the page_ext form on the guest config instead."
            % listing(DISTRO, "or"))
    table = [[r, "not measured" if ins[r] is None else "%.1f" % ins[r],
              "" if r == DISTRO[0] or ins[r] is None else
              "%+.1f (%+.1f%%)" % (ins[r] - off, 100.0 * (ins[r] - off) / off)]
             for r in DISTRO]
    return "\n".join([wrap(
        "The same pair on Debian amd64's page-flag budget%s, where stock's "
        "1,compressed switches profiling off and the fork's falls back to "
        "page_ext:" % ("" if spare is None else " (%s spare bits)" % spare)),
        "", plain_table(
        ["row", "instructions", "over off-distro"], [False, True, True],
        table)])


def boot_args(rows):
    """Which boot arguments each row ran with, as the CSVs record them."""
    args = {}
    for r in ROWS:
        a = next((x.get("boot_args") for x in rows if x.get("row") == r), None)
        if a is not None:
            args.setdefault("none" if a in ("-", "") else a, []).append(r)
    if not args:
        return ""
    return "Boot arguments: %s." % "; ".join(
        "%s for %s" % (a, listing(rs)) for a, rs in args.items())


def comparison(ins, over, pe):
    """The fork against upstream, in sentences computed from the figures."""
    def absent(*rows):
        gone = [r for r in ("off",) + rows if ins[r] is None]
        if gone:
            return ("Not measured: %s, so %s cannot be compared here."
                    % (listing(gone), " with ".join(rows)))
        return None

    def more(a, b):
        d = a - b
        if abs(d) < 0.05:
            return "as many as"
        return "%.1f %s than" % (abs(d), "more" if d > 0 else "fewer")
    out = []
    s = absent("fork-flags", "stock-compressed")
    if s is None:
        a, b = over("stock-compressed"), over("fork-flags")
        s = ("Index in page flags: upstream's compressed form "
             "(stock-compressed) adds %.1f instructions over off, the "
             "fork's flags form (fork-flags) %.1f, %s upstream's%s."
             % (a, b, more(b, a),
                "" if a <= 0 else
                " (%.0f%% of its overhead)" % (100.0 * b / a)))
    out.append(s)
    s = absent("fork-page_ext", "stock-pointer")
    if s is None:
        a, b = over("stock-pointer"), over("fork-page_ext")
        s = ("No room in page flags: upstream switches profiling off in "
             "compressed mode, so the pointer form (stock-pointer, +%.1f) is "
             "all it can run there; the fork's page_ext form (fork-page_ext) "
             "adds %.1f, %s stock's pointer form." % (a, b, more(b, a)))
    out.append(s)
    s = absent("fork-pointer", "stock-pointer")
    if s is None:
        a, b = over("stock-pointer"), over("fork-pointer")
        s = ("Pointer form, unchanged in design: fork-pointer adds %.1f, "
             "stock-pointer %.1f." % (b, a))
    out.append(s)
    s = absent("fork-disabled", "stock-disabled")
    if s is None:
        a, b = over("stock-disabled"), over("fork-disabled")
        s = ("Compiled in but disabled (sysctl.vm.mem_profiling=0): "
             "fork-disabled adds %.1f, stock-disabled %.1f." % (b, a))
    out.append(s)
    known = [r for r in ROWS if pe[r] is not None]
    if known:
        byval = {}
        for r in known:
            byval.setdefault(pe[r], []).append(r)
        s = ("page_ext for tagging, per GiB: %s." % "; ".join(
            "%d bytes (%.2f a page) for %s" % (v, v / 262144.0, listing(rs))
            for v, rs in sorted(byval.items())))
        gone = [r for r in ROWS if pe[r] is None]
        if gone:
            s += (" Not measured in results/boot.csv: %s." % listing(gone))
    else:
        s = "page_ext: not measured (results/boot.csv has no icount rows)."
    out.append(s)
    return out


# --- per-function traces (make trace) ----------------------------------------

def trace_summary(res, series):
    traced = res.trace_rows()
    if not traced:
        return wrap("Not traced: results/trace/ has no traces "
                    "(run 'make trace').")
    linux = sorted({res.trace_meta(x).get("linux", "?") for x in traced})
    if {series_of(v) for v in linux} != {series}:
        return wrap(
            "The per-function instruction trace (make trace) has not been "
            "redone on %s yet: results/trace/ still holds traces of Linux "
            "%s, which tell nothing about this series, so none are quoted "
            "here." % (series, ", ".join(linux)))
    rows = {x: res.trace_counts(x) for x in ROWS}
    rows = {x: c for x, c in rows.items() if c}
    if "off" not in rows or len(rows) < 2:
        return wrap("Not traced: results/trace/ has no 'off' row or "
                    "nothing to compare it with (run 'make trace').")
    base = rows["off"]
    table = []
    for x, c in rows.items():
        if x == "off":
            continue
        diff = {f: c.get(f, 0) - base.get(f, 0) for f in set(c) | set(base)}
        top = sorted((f for f in diff if diff[f]), key=lambda f: -abs(diff[f]))
        table.append([x, "%+d" % (sum(c.values()) - sum(base.values())),
                      ", ".join("%s %+d" % (f, diff[f]) for f in top[:3])])
    m = res.trace_meta("off")
    return "\n".join([wrap(
        "Single-stepping one order-0 alloc_pages()+__free_pages() pair "
        "of a test module with gdb (QEMU's gdbstub), per row, and counting "
        "instructions per function (Linux %s, QEMU %s): 'off' takes %d; "
        "each row adds, and where most of it goes:"
        % (m.get("linux"), m.get("qemu"), sum(base.values()))), "",
        plain_table(
        ["row", "over off", "largest changes by function"],
        [False, True, False], table)])


def gain(res, ser):
    """The attribution table of results/README.md: stock, stock with the
    series' upstream fixes, and the fork, per form."""
    if not attribution.measured(res):
        return wrap("Not measured: results/ has none of the rows between "
                    "stock and the fork (run 'make bench').")
    # The build-time checks are prose: below the table, once a kernel.
    cells = attribution.cells(res)
    header, right, rows = plain((attribution.header(res)[:-1],
                                 [c[:-1] for c in cells]))
    checks = {}
    for c in cells:
        checks.setdefault(c[-1], []).append(c[0])
    return "\n".join([wrap(
        "Why link time? Per form: stock, stock with only patches 1 to %d "
        "(the upstream fixes, which need no index), the series with the "
        "kernel's tags numbered by a loop at boot instead of by "
        "scripts/link-tags (fork-bootnum, not posted), and the series. "
        "Guest instructions over 'off' per alloc+free pair from a module "
        "(bulk: per page of a 16-page alloc_pages_bulk()), instructions "
        "to /init against stock:" % ser.fixes), "",
        plain_table([clean(h) for h in header], right, rows), "",
        wrap("What each kernel checks when it is built:"),
        bullets(["%s: %s" % (listing(rows), clean(c))
                 for c, rows in checks.items()]), "",
        bullets([clean(x) for x in attribution.findings(res)])])


# --- surveys and checks ------------------------------------------------------

def pageflags(res):
    pf = res.optional_csv("pageflags.csv")
    if not pf:
        return wrap("Not measured: results/pageflags.csv is missing "
                    "(run 'make survey').")
    t = plain(survey.stock_table(pf))
    out = [wrap(
        "Spare page->flags bits per configuration, measured with the "
        "kernel's own headers after 'make prepare'. %s 'index bits' is "
        "what the flags form gets, min(16, spare); the fields listed are "
        "the widths that use up the word (those of width 0 left out):"
        % survey.stamp(pf)), ""]
    out.append(plain_table(*pick(t, [
        "config", "long", "spare", "index bits",
        ("fields", ["sections", "nodes", "zones", "last_cpupid",
                    "KASAN tag", "LRU gen", "LRU refs", "NR_PAGEFLAGS"])])))
    h, _, rows = t
    if "what" in h:
        out += ["", "The configurations:", ""]
        out.append(plain_table(["config", "what"], [False, False],
                               [[r[0], r[h.index("what")]] for r in rows]))
    whatif = survey.whatif_table(pf)
    if whatif:
        whatif = plain(whatif)
        out += ["", wrap("What frees bits in Debian's amd64 config, and what "
                         "each change costs:"), ""]
        out.append(plain_table(*pick(whatif, [
            "change", "spare", "index bits", "cost"])))
    return "\n".join(out)


def tagcounts(res):
    tc = res.optional_csv("tagcounts.csv")
    if not tc:
        return wrap("Not counted: results/tagcounts.csv is missing "
                    "(run 'make survey').")
    table = plain_table(*pick(plain(survey.tagcounts_table(tc)), [
        "config", "vmlinux tags", "module tags", "all loaded",
        "spare page-flag bits", "index goes to"]))
    return "\n".join([wrap(
        "Allocation tags per build, counted by link-tags on vmlinux and "
        "every module. %s" % survey.stamp(tc)), "", table])


def checks(work):
    out = []
    cp = read(os.path.join(work, "checkpatch.txt")) or ""
    totals = [l[len("total: "):] for l in cp.splitlines()
              if l.startswith("total:")]
    files = [l[3:] for l in cp.splitlines() if l.startswith("== ")]
    if files:
        out.append("scripts/checkpatch.pl --strict, per patch:")
        for f, t in zip(files, totals):
            out.append("  %s  %s" % (f.split("-", 1)[0], t))
    else:
        out.append("scripts/checkpatch.pl --strict: no patches to check.")
    be = read(os.path.join(work, "build-each.txt")) or ""
    out.append("")
    out.append(wrap("Each patch built on its own (scripts/rfc/build-each.sh, "
                    "incremental, guest config): %s" % build_each(be)))
    gm = read(os.path.join(work, "get_maintainer.txt")) or ""
    out.append("\nscripts/get_maintainer.pl on the series:\n")
    out.append("\n".join("  " + l for l in gm.strip().splitlines()))
    return "\n".join(out)


def build_each(text):
    """build-each.txt in a sentence.  A run from patch N (RFC_FROM) follows
    the full run of the series it grew from: patches before N count from
    the full run (make-rfc checked they are the same commits), N and on
    from the later one."""
    runs = []
    for l in text.splitlines():
        if l.startswith("# build-each:"):
            m = re.search(r"series head ([0-9a-f]+),.*?(?:, from patch (\d+))?$",
                          l)
            runs.append({"head": m.group(1) if m else "?",
                         "from": int(m.group(2) or 1) if m else 1,
                         "ok": set(), "failed": set(), "base": None})
        elif runs and re.match(r"^(ok|FAILED) ", l):
            w = l.split()
            if w[2] == "base":
                runs[-1]["base"] = w[0]
            else:
                runs[-1]["ok" if w[0] == "ok" else "failed"].add(int(w[2]))
    if not runs:
        return text.strip() or "no record"
    parts = []
    for i, r in enumerate(runs):
        upto = runs[i + 1]["from"] - 1 if i + 1 < len(runs) else None
        ok = sorted(n for n in r["ok"] if upto is None or n <= upto)
        bad = sorted(n for n in r["failed"] if upto is None or n <= upto)
        first = r["from"]
        last = upto if upto is not None else max(ok + bad + [first - 1])
        parts.append("patches %d to %d at series head %s%s: %d of %d built%s"
                     % (first, last, r["head"],
                        "" if first == 1 else " on patch %d" % (first - 1),
                        len(ok), last - first + 1,
                        "; failed: %s" % listing([str(n) for n in bad])
                        if bad else "") +
                     ("" if r["base"] == "ok" else "; its base did not build"))
    return "; ".join(parts) + (
        " (the patches the two runs share are the same commits)"
        if len(runs) > 1 else "") + "."


# --- the prose ---------------------------------------------------------------

def problem(res, series):
    spare = survey.spare_bits(res.optional_csv("pageflags.csv"), "debian-amd64")
    debian = ("Debian's %s amd64 configuration, with NODES_SHIFT 10, 8192 "
              "CPUs, NUMA balancing and the multi-gen LRU all taking bits "
              "of the flags word, leaves %s spare bits (survey below)"
              % (series, spare) if spare is not None else
              "Debian's amd64 configuration leaves next to none (see the "
              "survey below)")
    return wrap(
        "Memory allocation profiling keeps, for every allocated page, a "
        "reference to the allocation tag of the call site. By default it "
        "is a pointer in page_ext: 8 bytes a page, and a page_ext lookup "
        "on every allocation and free. Since 6.13, "
        "sysctl.vm.mem_profiling=1,compressed stores an index of the tag in "
        "spare page->flags bits instead. In %s that index is worked out "
        "from the tag's address each time it is stored: an offset from the "
        "first kernel tag, or, for a module, an offset into the area its "
        "tags are copied to at load. Which form is in use is tested with "
        "static_key_enabled(), a function call rather than a patched jump "
        "when jump labels are enabled; the field's offset and mask are "
        "variables loaded on every access; and every store is a cmpxchg "
        "loop on page->flags.\n\n"
        "When the spare bits cannot hold the kernel's tag indices, "
        "compressed mode has nothing to fall back to: profiling is "
        "switched off at boot, and a module whose tags do not fit at load "
        "switches it off as well and removes /proc/allocinfo. %s. Debian "
        "does not enable profiling today, but a kernel built from that "
        "configuration could only use the pointer form.\n\n"
        "Two smaller problems: a module parameter's set callback that "
        "allocates a page runs before the module's tags have counters, and "
        "oopses; and a module unloaded with live allocations drops out of "
        "/proc/allocinfo and the ioctl while its tags go on counting the "
        "frees." % (series, debian))


def differences():
    return bullets([
        "Indices: stored in the tag, by scripts/link-tags for the kernel "
        "and by the loader for a module, instead of computed from the "
        "tag's address on every store.",
        "Too few bits: the index moves to 2 bytes of page_ext and "
        "profiling stays on, instead of profiling being switched off.",
        "Hot paths: a constant offset and mask instead of variables, an "
        "atomic OR at "
        "allocation and no store of its own at free instead of a cmpxchg "
        "loop for each.",
        "Modules that do not fit: their pages are counted on one overflow "
        "line, everything else on their own lines, instead of switching "
        "profiling off; unloaded modules stay listed until their "
        "allocations are freed.",
    ])


class Series:
    """The posted patches in order, from format-patch's files in WORK-DIR:
    the prose names a patch by a piece of its subject, never by a number
    written by hand, so that inserting a patch renumbers the text."""

    def __init__(self, work):
        self.subjects, fixes = [], []
        for name in sorted(os.listdir(work)):
            if not name.endswith(".patch") or name.startswith("0000-"):
                continue
            with open(os.path.join(work, name)) as f:
                text = f.read()
            m = re.search(r"^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)", text, re.M)
            if not m:
                sys.exit("cover-letter.py: %s: no Subject: line" % name)
            self.subjects.append(" ".join(m.group(1).split()))
            fixes.append(re.search(r"^Fixes: ", text, re.M) is not None)
        # The upstream fixes come first: count them up to the first patch
        # without a Fixes: tag.
        self.fixes = (fixes + [False]).index(False)

    def patch(self, key):
        """'Patch N', N the one patch whose subject contains key."""
        if not self.subjects:
            return "A patch"
        hits = [i + 1 for i, s in enumerate(self.subjects) if key in s]
        if len(hits) != 1:
            sys.exit("cover-letter.py: %d patches' subjects contain %r; "
                     "the design section names each patch by a unique "
                     "piece of its subject" % (len(hits), key))
        return "Patch %d" % hits[0]


def design(ser):
    p = ser.patch
    return bullets([
        "Patches 1 to %d fix stock 7.3" % ser.fixes + " and stand alone, each with a Fixes: "
        "tag. " + p('mark a tag inaccurate when its per-cpu') + " marks a tag ' accurate:no' when a per-cpu area it "
        "allocates goes uncounted (the first chunk keeps no tag "
        "references), instead of showing live areas as nothing. " + p('leave ZONE_DEVICE folios') + " "
        "leaves ZONE_DEVICE folios out of tag swaps: device pages carry no "
        "tag, and with compressed references their clear field read as a "
        "tag that was never set (a debug warning on every page migrated "
        "to or from device-private memory). " + p('set up allocation tags before parsing') + " sets up a module's "
        "allocation tags before parse_args(), so that no code of the "
        "module, parameter callbacks included, can reach a tag that is "
        "not ready (an oops today). " + p("look up a freed page's tag only for its tail") + " stops ___free_pages() from "
        "looking up the tag of an order-0 or compound page, which it threw "
        "away: only the tail pages of a non-compound high-order page need "
        "it. " + p("no frame in ___free_pages() for order-0") + " "
        "moves the rest of the tail-page work, the tag included, into "
        "an out-of-line function for non-compound high-order pages, "
        "and leaves order-0 and compound pages a test of the order "
        "and a put: the inlined reference handles had given every free "
        "a stack frame, profiling enabled or not. This helps kernels "
        "without profiling too: their ___free_pages() kept a frame "
        "for the tail loop. " + p("count LAST_CPUPID's page-flags width") + " counts LAST_CPUPID's width, not its shift, among the "
        "used page-flags bits: where the last cpupid lives outside "
        "page->flags, NR_UNUSED_PAGEFLAG_BITS was short by the whole "
        "shift. " + p('test the compressed mode with a static branch') + " tests the compressed mode with static branches "
        "instead of static_key_enabled() on the page tag hot paths. "
        "" + p('mark onlined pages as untagged') + " marks the pages of onlined memory untagged before they "
        "are freed to the buddy allocator, as boot memory's already are: "
        "with the debug option, the first memory online warned 'alloc_tag "
        "was not set'.",
        "" + p("keep every user's data naturally aligned") + " makes page_ext align each user's data to its size (up to "
        "a long). Every user today is a multiple of 8 bytes, so nothing "
        "moves; with a 2-byte user, page_table_check's atomic counters "
        "could otherwise straddle a cache line (a split lock).",
        "" + p('number allocation tags at link time') + " numbers the kernel's tags at link time. A host program, "
        "scripts/link-tags, runs after the final link of vmlinux, like "
        "sorttable, and reads ELF as sorttable does, through "
        "scripts/elf-parse.c: 32- and 64-bit, either byte order, any "
        "architecture, no library (an ET_DYN arm64 vmlinux keeps its "
        "pointers in RELATIVE relocations, which it reads). Kernel tags get "
        "2, 3, ... in section order (0 and 1 keep meaning none and empty); "
        "modules are left to the loader, so their link runs nothing extra. "
        "The index goes into 16 bits split off codetag's flags word, so "
        "struct codetag stays 32 bytes. The tag layout comes from a header "
        "generated at prepare time, and the build fails, with the counts, "
        "when the kernel's tags leave fewer than 4096 of the 65536 indices "
        "to modules.",
        "" + p('compressed tag references by link-time index') + " uses those indices for compressed references. The loader "
        "moves a module's indices to the module's place after the kernel's "
        "before any of its code runs; decoding stays array indexing. "
        "sysctl.vm.mem_profiling=1,compressed keeps the 16-bit index in "
        "page flags when every kernel tag's index fits the field there, and "
        "in 2 bytes of page_ext otherwise: profiling is never switched off "
        "for lack of bits, so 'compressed' may now allocate page_ext. "
        "CONFIG_MEM_ALLOC_PROFILING_INDEX_IN_PAGE_EXT always takes the "
        "page_ext form, to test and measure it where page flags have room; "
        "the boot syntax is unchanged. /proc/sys/vm/mem_profiling_ref names "
        "the form in one word (pointer, flags, page_ext), as tools and tests "
        "need to know whether page_ext takes memory; "
        "mem_profiling_compressed keeps its meaning. The field is the top "
        "of the bits between the page flags and the LRU refs, at most 16, "
        "with constant offset and mask checked at build time. Static "
        "branches pick the form. Allocation sets the field, known to be "
        "clear, with an atomic OR, since memory_failure() may set "
        "PG_hwpoison at any moment; free reads it and leaves the clearing "
        "to the flags store free_pages_prepare() already does; split, "
        "migration and clearing keep cmpxchg.",
        "" + p('KUnit tests for compressed tag references') + " adds KUnit tests: the field's place and width, every "
        "kernel tag's index decoding back to it, the page_ext slot's "
        "alignment, and overflow counting.",
        "" + p("keep an unloaded module's lines") + " keeps an unloaded module's lines, names copied, in "
        "/proc/allocinfo with ' unloaded:yes' (in the style of "
        "' accurate:no') and in the ioctl through a new byte taken from "
        "padding, until all its tags read zero bytes and calls; then its "
        "counters and its part of the module area are freed. The "
        "hand-over of the area happens under mod_lock with the unload; "
        "reclaim runs when /proc/allocinfo is opened or a module loads, "
        "never on a timer; the argument that a zero read is final is "
        "written at module_tags_live().",
        "" + p('give the page-flags form of page tag accounting no frame') + " gives the page-flags form no frame: the free side is "
        "inlined, the allocation side keeps a call that holds only the form "
        "test and the page-flags path, and the page_ext forms get a "
        "function of their own.",
        "" + p('patch the form test only on the allocation and free paths') + " keeps the static branches of the form test on the "
        "allocation and free paths only. The any-form helpers of the "
        "reference (get, update, put) move out of line, so folio split and "
        "swap, clearing and the rest share one copy of each branch instead "
        "of inlining their own: fewer jump table entries for every boot to "
        "sort. Boot profiles (instructions up to /init by function, from "
        "a QEMU TCG plugin) show where the fork's boot differs from "
        "stock's; the patch's message gives what it saved.",
        "" + p('write and read a page_ext index directly') + " lets the page_ext index form store and read its two "
        "bytes as the page-flags form does its field, instead of decoding "
        "a reference and encoding it back, and looks page_ext up in a "
        "read-side section of its own: one call a side instead of two.",
        "" + p('look a pfn up without a round trip') + " lets page_ext_lookup() use its pfn as is, instead of "
        "turning it into a struct page and back.",
        "" + p("read a tag's counters pointer once per update") + " reads a tag's counters pointer once per update: the "
        "per-cpu updates are asm statements that clobber memory, so the "
        "second reloaded it. It saves an instruction on every allocation "
        "and free, slab included, in every form.",
        "" + p("clear a page's tag index with the flags checked") + " makes the index field part of PAGE_FLAGS_CHECK_AT_PREP: "
        "free clears it on every page of a block, tail pages included, "
        "and check_new_page() reports a page that reaches allocation with "
        "it set. Before, a tail page freed 'empty' by free_reserved_pages() "
        "kept index 1, and the OR at its next allocation turned every even "
        "index into its neighbour.",
        "" + p("count an overflowed module's pages on the overflow line") + " gives a module whose tags find no index its own counters: "
        "only its pages, which carry the overflow line's index, are "
        "counted there; its objects stay on its own lines, which drain "
        "like any module's. Before, an unload with such objects alive "
        "freed the counters they still pointed at.",
        "" + p("take a high-order page's tag index with one load") + " "
        "lets ___free_pages() take the tag of a non-compound high-order "
        "page, which it needs before it drops its reference, as what the "
        "page stores (one load of page->flags in the flags form, a "
        "read-side section of its own in the page_ext forms), decoded only "
        "if it frees the tail pages itself; before, every such free "
        "decoded it through the out-of-line reference handles.",
        "" + p("count a bulk allocation's pages on their tag once") + " "
        "lets alloc_pages_bulk() work out the tag's bits once a call in "
        "the page-flags form, OR them into each page and count all its "
        "pages on the tag when the call is done, instead of a call, a "
        "lookup and two counter updates a page.",
        "" + p("uncount a freed page's bytes from its order") + " "
        "uncounts a freed page's bytes as PAGE_SIZE shifted by its "
        "order, instead of multiplying by a page count the free path "
        "works out for the tag alone.",
        "" + p("find a tag from its index with one base per range") + " "
        "decodes an index with a base per range, vmlinux's and the "
        "module area's, each biased by its first index and set at boot: "
        "a compare picks the base, with no subtraction and no branch.",
        "" + p("look up a held page's page_ext inline") + " adds "
        "page_ext_lookup_held(): for a page the caller holds, allocated "
        "or being freed, hot-remove cannot free its page_ext, since "
        "offlining waits for every page of the section to be free; the "
        "allocator's hooks look page_ext up inline, with no RCU "
        "read-side section and no range checks a valid pfn always "
        "passes.",
        "" + p("take a non-compound page's tag only when the page is shared") + " "
        "frees a non-compound high-order page that is ours alone by "
        "freezing its reference count from 1, one atomic operation as "
        "the put is, and takes the tag only when another holder may be "
        "left to free the first page.",
        "" + p("uncount free_pages_bulk()'s pages once") + " "
        "lets free_pages_bulk(), and so vfree(), uncount its pages in the "
        "page-flags form once for each run of pages with the same index, "
        "as alloc_pages_bulk() counts them, instead of two counter updates "
        "and a decode a page; the index is read as free_pages_prepare() is "
        "about to clear it.",
        "" + p("split a page's tag in the page-flags form") + " "
        "lets a split in the page-flags form copy the first page's index "
        "into each new head and count the new heads' calls with one "
        "update, instead of decoding and encoding a reference through the "
        "out-of-line handles for each: split_page() does this for every "
        "page of a block, and vmalloc() splits the blocks it allocates.",
        "" + p('add alloctop') + " adds tools/mm/alloctop, a top(1) for /proc/allocinfo: "
        "the sites holding the most, by bytes, calls, name or change, with "
        "the change and its rate between updates, summed by top-level "
        "directory or by module, filtered by the ioctl in the kernel; it "
        "falls back to the text where the ioctl is missing, and writes "
        "plain text or CSV for scripts.",
        "" + p("number module tags in every form") + " "
        "gives module tags their indexes in every form, pointer "
        "references included, so that an index names any tag: the module "
        "tag area is laid out in whole tags whenever the kernel's tags "
        "have link-time indexes.",
        "" + p("switch counting off per tag") + " "
        "adds per-tag control, kept in a byte for each index, and "
        "ALLOCINFO_IOC_SET_FLAGS, which sets or clears flags on the tags "
        "the GET commands' filter matches and says how many; it takes a "
        "features word, and fails with EINVAL on anything it does not "
        "know. Its one flag, ALLOCINFO_TAG_OFF, leaves a tag's allocations "
        "uncounted and marked empty, so that frees uncount nothing and "
        "turning it back on never unbalances the line, which ends with "
        "' counted:no' meanwhile. The hooks test the flag behind a static "
        "key that goes on with the first flag set. "
        + p("test setting and clearing tag flags") + " is its kselftest, "
        "and " + p("alloctop: set and clear tag flags") + " lets alloctop "
        "set and clear it with its filters.",
        "" + p("trace the allocations and frees of chosen tags") + " "
        "adds a second flag, ALLOCINFO_TAG_CAPTURE: the hooks emit "
        "alloc_tag:alloc_tag_mem_alloced and alloc_tag:alloc_tag_mem_freed "
        "(index, function, page or object, bytes, order, gfp flags) for "
        "the tags that have it, for perf, BPF or a tracefs trigger to take "
        "the task, the time and the stack. The allocation hooks trace on "
        "the out-of-line path that any flag already takes, so they gain no "
        "test; the free hooks test a second static key, on with the first "
        "capture flag. " + p("test the capture flag") + " extends the "
        "kselftest and " + p("set and clear the capture flag") + " alloctop.",
        "" + p("count only the tags named at boot") + " adds selective "
        "profiling: 'only=' in sysctl.vm.mem_profiling= names modules, "
        "files and functions, and every other tag starts off, the kernel's "
        "at the init of allocation profiling and a module's when it loads.",
        "The boot syntax gains only 'only=', and /proc/allocinfo changes "
        "only by the ' unloaded:yes' and ' counted:no' suffixes.",
    ])


def main():
    res, work = data.Results(sys.argv[1]), sys.argv[2]
    env = os.environ
    n = int(env["RFC_N"])
    series = env.get("RFC_SERIES") or series_of(env["RFC_KVER"])
    ser = Series(work)
    out = []
    if n == 0:
        out.append(wrap(
            "Status: this posting carries no patches. At project commit %s "
            "the series (kernel/patches/) is empty, so there is nothing to "
            "apply yet; the cover letter is generated anyway so that the "
            "page-flag budget and the tag counts below can be reviewed. The "
            "design section describes what the series is to implement."
            % env["RFC_COMMIT"]))
        out.append("")

    out.append(heading("Problem").lstrip("\n"))
    out.append(problem(res, series))
    out.append(heading("Design"))
    out.append(design(ser))
    out.append(heading("How this differs from upstream's compressed mode"))
    out.append(differences())
    out.append(heading("Measured against upstream"))
    out.append(measured(res, series))
    out.append(heading("What per-tag control costs"))
    out.append(per_tag(res))
    out.append(heading("Where the gain over stock comes from"))
    out.append(gain(res, ser))
    out.append(heading("Where the instructions go"))
    out.append(trace_summary(res, series))
    out.append(heading("Page-flag budget"))
    out.append(pageflags(res))
    out.append(heading("Tag counts"))
    out.append(tagcounts(res))
    out.append(heading("Checks"))
    out.append(checks(work))
    out.append("")
    out.append(wrap(
        "Base: Debian linux-source-%s %s (Linux %s)."
        % (series, env["RFC_DEBVER"], env["RFC_KVER"])))
    blurb = "\n".join(out) + "\n"

    path = os.path.join(work, "0000-cover-letter.patch")
    text = read(path)
    if text is None or "*** BLURB HERE ***" not in text:
        sys.exit("cover-letter.py: %s has no blurb placeholder" % path)
    text = text.replace("*** SUBJECT HERE ***", SUBJECT, 1)
    text = text.replace("*** BLURB HERE ***", blurb.rstrip("\n"), 1)
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
