#!/usr/bin/env python3
"""Fill in the cover letter that scripts/rfc/make-rfc.sh had git format-patch
write: the subject and the blurb.  The prose is fixed; every figure and table
is read from results/ (results/README.md between <!-- results:begin --> and
<!-- results:end -->, results/pageflags.md, results/tagcounts.md) or from the
check outputs make-rfc.sh wrote beside the patches.

Usage: cover-letter.py RESULTS-DIR WORK-DIR   (environment: RFC_N, RFC_KVER,
RFC_DEBVER, RFC_COMMIT, RFC_DATE, RFC_SOURCE, set by make-rfc.sh)
"""
import os
import re
import sys
import textwrap

SUBJECT = "mm/alloc_tag: 16-bit tag indices in page flags, page_ext fallback"


def wrap(text):
    return "\n".join(textwrap.fill(p, 72, break_on_hyphens=False) for p in text.strip().split("\n\n"))


def bullets(items):
    out = []
    for it in items:
        out.append(textwrap.fill(it, 72, initial_indent="- ", break_on_hyphens=False,
                                 subsequent_indent="  "))
    return "\n".join(out)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def section(md, heading):
    """The body of '## heading' in a generated markdown file, up to the next
    heading, without blank lines at either end."""
    if md is None:
        return None
    m = re.search(r"^## " + re.escape(heading) + r"[^\n]*\n(.*?)(?=^## |\Z)",
                  md, re.S | re.M)
    return m.group(1).strip() if m else None


def tables(text):
    """Only the table lines (and the line before each table) of a block."""
    return "\n".join(l for l in text.splitlines() if l.startswith("|"))


def stamp_line(md):
    if md is None:
        return None
    m = re.search(r"^Kernel .*? generated .*$", md, re.M)
    return m.group(0).rstrip(".") if m else None


MODULE = "[allocbench module]"


def trace_counts(path):
    """Instructions per function of one traced alloc+free pair."""
    counts = {}
    for line in (read(path) or "").splitlines():
        if line and not line.startswith("#"):
            fn = line.split(None, 1)[1].strip()
            counts[fn] = counts.get(fn, 0) + 1
    return counts


def trace_stamp(path):
    """"Linux X, QEMU Y TCG -icount, commit Z" from a trace's header."""
    meta = {}
    for line in (read(path) or "").splitlines()[:3]:
        for word in line.lstrip("# ").split():
            if "=" in word:
                k, v = word.split("=", 1)
                meta[k] = v
    return "Linux %s, QEMU %s %s with -icount, project commit %s" % (
        meta.get("linux"), meta.get("qemu"), meta.get("accel", "").upper(),
        meta.get("commit"))


def trace_summary(d):
    """The trace rows (make trace) as prose: what compiled-in profiling
    costs with no reference at all, and what each reference adds."""
    rows = {r: trace_counts(os.path.join(d, r + ".txt"))
            for r in ("off", "pointer-disabled", "pointer", "compact",
                      "compact-ext")}
    if not all(rows.values()):
        return ("Not traced: results/trace/ lacks some rows "
                "(run 'make trace').")
    tot = {r: sum(c.values()) for r, c in rows.items()}
    base = tot["off"]
    mod = "alloc_tag_module_from_idx"
    text = [wrap(
        "results/trace/ single-steps one order-0 alloc_pages()+__free_pages() "
        "pair of the benchmark module with gdb, per row, and counts "
        "instructions per function (%s). Profiling compiled in but "
        "disabled already costs %d instructions over 'off' (%+.1f%%): %d "
        "in the caller for the alloc_hooks() wrapper that saves and restores "
        "current->alloc_tag, %d for post_alloc_hook() no longer inlined, "
        "the rest in the free path's static-key tests and its call to "
        "pgalloc_tag_sub(). Every representation pays that, so an "
        "instruction-count target near 5%% over 'off' cannot be met by "
        "changing the reference alone."
        % (trace_stamp(os.path.join(d, "off.txt")),
           tot["pointer-disabled"] - base,
           100.0 * (tot["pointer-disabled"] - base) / base,
           rows["pointer-disabled"].get(MODULE, 0) - rows["off"].get(MODULE, 0),
           rows["pointer-disabled"].get("post_alloc_hook", 0) -
           rows["off"].get("post_alloc_hook", 0)))]
    text.append("")
    text.append(wrap(
        "On top of that, enabled: pointer adds %d (page_ext_get/put %d), "
        "compact %d, compact-ext %d. Of compact's, %d go to decoding the "
        "module's indices (the benchmark is a module; a kernel tag decodes "
        "inline by array arithmetic), twice a pair because __free_pages() "
        "looks the tag up once and pgalloc_tag_sub() again."
        % (tot["pointer"] - tot["pointer-disabled"],
           rows["pointer"].get("page_ext_get", 0) +
           rows["pointer"].get("page_ext_put", 0),
           tot["compact"] - tot["pointer-disabled"],
           tot["compact-ext"] - tot["pointer-disabled"],
           rows["compact"].get(mod, 0))))
    return "\n".join(text)


