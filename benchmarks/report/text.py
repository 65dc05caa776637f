"""The English of results/README.md and of the headline block in the
top-level README.md, around the tables of tables.py."""
import re

from . import attribution, data, hostload, limit, tables, targets
from .fmt import bench_label, fmt_n, md

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def vals(rows, k):
    return ", ".join(sorted({x[k] for x in rows}))


def runs(rows):
    """When and at which project commit each row was measured."""
    by = {}
    for x in rows:
        by.setdefault(x["commit"], []).append(x)
    order = sorted(by, key=lambda c: min(x["date"] for x in by[c]))
    parts = []
    for c in order:
        dates = sorted(x["date"] for x in by[c])
        parts.append("project commit %s, %s to %s: %s" % (
            c, dates[0], dates[-1],
            ", ".join("`%s`" % w for w in dict.fromkeys(x["row"] for x in by[c]))))
    line = "- Runs: %s." % "; ".join(parts)
    if all(x.get("inputs") for x in rows):
        line += (" The raw data's `inputs` column says what each line "
                 "measured (`row_inputs` of `benchmarks/lib.sh`: the row's "
                 "matrix line, its kernel's patches and configs, and the "
                 "code that builds, boots and measures); `make bench` "
                 "measures a row again when they change, and the top of this "
                 "file lists the figures measured on other inputs than the "
                 "tree's.")
    if len(order) > 1:
        line += (" A figure over a row of another run (a baseline, a "
                 "stock peer) compares runs: instruction counts (icount) "
                 "do not depend on the host, but wall times compare only "
                 "as far as the runs' hosts and loads do, and boot figures "
                 "(instructions to /init, free memory) only as far as the "
                 "runs' initramfs match.")
    return line


