#!/usr/bin/env python3
"""Fill in one posting's cover letter from its template.

make-rfc.sh has git format-patch write the cover letter, with its
"*** SUBJECT HERE ***" and "*** BLURB HERE ***" placeholders, the shortlog
and the diffstat.  The template (scripts/rfc/letters/X.txt) gives the
subject on its first line ("Subject: ...") and the blurb after a blank
line, as plain text wrapped at 72 columns.  In the blurb:

  ${name}             a word: kver, debver, series (see WORDS)
  @name ARGS...@      on a line of its own: a block (see BLOCKS)

Every figure comes from results/ through the report's data module
(benchmarks/report/data.py) as a plain cell, or from the check outputs
make-rfc.sh wrote (build-each.txt, heads.txt).  A figure that is missing
fails the letter: nothing is published as "not measured".

Usage: cover-letter.py --lint TEMPLATE...   (check templates only), or
       cover-letter.py RESULTS TEMPLATE COVER-LETTER CHECKS-DIR POSTING
FIRST LAST (the posting's letter and its first and last patch numbers in
the whole series; environment: RFC_KVER, RFC_DEBVER, RFC_SERIES, set by
make-rfc.sh)
"""
import os
import re
import statistics
import string
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from benchmarks.report import capture, data  # noqa: E402


class Missing(Exception):
    pass


def table(header, rows):
    """Space-padded columns, numbers right-aligned, indented by two."""
    def num(c):
        return re.match(r"^[-+]?[0-9][0-9.,]*%?( \(.*\))?$", c) is not None
    w = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    right = [all(num(r[i]) for r in rows if r[i]) for i in range(len(header))]

    def line(r):
        return ("  " + "  ".join(c.rjust(w[i]) if right[i] else c.ljust(w[i])
                                 for i, c in enumerate(r))).rstrip()
    return "\n".join([line(header), "  " + "  ".join("-" * x for x in w)] +
                     [line(r) for r in rows])


def wrap(text):
    return textwrap.fill(" ".join(text.split()), 72, break_on_hyphens=False)


def need(value, what):
    if value is None:
        raise Missing(what)
    return value


# --- blocks ------------------------------------------------------------------

def method(res, _checks, *_):
    """Where and how the figures were taken, from micro.csv's own columns,
    and the rule that combined the repeats."""
    rows = [r for r in res.micro if r["run"] == "icount-1" and
            (r["bench"], r["arg"], r["kind"]) == data.MODULE_SITE]
    if not rows:
        raise Missing("micro.csv has no icount run of the order-0 pair")
    def one(k):
        return ", ".join(sorted({r[k] for r in rows}))
    reps = len({r["rep"] for r in rows})
    spread = {}
    for r in rows:
        spread.setdefault(r["row"], []).append(float(r["ns_per_op"]))
    worst = max(max(v) - min(v) for v in spread.values())
    return wrap(
        "Method: every kernel is built from one tarball of Linux %s (Debian "
        "source %s) with one config, profiling's debug option off, and "
        "booted in QEMU %s (%s, %s vCPU, %s MiB) with -icount %s, which "
        "counts guest instructions exactly: one instruction is one guest "
        "nanosecond.  A module allocates and frees in a loop of %s; each "
        "figure is instructions per alloc+free pair, the median of %d "
        "repeats in one boot (the repeats of an order-0 pair differ by at "
        "most %.1f instructions).  Each kernel is taken over its own source "
        "with profiling compiled out ('profiling off'), and that of the "
        "series over 7.3's."
        % (one("kernel"), one("debian_source"), one("qemu"),
           one("accel").upper(), one("vcpus"), one("mem_mib"), one("icount"),
           one("n"), reps, worst))


def labelled(args):
    """[(row, label)] of ROW=LABEL arguments, '_' in LABEL for a space."""
    out = []
    for a in args:
        row, _, label = a.partition("=")
        out.append((row, label.replace("_", " ") or row))
    return out


def over_base(res, r, key):
    """Row r's figure over the row the report takes it over (its own
    tree's profiling-off row; for the fork's profiling-off row, stock's),
    as a cell; empty for stock's baseline."""
    base = res.matrix.over(r)
    if base is None:
        return ""
    v, b = (need(res.micro_icount(x, key), x) for x in (r, base))
    return "%+.1f (%+.1f%%)" % (v - b, 100 * (v - b) / b)


OVER = "over profiling off"


def pairs(res, _checks, *args):
    """Order-0 pair instructions and page_ext bytes per GiB of RAM, per
    row, each over its own tree's profiling-off kernel."""
    out = [[label, "%.1f" % need(res.micro_icount(r, data.MODULE_SITE), r),
            over_base(res, r, data.MODULE_SITE),
            "%d" % need(res.page_ext_per_gib(r), r)]
           for r, label in labelled(args)]
    return table(["kernel", "instructions", OVER, "page_ext/GiB"], out)