def main():
    res, work = sys.argv[1], sys.argv[2]
    env = os.environ
    n = int(env["RFC_N"])
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

    out.append("Problem\n-------\n")
    out.append(wrap(
        "Memory allocation profiling (CONFIG_MEM_ALLOC_PROFILING, 6.10+) "
        "records, for every allocated page, a pointer to the call site's "
        "struct alloc_tag in page_ext. That is a 64-bit word of page_ext per "
        "page for tagging alone, and a page_ext lookup on every page "
        "allocation and free. Linux 6.12, the base here, has no compact "
        "form of the reference."))
    out.append("\nDesign\n------\n")
    out.append(bullets([
        "Link-time indices: a host tool, scripts/link-tags, runs after the "
        "final link of vmlinux (as scripts/sorttable does) and on each module "
        "in scripts/Makefile.modfinal. It writes a 16-bit index into each "
        "struct alloc_tag without growing it: 0 means no tag, 1 an empty "
        "reference, kernel tags count up from 2 in section order. Index to "
        "tag is array arithmetic for kernel tags.",
        "Module-range remapping: a module's tags carry local indices 0..n-1. "
        "At load the kernel reserves a range of n indices (first fit) and "
        "rebases them; a map from module index to tag, published under RCU "
        "with the range table, makes the free path's lookup O(1). The range "
        "is released at unload and reused. A module unloaded with live "
        "pages leaves a retired copy of its tags (strings copied; the "
        "module's per-cpu counters are kept, fixing 6.12's use after free "
        "of them) listed in /proc/allocinfo as [name(unloaded)] until the "
        "pages drain; then its range is released. A module that finds no "
        "room counts its pages on an explicit overflow line "
        "(func:alloc_tag_index_overflow) with a one-time warning, never on "
        "another tag; alloc_tag.module_indices shrinks the space to test it.",
        "Storage: the index goes into page->flags bits that nothing else "
        "uses when the configuration leaves enough (min(16, spare) bits, "
        "from page-flags-layout.h's own widths); otherwise into 2 bytes of "
        "page_ext. The representation (pointer, compact, compact-ext) is "
        "chosen at boot through the existing sysctl.vm.mem_profiling= "
        "parameter, on one kernel image; profiling is never switched off "
        "for lack of bits. /proc/allocinfo keeps its format.",
    ]))
    out.append("\nHow this differs from the 6.13 page allocation tag compression"
               "\n---------------------------------------------------------------\n")
    out.append(bullets([
        "Indices: 6.13 derives them by pointer arithmetic from the first "
        "kernel tag and copies module tags into one contiguous reserved "
        "virtual area (a maple tree, populated on demand) so the same "
        "arithmetic covers them. Here indices are assigned at link time and "
        "modules get index ranges, so nothing is copied while modules load "
        "and unload normally.",
        "Running out of bits: 6.13 switches profiling off with a warning, at "
        "boot or at module load. Here the index moves to page_ext (2 bytes "
        "a page) and profiling stays on: the page_ext fallback reviewers "
        "asked for, usable with distribution kernels, whose page flags are "
        "nearly full (see the survey below).",
        "Both count free bits the same way: BITS_PER_LONG minus the "
        "section, node, zone, last_cpupid, KASAN tag, LRU generation and "
        "LRU refs fields and NR_PAGEFLAGS.",
    ]))

    out.append("\nResults\n-------\n")
    m = None
    for readme in (os.path.join(res, "README.md"),
                   os.path.join(res, "..", "README.md")):
        m = re.search(r"<!-- results:begin -->\n?(.*?)<!-- results:end -->",
                      read(readme) or "", re.S)
        if m:
            break
    if m and m.group(1).strip():
        out.append(m.group(1).strip())
    else:
        out.append(wrap(
            "The benchmark results are not in this posting: results/README.md "
            "has no generated results block at project commit %s."
            % env["RFC_COMMIT"]))

    out.append("\nWhere the instructions go\n-------------------------\n")
    out.append(trace_summary(os.path.join(res, "trace")))

    pf = read(os.path.join(res, "pageflags.md"))
    out.append("\nPage-flag budget\n----------------\n")
    stock = section(pf, "Shipped and stock configurations")
    if stock:
        out.append(wrap("Spare page->flags bits per configuration, measured "
                        "with the kernel's own headers after 'make prepare'. "
                        "%s:" % stamp_line(pf)))
        out.append("")
        out.append(tables(stock))
        whatif = section(pf, "What frees bits in Debian's amd64 config")
        if whatif:
            out.append("\nWhat frees bits in Debian's amd64 config, and what "
                       "each change costs:\n")
            out.append(tables(whatif))
    else:
        out.append("Not measured: results/pageflags.md is missing "
                   "(run 'make survey').")

    tc = read(os.path.join(res, "tagcounts.md"))
    out.append("\nTag counts\n----------\n")
    if tc:
        m = re.search(r"^(\|.*\n)+", tc, re.M)
        out.append(wrap("Allocation tags per build, counted by link-tags on "
                        "vmlinux and every module. %s:" % stamp_line(tc)))
        out.append("")
        out.append(m.group(0).strip() if m else "(no table)")
    else:
        out.append("Not counted: results/tagcounts.md is missing "
                   "(run 'make survey').")

    out.append("\nChecks\n------\n")
    cp = read(os.path.join(work, "checkpatch.txt")) or ""
    totals = [l for l in cp.splitlines() if l.startswith("total:")]
    files = [l[3:] for l in cp.splitlines() if l.startswith("== ")]
    if files:
        out.append("scripts/checkpatch.pl --strict, per patch:")
        for f, t in zip(files, totals):
            out.append("  %s: %s" % (f, t))
    else:
        out.append("scripts/checkpatch.pl --strict: no patches to check.")
    be = read(os.path.join(work, "build-each.txt")) or ""
    last = [l for l in be.splitlines() if l.startswith("build-each:")]
    out.append("Each patch built on its own (scripts/rfc/build-each.sh, "
               "incremental, guest config): %s"
               % (last[-1][len("build-each: "):] if last else be.strip()))

    gm = read(os.path.join(work, "get_maintainer.txt")) or ""
    out.append("\nscripts/get_maintainer.pl on the series:\n")
    out.append("\n".join("  " + l for l in gm.strip().splitlines()))

    out.append("")
    out.append(wrap(
        "Generated by scripts/rfc/make-rfc.sh on %s from project commit %s; "
        "base: Debian linux-source-6.12 %s (Linux %s), kernel tree commit %s."
        % (env["RFC_DATE"], env["RFC_COMMIT"], env["RFC_DEBVER"],
           env["RFC_KVER"], env["RFC_SOURCE"])))
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