def setup(r):
    rows = r.micro + r.perf + r.boot
    if not rows:
        return "No data."
    perfv = ", ".join(sorted({x["perf"] for x in r.perf})) or "-"
    events = ", ".join(sorted({x["events"] for x in r.perf})) or "-"
    mems = sorted({int(x["mem_mib"]) for x in rows})
    lines = [
        "- Base kernel: Linux %s (Debian source %s), one tarball for "
        "every row; benchmark kernels %s (`kernel/configs/`: `off` is "
        "the stock source with profiling compiled out, `stock-bench` "
        "stock 7.3 with profiling built in, `fork-bench` the series, "
        "both without `CONFIG_MEM_ALLOC_PROFILING_DEBUG`; "
        "`fork-bench-page_ext` is `fork-bench` with the index always in "
        "page_ext (`CONFIG_MEM_ALLOC_PROFILING_INDEX_IN_PAGE_EXT`); `page_owner` "
        "is `off` with `CONFIG_PAGE_OWNER=y`; the `-distro` ones are "
        "the same on Debian's page-flag budget)." % (
            vals(rows, "kernel"), vals(rows, "debian_source"),
            ", ".join("`%s`" % k for k in dict.fromkeys(
                x["kernel_variant"] for x in rows))),
        "- QEMU %s, accelerator %s, one vCPU (%s); icount modes: %s "
        "(`shift=0,sleep=off`: 1 guest ns = 1 instruction)." % (
            vals(rows, "qemu"), vals(rows, "accel"), vals(rows, "vcpus"),
            vals(rows, "icount")),
        "- Kernel arguments besides the row's own (icount; plain TCG): "
        "%s. `nolapic_timer` skips the APIC timer calibration, a "
        "`pause` spin that takes minutes of host time under icount "
        "(ticks come from the HPET/PIT instead); `tsc_early_khz` is the "
        "host TSC rate (TCG passes the host TSC through and the tiny "
        "guest has no HPET/PM timer to calibrate it against, so it "
        "would fall back to 4 ms jiffies)." % "; ".join(
            "`%s`" % a for a in sorted({x["harness_args"] for x in rows})),
        "- icount runs repeat exactly only with a fixed initramfs, RTC "
        "and serial file: `scripts/boot.sh -i` arranges that.",
        "- Guest memory: %s." % ", ".join(
            "%d GiB" % (m // 1024) if m % 1024 == 0 else "%d MiB" % m
            for m in mems),
        runs(rows + r.skipped),
        "- perf in the guest: %s (host userspace; the guest kernel is "
        "newer), events: %s (`sw`: task-clock, page-faults, "
        "context-switches; hardware counters report \"not supported\" "
        "under QEMU TCG)." % (perfv, events),
    ]
    return "\n".join(lines)


def trace_case(key):
    """The trace case (make trace) of a page row's key, or None."""
    bench, arg, kind = key
    if kind == "batch" and bench in ("page", "kmalloc", "cache"):
        return "%s-%s-batch" % (bench, arg)
    if kind != "hot" or bench not in ("page", "kpage", "bulk",
                                      "vmalloc") + data.SLAB_KINDS:
        return None
    return "%s-%s" % (bench, arg)


def traced_over(r, row, other, case="page-0"):
    """What ROW's traced pair of CASE runs over OTHER's, by function ("" if
    either was not traced)."""
    tc, oc = r.trace_counts(row, case), r.trace_counts(other, case)
    if tc is None or oc is None:
        return ""
    # A batch trace is a round of pairs: per pair, as the benchmark says.
    n, m = r.trace_pairs(row, case), r.trace_pairs(other, case)
    tc = {f: v / n for f, v in tc.items()}
    oc = {f: v / m for f, v in oc.items()}
    # A vmalloc() iteration's search for a free area depends on the ones
    # before it (see the trace README): the trace names, it does not weigh.
    return ("traced over `%s` (%s, %s call site%s%s): %s in all; most in "
            "%s" % (other, case, "kernel" if case.startswith("kpage") else
                    "module", ", per pair" if max(n, m) > 1 else "",
                    ", one iteration, whose vmap-area search varies"
                    if case.startswith("vmalloc") else "",
                    signed(sum(tc.values()) - sum(oc.values())),
                    most_over(tc, oc))) + by_kind(r, row, other, case)


def by_kind(r, row, other, case):
    """Where ROW's pair of CASE goes over OTHER, by kind of code, when ROW
    is the row the essential operations are counted on and OTHER its
    baseline (limit.budget), as "; by kind (...): ..."; else ""."""
    spec = limit.load()
    if row != spec.row or other != r.matrix[row].baseline:
        return ""
    got = limit.budget(spec, r, case)
    if got is None:
        return ""
    essential, rest, around, _ = got
    cells = ["essential operations %s" % limit.fmt(essential)]
    cells += ["%s %s" % (k, limit.fmt(v)) for k, v in rest.items() if v]
    cells.append("code around the hooks %s" % limit.fmt(around, "+"))
    return "; by kind (trace/README.md): " + ", ".join(cells)


def signed(x):
    """x with its sign: whole, or to a tenth where a round of pairs was
    divided."""
    return "%+d" % x if x == int(x) else "%+.1f" % x


def most_over(counts, other, n=6):
    """The n functions that run most over other's in counts (per-function
    instruction counts), as "`f` +d" cells."""
    diff = sorted(((counts.get(f, 0) - other.get(f, 0), f)
                   for f in set(counts) | set(other)), reverse=True)
    return ", ".join("`%s` %s" % (f, signed(d)) for d, f in diff[:n]
                     if d > 0)


def not_met(r, judged):
    """Each instruction target not met, per case it fails on: the
    functions in which that case's trace runs most over the baseline's
    (for a target held to another row, over that row's)."""
    out = []
    for t in judged:
        if t["kind"] not in targets.INSTRUCTION_KINDS or \
                not t["verdict"].startswith("not met"):
            continue
        parts, untraced = [], []
        for k in t.get("failing", []):
            case = trace_case(k)
            got = traced_over(r, t["row"], t["base"], case) if case else ""
            if got:
                parts.append("%s: %s" % (bench_label(*k), got))
            else:
                untraced.append(bench_label(*k))
        out.append("- `%s`, %s: %s." % (
            t["row"], tables.short(t), "; ".join(parts) + (
                "%s(not traced: %s)" % (" " if parts else "",
                                        "; ".join(untraced))
                if untraced else "")))
    for t in judged:
        if t["kind"] == "boot" and t["verdict"].startswith("not met"):
            out.extend(boot_not_met(r, t))
        # A row's slab pair held to another row's: the traced kmalloc()
        # and kmem_cache pairs.
        if t["kind"] == "slab" and t["verdict"].startswith("not met"):
            out.append("- `%s` against `%s`, slab paths: %s." % (
                t["row"], t["peer"], held_over(r, t, slab_cases(r, t))))
    for t in judged:
        if t["kind"] in targets.WORKLOAD_KINDS and \
                t["verdict"].startswith("not met"):
            out.append(workloads_not_met(r, t))
    for t in judged:
        if t["kind"] == "delta" and t["verdict"].startswith("not met"):
            out.append("- `%s` against `%s`, order-0 page pair: %s.%s" % (
                t["row"], t["peer"], held_over(r, t, PAGE_CASES),
                " " + t["why"] if t.get("why") else ""))
    return "\n".join(out)


def workloads_not_met(r, t):
    """Each workload a workloads target fails on: the kernel functions in
    which the row's workload profile (make bootprof) runs most over its
    baseline's, per op."""
    parts, untraced = [], []
    for w in t.get("failing", []):
        a, b = r.workload_profile(t["row"], w), r.workload_profile(t["base"], w)
        if a is None or b is None:
            untraced.append(w)
            continue
        n, m = int(a[0].get("ops", 1)), int(b[0].get("ops", 1))
        ca = {f: v / n for f, v in a[1].items()}
        cb = {f: v / m for f, v in b[1].items()}
        parts.append("%s: profiled over `%s` (kernel instructions an op): "
                     "%s in all; most in %s" % (
                         w, t["base"], signed(round(sum(ca.values()) -
                                                    sum(cb.values()), 1)),
                         most_over({f: round(v, 1) for f, v in ca.items()},
                                   {f: round(v, 1) for f, v in cb.items()})))
    return "- `%s`, %s: %s." % (t["row"], tables.short(t), "; ".join(parts) + (
        "%s(not profiled: %s)" % (" " if parts else "", "; ".join(untraced))
        if untraced else ""))


# The traced cases of the pairs a target held to another row is judged on.
PAGE_CASES = ("page-0", "kpage-0")
SLAB_CASES = ("kmalloc-64", "cache-64")


def slab_cases(r, t):
    """The traced slab pairs a slab target held to another row names:
    SLAB_CASES, traced or not, then every other hot slab case
    (data.SLAB_ROWS) traced on both rows."""
    more = [trace_case(k) for k in data.SLAB_ROWS]
    return SLAB_CASES + tuple(
        c for c in dict.fromkeys(more) if c and c not in SLAB_CASES and
        {t["row"], t["peer"]} <= set(r.trace_rows(c)))


def held_over(r, t, cases):
    """What a row held to another runs over it in each traced case."""
    got = [traced_over(r, t["row"], t["peer"], c) for c in cases]
    untraced = [c for c, g in zip(cases, got) if not g]
    return "; ".join([g for g in got if g] + (
        ["(not traced: %s)" % ", ".join(untraced)] if untraced else []))


def shape_words(got):
    """A workload's trajectories and repeats (data.Results.perf_shape) in
    words."""
    n, lo, hi = got
    return "%d trajector%s of %s repeat%s" % (
        n, "y" if n == 1 else "ies", lo if lo == hi else "%d to %d" % (lo, hi),
        "" if hi == 1 else "s")


def trajectory_counts(r, rows):
    """How many trajectories of how many repeats each of rows ran its
    workloads on, in words, rows of one count together."""
    by = {}
    for row in rows:
        got = {r.perf_shape(row, w) for w, _ in data.WORKLOADS} - {None}
        if got:
            by.setdefault(" or ".join(shape_words(g) for g in sorted(got)),
                          []).append(row)
    if len(by) == 1:
        return "every row ran %s" % list(by)[0]
    return "; ".join("%s ran %s" % (", ".join("`%s`" % x for x in v), k)
                     for k, v in by.items())


# make bench's workloads map at random places, which its trajectories
# sample a few of; make aslr's runs place every mapping alike.
ASLR_NOTE = (" Each trajectory places the workloads' mappings at random, "
             "as its kernel binary and its timing draw them: "
             "[aslr.md](aslr.md) runs the rows of the workloads targets "
             "again with `norandmaps` and judges the targets on those "
             "runs too.")


def workloads(r, rows, judged):
    """The workloads' table of rows, with how its figures are combined,
    and how wide the noise is for each workloads target over them."""
    hdr, lines = tables.perf_icount(r, rows)
    if not lines:
        return []
    out = ["Instructions an op under icount (1 GiB guest), each row "
           "against the row it is taken over: %s (the range's width in %% "
           "of the median; `-` for a row of one trajectory, which has "
           "none). On the workloads, %s. The counters are those of "
           "trajectory 1's median repeat. Targets over these figures are "
           "judged on the trajectories' extremes, as Targets says.%s\n" % (
               r.TRAJ_RULE, trajectory_counts(r, rows),
               ASLR_NOTE if {x["row"] for x in r.optional_csv("aslr.csv")}
               & set(rows) else ""),
           md((hdr, lines)) + "\n"]
    for j in judged:
        if j["kind"] in targets.WORKLOAD_KINDS and j["row"] in rows and \
                j["verdict"] != "not measured":
            out += ["How wide the noise is for `%s`, %s%s: instructions an "
                    "op; each row's range is the max minus the min of its "
                    "trajectories' figures (and that in %% of their "
                    "median); what the row adds and what its limit lets it "
                    "add are the medians'; the margin is how far under the "
                    "limit (negative: over) with every row at its least "
                    "and at its most favourable trajectory.\n" % (
                        j["row"], tables.short(j),
                        " (`%s`)" % j["peer"]
                        if j["kind"] == "workloads_share" else ""),
                    md(tables.workload_noise(r, j)) + "\n"]
    return out


def other_section(r, family, judged=()):
    """The section of one family of rows over another baseline than the
    main tables' (the distro rows, and any other: the NUMA rows), with
    the noise of the workloads targets of judged over them."""
    rows = [x for x in r.other_rows if r.matrix.family(x) == family]
    if family == "off-distro":
        head = ["## On Debian's page-flag budget (distro rows)\n",
                "Kernels built with `kernel/configs/distro.config`, "
                "which leaves the same spare page-flag bits as Debian "
                "7.3's amd64 config (none; `make test` checks the two "
                "agree). Stock's `1,compressed` finds no room and "
                "switches profiling off for the whole boot; the fork's "
                "keeps profiling with a 2-byte index in `page_ext`. "
                "Instructions under icount, 1 GiB guest, each row "
                "against its own tree's kernel with profiling compiled "
                "out on the same budget (`off-distro` for stock, "
                "`off-fork-distro` for the fork), and that one against "
                "stock's; the main tables do not include these rows.\n"]
    else:
        head = ["## Rows over `%s`\n" % family,
                "%s: a configuration of their own (`benchmarks/matrix.txt` "
                "says which, and their boot arguments), each row over "
                "`%s`, its tree's kernel with profiling compiled out in "
                "that configuration. Instructions under icount, 1 GiB "
                "guest; the main tables do not include these rows; the "
                "targets over them are in the targets' table.\n" % (
                    ", ".join("`%s`" % x for x in rows), family)]
    out = head + [md(tables.other_baselines(r, family)) + "\n"]
    hdr, lines = tables.other_slab(r, family)
    if lines:
        out += ["Slab cases, instructions per alloc+free under icount, each "
                "row against the row it is taken over, as in the "
                "microbenchmark table%s:\n" % (
                    "; memory cgroups are compiled in here, so accounted "
                    "`kmalloc()` takes the `kmalloc-cg` caches. The guest "
                    "runs every case in the root cgroup, where no object "
                    "is charged, but those marked charged: they repeat the "
                    "accounted ones in a child memory cgroup, on the same "
                    "caches, where each object's `obj_cgroup` is charged "
                    "and uncharged" if family in data.MEMCG_FAMILIES
                    else ""),
                md((hdr, lines)) + "\n"]
    got = workloads(r, rows, judged)
    if got:
        out += ["### Their perf stat workloads (icount)\n"] + got
    return out


def profiled_mib(meta):
    """The guest size of a boot profile (its 'mem=1G' word) in MiB, or
    None."""
    m = re.fullmatch(r"(\d+)([MG])", meta.get("mem", ""))
    return int(m.group(1)) * (1024 if m.group(2) == "G" else 1) if m else None


def boot_not_met(r, t):
    """Per row and guest size the boot target fails on: where the row's
    boot profile (make bootprof) executes more kernel instructions than its
    peer's, and how much of the time to /init is not kernel instructions
    at all (firmware, the decompressor, idle time icount skips)."""
    have = set(r.bootprof_rows())
    peer_of = dict(r.matrix.pairs())
    out = []
    for row, mem in t.get("failing", []):
        peer = peer_of.get(row)
        mib = int(mem)
        head = "- `%s` against `%s`, boot to `/init` at %d GiB" % (
            row, peer, mib // 1024)
        a, b = r.boot_icount(row, str(mib)), r.boot_icount(peer, str(mib))
        if a is None or b is None:
            continue
        late = int(a["init_ns"]) - int(b["init_ns"])
        if row not in have or peer not in have:
            out.append("%s: %+d (no boot profile of both rows)." % (head, late))
            continue
        (ma, ca), (_, cb) = r.bootprof(row), r.bootprof(peer)
        if profiled_mib(ma) != mib:
            out.append("%s: %+d (boot profiles taken at %s only)." % (
                head, late, ma.get("mem", "?")))
            continue
        ran = sum(ca.values()) - sum(cb.values())
        out.append("%s: %+d, of which the kernel's own instructions (boot "
                   "profile) %+d and the rest, %+d, firmware, the "
                   "decompressor and the idle time icount skips to the "
                   "next timer; the profile runs most over the peer's in "
                   "%s." % (head, late, ran, late - ran,
                            most_over(ca, cb) or "no function"))
    return out


def unprofiled(r):
    """Per baseline of another tree (a row with no BASE that names a stock
    PEER: the fork's source with profiling compiled out), what its tree
    changes for a kernel without profiling, over that peer, or ""."""
    cases = (("the order-0 page pair (module site)", data.MODULE_SITE),
             ("the order-0 page pair (kernel site)", data.KERNEL_SITE),
             ("the `kmalloc(64)` pair", data.KMALLOC_SITE))
    out = []
    for m in r.matrix.rows.values():
        if m.base != "-" or m.peer == "-" or m.name not in r.rows:
            continue
        parts = []
        for what, k in cases:
            a, b = r.micro_icount(m.name, k), r.micro_icount(m.peer, k)
            if a is None or b is None:
                continue
            parts.append("%s, %s instructions against %s (%+.1f)" % (
                what, fmt_n(a), fmt_n(b), a - b))
        if parts:
            out.append("`%s`, profiling compiled out on another tree "
                       "than `%s`'s (`kernel/configs/%s.config` names it), "
                       "against `%s`: %s. A row of that tree taken over "
                       "`%s` counts this difference as its own." % (
                           m.name, m.peer, m.kernel, m.peer,
                           "; ".join(parts), m.peer))
    return "\n\n".join(out)


def essential_ops(r):
    """The essential operations (limit.py) per traced case, as the row
    they are counted on does them, and how far that row is from them, or
    "" when no trace says where its instructions came from."""
    spec = limit.load()
    parts = []
    for c in r.trace_cases():
        got = limit.table(spec, r, c)
        if got is None:
            continue
        total = got[1]
        far = [row for row in limit.distances(spec, r, c, total)[1]
               if row[0] == spec.row]
        parts.append("`%s`, %d%s" % (c, total, "" if not far else
                                     " (`%s` %s over `%s`, %s above them)" % (
                                         spec.row, far[0][2], far[0][1],
                                         far[0][3])))
    if not parts:
        return ""
    return ("The operations any tag reference must do in a pair (the call "
            "site setting the task's tag, the reference stored and the two "
            "counters updated, then loaded, decoded and the counters taken "
            "back), in the instructions `%s` spends on them in each traced "
            "case, by its traces: the cost of one form, not a bound on the "
            "others, which may do them in fewer: %s. Each operation and "
            "every row's distance from them are in "
            "[trace/README.md](trace/README.md), with where the rest of "
            "%s pairs go, by kind of code (%s, and the code around "
            "the hooks)." % (spec.row, "; ".join(parts), limit.owner(spec),
                             ", ".join("`%s`" % k for k in spec.rest)))


def readme(r, judged, plots, stale=()):
    """results/README.md."""
    nchecked, mismatch = r.determinism()
    reasons = r.skip_reasons()
    skipped = [x for x in r.matrix.names()
               if x not in r.rows and x in reasons]
    s = []
    s.append("# Results\n")
    s.append("Generated by `make report` (`python3 -m benchmarks.report`) "
             "from the raw CSVs in "
             "this directory (one row a run): `micro.csv` (in-kernel "
             "microbenchmark), `perf.csv` (perf stat workloads), "
             "`boot.csv` (boot time and memory), `skipped.csv`; the "
             "verdicts are also in `targets.csv`. "
             "Rerun `make bench` to measure again, or `make report` to "
             "rebuild these tables from the CSVs. Do not edit by hand.\n")
    if stale:
        s.append("**Not every figure here is of the tree as it is.** These "
                 "raw data were measured on other inputs (kernel sources, "
                 "configs, modules, guest scripts: `row_inputs` and "
                 "`kernel_inputs` in `benchmarks/lib.sh`) than the tree's when this was "
                 "rendered (`inputs.txt`); the next `make results` "
                 "measures them again:\n")
        where = {}
        for place, name, _ in stale:
            where.setdefault(place, []).append(name)
        s.append("\n".join("- %s: %s" % (p, ", ".join(v) or "all")
                            for p, v in where.items()) + "\n")
    if r.rows:
        s.append("## The fork against stock 7.3\n")
        s.append("Each cell is row / peer. Order-0 page alloc+free: "
                 "guest instructions under icount (1 GiB guest) over "
                 "profiling compiled out in the row's own tree (the "
                 "matrix's `over` column: `off` for stock's rows, "
                 "`off-fork` for the fork's), with the tag at a "
                 "module call site (`alloc_pages()` in the benchmark "
                 "module) and at a kernel one (`alloc_page()` in "
                 "`net/core/sock.c`); cache lines one alloc+free touches "
                 "in a hot loop, and L2 misses per op over a working "
                 "set of %s pages, from the cache model (see Memory "
                 "traffic); `page_ext` bytes for tagging per GiB of RAM. "
                 "All targets are in the table after Setup.\n" %
                 (r.cache_fig(r.matrix.main, data.WORKING_SET) or
                  {"n": "?"})["n"])
        s.append(md(tables.lead(r, judged)) + "\n")
        if "lead" in plots:
            s.append("![fork against stock](lead.svg)\n")
        u = unprofiled(r)
        if u:
            s.append("### Without profiling\n")
            s.append(u + "\n")
        ess = essential_ops(r)
        if ess:
            s.append("### %s\n" % limit.title(limit.load()))
            s.append(ess + "\n")
    s.append("## Setup\n")
    s.append(setup(r) + "\n")
    s.append("Matrix (`benchmarks/matrix.txt`):\n")
    s.append(md(tables.matrix(r)) + "\n")
    if skipped:
        s.append("Skipped rows are not faked: the guest reads "
                 "`/proc/sys/vm/mem_profiling_ref` and a row runs only "
                 "when it reports the row's representation.\n")
    s.append("## Determinism (icount)\n")
    if mismatch:
        s.append("**The icount runs do NOT agree** (%d of %d figures "
                 "differ):\n\n" % (len(mismatch), nchecked) +
                 "\n".join("- " + m for m in mismatch[:40]) + "\n")
    else:
        s.append("Each icount configuration ran twice; all %d figures "
                 "(microbenchmark, perf workloads, boot, cache model) are "
                 "identical between the two runs. Tables show run 1, "
                 "and the workloads' every trajectory.\n" %
                 nchecked)
    s.append("## Targets\n")
    s.append("How a target over repeated figures (the microbenchmark's, "
             "the workloads') is judged: %s.\n" % targets.NOISE_RULE)
    s.append("The memory target is judged on %s; the boot target on %s.\n"
             % (targets.MEMORY_RULE, targets.BOOT_RULE))
    s.append(md(tables.targets(judged)) + "\n")
    s.append("Facts of the design, checked against the data: they follow "
             "from where each form keeps its index, or from the code the "
             "series changes, so they are not targets.\n")
    s.append(md(tables.targets(judged, facts=True)) + "\n")
    nm = not_met(r, judged)
    if nm:
        s.append("Where each target not met loses, per case it fails on: "
                 "the functions in which that case's traced pair runs most "
                 "instructions over the baseline's, from the per-function "
                 "traces in [trace/README.md](trace/README.md); for the "
                 "boot, from the boot profiles in "
                 "[bootprof/README.md](bootprof/README.md):\n")
        s.append(nm + "\n")
    if attribution.measured(r):
        s.append("## Where the gain over stock comes from\n")
        s.append("Per form: stock 7.3, then the series up to the head of "
                 "each posting that changes the form's paths (A, the "
                 "upstream fixes; B, the page free paths; C, an unloaded "
                 "module's lines; D, compact references; the fork adds E to "
                 "H: per-tag control, slab indexes, breakouts and "
                 "alloctop; `kernel/patches/series` names them), "
                 "and beside the fork the "
                 "fork with the kernel's tags numbered by a loop at boot "
                 "instead of by `scripts/link-tags` (`fork-bench-bootnum`, "
                 "`benchmarks/kernel/number-tags-at-boot.patch`), and the "
                 "fork. Instructions under icount over `%s` (1 GiB "
                 "guest; bulk: `alloc_pages_bulk()` of 16 pages and their "
                 "frees, per page), and to `/init` against the group's "
                 "stock row; the last column is what the row's kernel "
                 "checks when it is built rather than at boot.\n"
                 % r.matrix.main)
        s.append(md((attribution.header(r), attribution.cells(r))) + "\n")
        found = attribution.findings(r)
        if found:
            s.append("\n".join("- " + x for x in found) + "\n")
    s.append("## Microbenchmark: instructions per alloc+free "
             "(icount)\n")
    s.append("`allocbench` module, 1 GiB guest. One op = one allocation "
             "plus its free; `batch` allocates %s objects, then frees "
             "them; bulk is per page. Under `-icount shift=0` guest ns "
             "equal instructions. Each figure is %s; every target over "
             "these figures is judged on the repeats' extremes, as Targets "
             "says.\n" % ("256", r.REPEAT_RULE))
    s.append(md(tables.micro_icount(r)) + "\n")
    if "overhead" in plots:
        s.append("![overhead](overhead.svg)\n")
    s.append("`kmalloc` and `kmem_cache` objects: stock keeps an 8-byte "
             "pointer to the tag in each object's `slabobj_ext`; the fork "
             "keeps a 2-byte index there in the index forms (the flags "
             "and `page_ext` rows) and the pointer in `fork-pointer`. "
             "Besides the module's own `kmalloc()` and cache, the slab "
             "cases take the paths of the kernel's own objects: "
             "`kmalloc()` of 96 and 192 bytes, a private cache of "
             "dentry's 192 bytes, the same cache accounted (`SLAB_ACCOUNT`, "
             "as `filp` and `vm_area_struct`), `kmalloc(64, "
             "GFP_KERNEL_ACCOUNT)` (as pipes and file tables), "
             "`kmem_cache_alloc_lru()` with a memcg-aware `list_lru` on "
             "an accounted, reclaimable cache (as dentries and inodes), "
             "and `kmem_cache_alloc_node()` (as `task_struct` and skbuff "
             "heads); `docs/measuring.md` says more. "
             "Where the `kmalloc(64)` pair's instructions go, function by "
             "function, is in [trace/README.md](trace/README.md).\n")
    s.append("`page order 0, kernel call site` allocates through "
             "`skb_page_frag_refill()` with "
             "`net.core.high_order_alloc_disable=1`: one "
             "`alloc_page(GFP_KERNEL)` whose tag is in vmlinux "
             "(`net/core/sock.c`), freed by the module with "
             "`__free_page()`; it costs a few instructions more than "
             "the module's own `alloc_pages()` in every row, `off` "
             "included. `working set` allocates all N pages, then frees "
             "them (N = %s, far beyond the caches). `page_owner` is "
             "profiling "
             "compiled out with `CONFIG_PAGE_OWNER=y`, booted with "
             "`page_owner=on`: it saves a stack trace a page allocation "
             "(what a user might pick instead; its `page_ext` bytes are "
             "in Boot and memory).\n" % (
                 ", ".join("%s: %d MiB of pages, %d MiB of `struct "
                           "page`" % (n, int(n) // 256, int(n) // 16384)
                           for n in r.ws_sizes()) or "?"))
    if r.cache:
        s.append("## Memory traffic (cache model)\n")
        s.append("The `cachesim` QEMU plugin (`benchmarks/qemu-plugins/`) "
                 "feeds every guest load and store between the "
                 "benchmark module's markers into a cache model (%s; "
                 "the caches start empty at each window) under icount; "
                 "each configuration ran twice and the figures are "
                 "checked identical (Determinism). Hot loop: %s "
                 "alloc+free pairs; `lines/op` counts the distinct "
                 "64-byte lines each pair touches on its own (code "
                 "fetches excluded), `vs baseline` against the row's "
                 "baseline: the tag, its per-cpu counters and, for the "
                 "`page_ext` rows, the entry and the lookup's data, "
                 "some of which share lines with what the allocator "
                 "touches anyway. The working set below shows the "
                 "`page_ext` entries themselves: in the page-flags "
                 "forms the index lives in the `struct page` line "
                 "that every row touches.\n" % (
                     vals(r.cache, "cache_model"),
                     ", ".join(sorted({x["n"] for x in r.cache
                                       if x["kind"] == "hot"}))))
        s.append(md(tables.cache(r, "hot")) + "\n")
        s.append("Working set: all N pages allocated, then all freed, "
                 "in one window; `lines/op` is the window's distinct "
                 "lines over N, the misses are per op. `page_ext` "
                 "entries of neighbouring pages share a line (8 a line "
                 "with pointers, 32 with 2-byte indexes), so its extra "
                 "misses are a fraction of a line per page.\n")
        s.append(md(tables.cache(r, "ws")) + "\n")
        if "traffic" in plots:
            s.append("![memory traffic](traffic.svg)\n")
    s.append("## Microbenchmark: wall time per alloc+free (TCG)\n")
    s.append("ns per op, median [min–max] of %s repeats in one boot; "
             "QEMU TCG without icount (emulated, so absolute values are "
             "far from hardware). The host has 2 cores shared with other "
             "kernel builds, so these figures carry that load: read the "
             "icount tables for the cost, these for the order of "
             "magnitude.\n" %
             (r.micro_wall(r.rows[0], r.micro_keys()[0])[3]
              if r.rows and r.micro else "?"))
    s.append(md(tables.micro_wall(r)) + "\n")
    s.append("## perf stat workloads (icount)\n")
    s += workloads(r, r.rows, judged)
    s.append("## perf stat workloads: wall time per op (TCG)\n")
    s.append("ns per op, median [min–max].\n")
    s.append(md(tables.perf_wall(r)) + "\n")
    s.append(hostload.section(r))
    s.append("## Boot and memory\n")
    s.append("Time to `/init` from the printk timestamp of \"Run /init "
             "as init process\", which the console prints in whole "
             "microseconds (icount: virtual time, deterministic, where a "
             "ns is one instruction, so the figure is the instructions to "
             "`/init` at a resolution of %d; tcg: host time). The boot "
             "target is judged on %s. Meminfo read first thing in the guest "
             "command; page_ext from \"allocated N bytes of page_ext\".\n"
             % (r.INIT_TICK_NS, targets.BOOT_RULE))
    s.append(md(tables.boot(r)) + "\n")
    s.append("### The memory bill\n")
    s.append("What each row costs in memory over its baseline, in KiB, by "
             "the kernel's own accounting read first thing in the guest "
             "(icount run 1). `MemAvailable` is the whole bill, what a user "
             "loses, and the parts after it sum to it: what memblock kept "
             "from the page allocator (`MemTotal`'s drop): the kernel "
             "image (code, rwdata, rodata and bss of the boot's `Memory:` "
             "line), `Percpu` (its first chunk, memblock's, is all of it "
             "at this point of the boot) and the other reserved memory "
             "(struct pages, boot page tables); what the page allocator "
             "handed out: `page_ext` (allocated from it once memblock is "
             "done, so inside `MemTotal`), `Slab` (the slab metadata "
             "profiling adds, each object's tag reference, shows here) "
             "and the other allocated memory (page tables, stacks, rootfs "
             "files, and the per-CPU page lists, free pages `MemFree` "
             "leaves out: `Slab` and it can move against each other); and "
             "`MemAvailable`'s reclaim estimate (the watermarks less the "
             "reclaimable caches it counts). Negative: the row has more "
             "than its baseline.\n")
    s.append(md(tables.memory_bill(r)) + "\n")
    s.append("The resolution of each part: what two boots of one kernel "
             "differ by, each row's spread (max minus min over its boots: "
             "its icount runs, which replay each other exactly, and its "
             "TCG runs, whose timing differs) at one guest size, the "
             "median row's and the largest. A memory target is judged on "
             "%s.\n" % targets.MEMORY_RULE)
    s.append(md(tables.memory_resolution(r)) + "\n")
    if r.bootprof_rows():
        s.append("Where each boot's instructions go, function by "
                 "function, fork row against stock peer: "
                 "[bootprof/README.md](bootprof/README.md) "
                 "(`make bootprof`).\n")
    s.append("Largest page_ext per GiB over the guest sizes:\n")
    s.append(md(tables.mem_per_gib(r)) + "\n")
    if "memory" in plots:
        s.append("![memory](memory.svg)\n")
    for family in dict.fromkeys(r.matrix.family(x) for x in r.other_rows):
        s += other_section(r, family, judged)
    lt = tables.link_tags(r)
    if lt:
        s.append("## link-tags (host post-link pass)\n")
        s.append("From `benchmarks/link-tags/bench.sh` "
                 "(`link-tags.tsv`, every sample kept there).\n")
        s.append(lt + "\n")
    others = [(f, t) for f, t in (
        ("pageflags.md", "page-flag budget survey"),
        ("tagcounts.md", "allocation tag counts"),
        ("objsize.md", "object sizes of the kernels built"),
        ("aslr.md", "the judged workloads with user address "
         "randomization off, beside make bench's"),
        ("capture/README.md", "context capture: what it costs, one call "
         "site's stacks and their flame graph, an alloctop snapshot"),
        ("rfc", "RFC material")) if r.has(f) or
        (f.endswith(".md") and r.has(f[:-3] + ".csv")) or
        (f.startswith("capture/") and r.has("capture", "stacks.csv"))]
    if others:
        s.append("## Elsewhere in results/\n")
        s.append("\n".join("- [%s](%s)" % (t, f) for f, t in others) + "\n")
    return "\n".join(s)


def headline(r, judged):
    """The block between BEGIN and END in the top-level README.md."""
    rows = r.micro + r.boot
    dates = sorted(x["date"] for x in rows)
    return "\n".join([
        BEGIN,
        "Guest instructions per alloc+free pair (QEMU %s TCG, "
        "`-icount shift=0,sleep=off`, 1 vCPU, 1 GiB; Linux %s; "
        "%s; commit %s). Generated by `make report`; all "
        "tables, targets and plots: [results/README.md]"
        "(results/README.md).\n" % (
            vals(rows, "qemu"), vals(rows, "kernel"),
            dates[-1][:10] if dates else "?", vals(rows, "commit")),
        md(tables.headline(r)), "",
        md((["target", "verdict"],
            [[t["target"], t["verdict"]] for t in judged])),
        END])


def write_headline(path, block):
    with open(path) as f:
        text = f.read()
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + \
            text[text.index(END) + len(END):]
    else:
        if "\n## Results" not in text:
            text = text.rstrip("\n") + "\n\n## Results\n"
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def marks(name):
    """The lines around a generated block NAME of the tree's prose."""
    return "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name


def write_block(path, name, body):
    """Replace the block NAME of path (marks()) with body; a file without
    the block is an error, as nothing else of it is the report's."""
    begin, end = marks(name)
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        raise ValueError("%s: no %s ... %s block" % (path, begin, end))
    with open(path, "w") as f:
        f.write(text[:text.index(begin) + len(begin)] + "\n" + body + "\n" +
                text[text.index(end):])