def slab(res, _checks, *args):
    """kmalloc(64) pair instructions per row, each over its own tree's
    profiling-off kernel, and the Slab memory after boot at the smallest
    guest size."""
    mem = need(res.mems() or None, "boot.csv")[0]
    out = []
    for r, label in labelled(args):
        boot = need(res.boot_icount(r, mem), "boot of " + r)
        out.append([label,
                    "%.1f" % need(res.micro_icount(r, data.KMALLOC_SITE), r),
                    over_base(res, r, data.KMALLOC_SITE),
                    need(boot.get("slab_kb") or None, "slab_kb of " + r)])
    return table(["kernel", "instructions", OVER, "Slab kB"], out)


def sites(res, _checks, *args):
    """Order-0 pairs at the module's call site and a kernel one."""
    out = [[label] + ["%.1f" % need(res.micro_icount(r, data.SITES[s]), r)
                      for s in ("module", "kernel")]
           for r, label in labelled(args)]
    return table(["kernel", "module site", "kernel site"], out)


def capture_cost(res, _checks, *modes):
    """Per-tag flags' cost per pair, from results/capture/: the modes named
    (capture.MODES' and capture.OTHER_MODES' keys; default the capture
    flag's), after "no flag"."""
    try:
        cost, _ = capture.load(res.path("capture"))
    except capture.CaptureError as e:
        raise Missing(str(e))
    labels = dict(capture.MODES + capture.OTHER_MODES)
    keys = ["none"] + [m for m in modes or [m for m, _ in capture.MODES[1:]]]
    for m in keys:
        if m not in labels:
            raise Missing("no capture mode '%s'" % m)
    per = {(c["site"], c["mode"]): float(c["total_ns"]) / int(c["n"])
           for c in cost}
    out = [[labels[m]] + ["%.1f" % need(per.get((s, m)),
                                        "capture %s %s" % (s, m))
                          for s in capture.SITES]
           for m in keys]
    # A mode a line, a site a column, so that the table keeps to 72 columns.
    return table(["flag"] + [capture.SHORT[s] for s in capture.SITES], out)


def capture_bpf(res, _checks, *_):
    """The kmalloc(64) pair with the capture flag and with a BPF tool that
    follows one call site instead (results/capture/bpf.csv), each over no
    flag."""
    try:
        per = capture.bpf_per(capture.load_bpf(res.path("capture")))
    except capture.CaptureError as e:
        raise Missing(str(e))
    base = need(per.get("none"), "bpf.csv: the pair with no flag")
    out = [[label, "%.1f" % need(per.get(m), "bpf.csv: mode " + m),
            "" if m == "none" else "%+.1f" % (per[m] - base)]
           for m, label in capture.BPF_MODES]
    return table(["kmalloc(64) pair", "instructions", "over no flag"], out)


def boot(res, _checks, *args):
    """Kernel instructions from reset to /init (make bootprof's exact
    counts), and the order-0 pair, per row, each over the first row's."""
    def total(r):
        try:
            return sum(res.bootprof(r)[1].values())
        except data.DataError as e:
            raise Missing(str(e))
    rows = labelled(args)
    first = [total(rows[0][0]),
             need(res.micro_icount(rows[0][0], data.MODULE_SITE), rows[0][0])]
    out = []
    for r, label in rows:
        b, p = total(r), need(res.micro_icount(r, data.MODULE_SITE), r)
        out.append([label, "%d" % b, "%+d" % (b - first[0]), "%.1f" % p,
                    "%+.1f" % (p - first[1])])
    return table(["kernel", "boot to /init", "over first", "order-0 pair",
                  "over first"], out)


def budget(res, *_):
    """Spare page-flags bits of Debian's configs of the series' kernel
    (make survey)."""
    want = "linux-config-" + os.environ["RFC_SERIES"] + " "
    out = [[r["config"], r["spare_bits"], r["compact_index_bits"]]
           for r in res.pageflags if want in r["base"] + " "]
    return table(["config", "spare bits", "index bits"], need(out or None,
                                                              "pageflags.csv"))


def tags(res, *_):
    """vmlinux tag counts against the 65536 indexes."""
    out = [[r["config"], r["tags"], r["headroom"]] for r in res.tagcounts
           if r["kind"] == "vmlinux" and not r["config"].startswith("guest-")]
    return table(["vmlinux", "tags", "indexes left"],
                 need(out or None, "tagcounts.csv"))


def each_sections(lines):
    """build-each.txt's builds by configuration, in its order: a list of
    (config, [line...]), a "# build-each: CONFIG ..." line opening each."""
    out = []
    for line in lines:
        m = re.match(r"^# build-each: (\S+) ", line)
        if m:
            out.append((m.group(1), []))
        elif out and re.match(r"^(ok|FAILED) +\d+s +\d{4} ", line):
            out[-1][1].append(line)
    return out


def names(items):
    """"a", "a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 \
        else items[0]


CONFIG_WORDS = {
    "x86_64": "x86_64 (tinyconfig with profiling, its debug option, KUnit, "
              "SMP, modules and CONFIG_WERROR)",
    "nomodules": "x86_64 with MODULES=n",
}


def checks(_res, chk):
    """What was built: each patch of the posting alone on every
    configuration of build-each.sh, and its head on every one of heads.sh."""
    posting, first, last = chk["posting"], chk["first"], chk["last"]
    sections = each_sections(chk["build-each"])
    if not sections:
        raise Missing("build-each.txt names no configuration")
    bad = []
    for cfg, lines in sections:
        each = [l for l in lines if first <= int(l.split()[2]) <= last]
        if len(each) != last - first + 1:
            raise Missing("build-each.txt lacks patches %d to %d on %s"
                          % (first, last, cfg))
        bad += ["%s on %s" % (l.split()[2], cfg) for l in each
                if l.startswith("FAILED")]
    heads = [l.split() for l in chk["heads"]
             if re.match(r"^(ok|FAILED) +\d+s +%s " % posting, l)]
    if not heads:
        raise Missing("heads.txt has no build of posting %s" % posting)
    cfgs = names([h[3] + ("" if h[0] == "ok" else " (FAILED)")
                  for h in heads])
    one = last == first
    n = last - first + 1
    where = names([CONFIG_WORDS.get(c, c) for c, _ in sections])
    if bad:
        built = "FAILED: " + ", ".join(bad)
    elif one:
        built = "it builds on each"
    else:
        built = "all %d build on each" % n
    return wrap(
        "%s on %s, with W=1 on the C files it touches: %s.  %s also built "
        "on %s.  checkpatch.pl --strict: %s."
        % ("The patch was built" if one else "Each patch was built alone",
           where, built, "It was" if one else "The last patch was", cfgs,
           chk["checkpatch"]))


BLOCKS = {"method": method, "pairs": pairs, "slab": slab, "sites": sites,
          "capture": capture_cost, "bpf": capture_bpf, "budget": budget,
          "tags": tags,
          "boot": boot, "checks": checks}


def render(res, chk, body, words):
    out = []
    for line in body.splitlines():
        m = re.match(r"^@(\w+)((?: [^@ ]+)*)@$", line)
        if m:
            if m.group(1) not in BLOCKS:
                raise Missing("no block @%s@" % m.group(1))
            out.append(BLOCKS[m.group(1)](res, chk, *m.group(2).split()))
        else:
            out.append(string.Template(line).substitute(words))
    return "\n".join(out).strip("\n")


def read_template(tmpl):
    """(subject, body) of a template; exits naming what is wrong with it:
    no subject, an unknown block or word, a line over 72 columns."""
    with open(tmpl) as f:
        head, _, body = f.read().partition("\n\n")
    if not head.startswith("Subject: ") or "\n" in head:
        sys.exit("%s: the first line is not 'Subject: ...'" % tmpl)
    for n, line in enumerate(body.splitlines(), 3):
        m = re.match(r"^@(\w+)", line)
        if m and m.group(1) not in BLOCKS:
            sys.exit("%s:%d: no block @%s@" % (tmpl, n, m.group(1)))
        for w in re.findall(r"\$\{(\w+)\}", line):
            if w not in WORDS:
                sys.exit("%s:%d: no word ${%s}" % (tmpl, n, w))
        if not m and len(line) > 72:
            sys.exit("%s:%d: longer than 72 columns" % (tmpl, n))
        # The list knows each posting by its subject, not by our letter
        if re.search(r"\bpostings? [A-Z]\b", line):
            sys.exit("%s:%d: names a posting by its letter" % (tmpl, n))
    return head[len("Subject: "):].strip(), body


WORDS = {"kver": "RFC_KVER", "debver": "RFC_DEBVER", "series": "RFC_SERIES"}


def main():
    if sys.argv[1:2] == ["--lint"]:
        for t in sys.argv[2:]:
            read_template(t)
        return
    res_dir, tmpl, cover, chkdir, posting, first, last = sys.argv[1:8]
    subject, body = read_template(tmpl)
    chk = {"posting": posting, "first": int(first), "last": int(last)}
    for name in ("build-each", "heads"):
        with open(os.path.join(chkdir, name + ".txt")) as f:
            chk[name] = f.read().splitlines()
    with open(os.path.join(chkdir, "checkpatch.txt")) as f:
        cp = f.read()
    n = cp.count("== ")
    clean = len(re.findall(r"^total: 0 errors, 0 warnings, 0 checks,", cp,
                           re.M))
    chk["checkpatch"] = ("clean" if clean == n == 1 else
                         "clean on all %d patches" % n if clean == n else
                         "%d of %d patches clean" % (clean, n))
    words = {w: os.environ[v] for w, v in WORDS.items()}
    res = data.Results(res_dir)
    try:
        blurb = render(res, chk, body, words)
    except (Missing, KeyError, data.DataError) as e:
        sys.exit("%s: cannot fill in the letter: %s" % (tmpl, e))
    with open(cover) as f:
        text = f.read()
    if "*** SUBJECT HERE ***" not in text or "*** BLURB HERE ***" not in text:
        sys.exit("%s: no placeholders to fill in" % cover)
    text = text.replace("*** SUBJECT HERE ***", subject)
    text = text.replace("*** BLURB HERE ***", blurb)
    tmp = cover + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, cover)


if __name__ == "__main__":
    main()
