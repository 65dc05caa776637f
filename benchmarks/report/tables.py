"""The benchmark tables, each a (header, rows) pair of cells, from the data
module and the verdicts; fmt.md() writes one as Markdown.  The cells carry
Markdown's backticks; the RFC strips them (scripts/rfc/cover-letter.py)."""
import re

from . import data, targets as targets_mod
from .data import WORKLOADS
from .fmt import bench_label, fmt_n, fmt_pct, md, pct
from .targets import extremes, verdict


def vs_header(r, first, rows=None):
    """A row's column, and after it one against the row it is taken over
    (Matrix.over()), named; for rows (r.rows unless given)."""
    hdr = [first]
    for row in r.rows if rows is None else rows:
        o = r.matrix.over(row)
        hdr += [row] if o is None else [row, "vs %s" % o]
    return hdr


def micro_icount(r, rows=None, keys=None):
    """Instructions per op of each case (keys, every one measured on rows
    unless given) and row (rows, r.rows unless given), each row beside its
    baseline."""
    rows = r.rows if rows is None else rows
    out = []
    for k in r.micro_keys(rows) if keys is None else keys:
        line = [bench_label(*k)]
        for row in rows:
            v = r.micro_icount(row, k)
            line.append(fmt_n(v))
            o = r.matrix.over(row)
            if o is not None:
                line.append(fmt_pct(pct(v, r.micro_icount(o, k))))
        out.append(line)
    return vs_header(r, "operation (alloc + free)", rows), out


def other_slab(r, family):
    """The slab cases (data.Results.slab_keys(), the charged ones too in a
    family with memory cgroups) of one family of rows over another
    baseline, as micro_icount(): the cases some row of the family has
    figures of."""
    rows = [x for x in r.other_rows if r.matrix.family(x) == family]
    keys = [k for k in r.slab_keys(r.memcg(*rows))
            if any(r.micro_icount(x, k) is not None for x in rows)]
    return micro_icount(r, rows, keys)


def wall_lines(r, keys, value, fmt):
    """A line per (label, key) of KEYS: each row's VALUE(row, key), a
    (median, min, max, ...) tuple in FMT, and, for a row over a baseline,
    its median over the baseline's."""
    out = []
    for label, key in keys:
        line = [label]
        for row in r.rows:
            w = value(row, key)
            line.append("" if w is None else fmt % w[:3])
            o = r.matrix.over(row)
            if o is not None:
                b = value(o, key)
                line.append(fmt_pct(pct(w and w[0], b and b[0])))
        out.append(line)
    return out


def micro_wall(r):
    keys = [(bench_label(*k), k) for k in r.micro_keys(r.rows)]
    return (vs_header(r, "operation (alloc + free)"),
            wall_lines(r, keys, r.micro_wall, "%.1f [%.1f–%.1f]"))


def shape(got):
    """A workload's trajectories and repeats (data.Results.perf_shape) as
    "3 × 5"."""
    n, lo, hi = got
    return "%d × %s" % (n, lo if lo == hi else "%d–%d" % (lo, hi))


def traj_range(span):
    """The range of a row's trajectory figures (data.Results.perf_span):
    min–max, and its width in % of the median."""
    m, lo, hi = span
    return "%.1f–%.1f (%.2f%%)" % (lo, hi, (hi - lo) * 100 / m) if m else ""


def perf_icount(r, rows=None):
    """Per workload and row (rows, r.rows unless given): instructions an
    op, the median and the range of its trajectories' figures (data's
    TRAJ_RULE), how many trajectories of how many repeats, that median
    over the row it is taken over, and the counters of trajectory 1's
    median repeat."""
    rows = r.rows if rows is None else rows
    hdr = ["workload", "row", "ns/op (= instructions), median",
           "range across trajectories", "trajectories × repeats",
           "vs its baseline", "task-clock ms", "page-faults",
           "context-switches"]
    out = []
    for w, label in WORKLOADS:
        first = True
        for row in rows:
            sp = r.perf_span(row, w)
            if sp is None:
                continue
            o = r.matrix.over(row)
            base = o and r.perf_span(o, w)
            p, n = r.perf_icount(row, w), r.perf_shape(row, w)
            out.append([label if first else "", row, fmt_n(sp[0]),
                        traj_range(sp) if n[0] > 1 else "-", shape(n),
                        "" if o is None else "%s (%s)" % (fmt_pct(
                            pct(sp[0], base and base[0])), o)] +
                       (["%.2f" % (int(p["task_clock_ns"]) / 1e6),
                         p["page_faults"], p["context_switches"]]
                        if p else ["", "", ""]))
            first = False
    return hdr, out


def noise_width(span, n):
    """How wide a row's noise is on a workload: its trajectories' range,
    max minus min, in instructions an op and in % of their median (n
    trajectories)."""
    m, lo, hi = span
    if n < 2:
        return "0.0 (1 trajectory)"
    return "%.1f (%.2f%%)" % (hi - lo, (hi - lo) * 100 / m if m else 0)


def workload_noise(r, j):
    """How wide the noise of a workloads target (j, judged by
    targets.judge()) is on each workload: the range across trajectories
    of each row it compares; what the row adds and what its limit lets it
    add (medians); and the margin, how far under the limit, with every row
    at its least and at its most favourable trajectory."""
    t = targets_mod.spec(j)
    rows, _, margin = targets_mod.workload_terms(r, t)
    allows = "+%s%% of `%s`" % (t.limit, rows[1]) \
        if t.kind == "workloads_within" else \
        "%s of what `%s` adds" % (t.limit, rows[2])
    hdr = ["workload"] + ["range of `%s`" % x for x in dict.fromkeys(rows)] + [
        "`%s` adds" % t.row, allows, "margin, least to most favourable",
        "verdict"]
    out = []
    for w, _ in WORKLOADS[1:]:
        spans = [r.perf_span(x, w) for x in rows]
        if None in spans:
            continue
        m = [sp[0] for sp in spans]
        least, most = extremes(rows, spans, margin)
        out.append([w] + [noise_width(sp, r.perf_shape(x, w)[0])
                          for x, sp in dict(zip(rows, spans)).items()] +
                   ["%+.1f (%s)" % (m[0] - m[1], fmt_pct(pct(m[0], m[1]))),
                    "%+.1f" % margin(m[1], *m[1:]),
                    "%+.1f to %+.1f" % (least, most), verdict(least, most)])
    return hdr, out


def perf_wall(r):
    keys = [(label, w) for w, label in WORKLOADS]
    return (vs_header(r, "workload"),
            wall_lines(r, keys, r.perf_wall, "%.0f [%.0f–%.0f]"))


def boot(r):
    hdr = ["guest RAM", "row", "to /init, icount (ms)",
           "to /init, tcg median [min–max] ms", "MemTotal MiB",
           "MemFree MiB", "MemAvailable MiB",
           "MemAvailable vs its baseline", "page_ext bytes",
           "page_ext % of RAM"]
    out = []
    for mem in r.mems():
        for row in r.rows:
            b = r.boot_icount(row, mem)
            if b is None:
                continue
            w = r.boot_wall(row, mem)
            ram = int(mem) * 1024 * 1024
            pe = int(b["page_ext_bytes"])
            dav = ""
            o = r.matrix.over(row)
            base = o and r.boot_icount(o, mem)
            if base:
                d = (int(b["memavail_kb"]) - int(base["memavail_kb"])) * 1024
                dav = "%+d B (%+.3f%%, %s)" % (d, d * 100.0 / ram, o)
            out.append([
                "%d GiB" % (int(mem) // 1024), row,
                "%.3f" % (int(b["init_ns"]) / 1e6),
                "" if w is None else "%.1f [%.1f–%.1f]" % w[:3],
                "%.1f" % (int(b["memtotal_kb"]) / 1024),
                "%.1f" % (int(b["memfree_kb"]) / 1024),
                "%.1f" % (int(b["memavail_kb"]) / 1024),
                dav, pe, "%.3f%%" % (pe * 100.0 / ram)])
    return hdr, out


def bill_columns(r):
    """The memory bill's columns: the whole bill, then its parts, which
    sum to it (data.Results.BILL_PARTS)."""
    return ["MemAvailable"] + r.BILL_PARTS


def memory_bill(r):
    """Per guest size and row (every measured row over a baseline of
    another row), what profiling costs in memory over the row's baseline,
    KiB by part (data.Results.bill)."""
    cols = bill_columns(r)
    hdr = ["guest RAM", "row", "over"] + ["%s KiB" % c for c in cols]
    out = []
    for mem in r.mems():
        for row in r.measured():
            base = r.matrix[row].baseline
            if base == row:
                continue
            b = r.bill(row, mem)
            out.append(["%d GiB" % (int(mem) // 1024), row, base] +
                        (["%+d" % b[c] for c in cols] if b else
                         ["not measured"] + [""] * (len(cols) - 1)))
    return hdr, out


def spread_cell(res):
    """(median, largest, row) of a part's spreads, as a cell."""
    if res is None:
        return ""
    return "%g, %d (`%s`)" % res if res[1] else "0"


def memory_resolution(r):
    """Per part of the memory bill and guest size, what two boots of one
    kernel differ by (data.Results.bill_resolution): the median row's
    spread over its boots, and the largest, with its row."""
    mems = r.mems()
    res = {mem: r.bill_resolution(mem) for mem in mems}
    hdr = ["KiB"] + ["%d GiB: median, largest" % (int(m) // 1024)
                     for m in mems]
    out = []
    for c in bill_columns(r):
        out.append([c] + [spread_cell(res[m].get(c)) for m in mems])
    return hdr, out


def mem_per_gib(r):
    hdr = ["row", "page_ext bytes per GiB", "bytes per 4 KiB page",
           "% of RAM"]
    out = []
    for row in r.rows:
        p = r.page_ext_per_gib(row)
        if p is not None:
            out.append([row, "%.0f" % p, "%.2f" % (p / 262144),
                        "%.3f%%" % (p * 100 / 2**30)])
    return hdr, out


def other_baselines(r, family):
    """The rows of one family over another baseline (the distro rows, the
    NUMA rows), each against the row it is taken over (matrix.over()): a
    baseline of the fork's tree against stock's."""
    key = data.MODULE_SITE
    hdr = ["row", "kernel", "reported form", "profiling",
           "order-0 page alloc+free (instructions)", "over", "vs it",
           "page_ext bytes per GiB"]
    out = []
    for row in [x for x in r.other_rows if r.matrix.family(x) == family]:
        m = r.matrix[row]
        over = r.matrix.over(row)
        base = r.micro_icount(over, key) if over else None
        v = r.micro_icount(row, key)
        per = r.page_ext_per_gib(row)
        out.append([row, "`%s`" % m.kernel, m.ref,
                    {"1": "on", "0": "off"}.get(m.enabled, "compiled out"),
                    fmt_n(v) if v is not None else "-",
                    over or "",
                    "" if base is None or v is None
                    else fmt_pct(pct(v, base)),
                    "%.0f" % per if per is not None else "-"])
    return hdr, out


def cache(r, kind):
    """Lines and misses per op, one column group a call site."""
    keys = r.cache_keys(kind)
    site = {"page": "module", "kpage": "kernel"}
    hdr = ["row"]
    for k in keys:
        w = site.get(k[0], k[0])
        if kind == "hot":
            hdr += ["%s: lines/op" % w, "vs baseline", "%s: L1 misses/op" % w]
        else:
            hdr += ["%s: lines/op" % w, "%s: L1 misses/op" % w,
                    "%s: L2 misses/op" % w]
    out = []
    for row in r.cache_rows():
        base_row = r.matrix[row].baseline
        line = [row]
        for k in keys:
            c, b = r.cache_fig(row, k), r.cache_fig(base_row, k)
            if c is None:
                line += ["-", "-", "-"]
            elif kind == "hot":
                line += ["%.2f" % c["op_lines"],
                         "" if row == base_row or b is None else
                         "%+.2f" % (c["op_lines"] - b["op_lines"]),
                         "%.3f" % c["l1"]]
            else:
                line += ["%.2f" % c["lines"], "%.3f" % c["l1"],
                         "%.3f" % c["l2"]]
        out.append(line)
    return hdr, out


def targets(judged, facts=False):
    """The targets, or with facts=True the design's facts, judged."""
    want = "yes" if facts else "no"
    return (["fact" if facts else "target", "verdict", "measured"],
            [[t["target"], t["verdict"], t["measured"]] for t in judged
             if t["fact"] == want])


def short(t):
    """A target in a few words, for the lead table: its kind, site and
    limit."""
    what = {"share": "%s of peer" % t["limit"], "within": "+%s%%" % t["limit"],
            "pages_within": "every page row +%s%%" % t["limit"],
            "pages_share": "every page row %s of peer" % t["limit"],
            "workloads_share": "every workload %s of peer" % t["limit"],
            "workloads_within": "every workload +%s%%" % t["limit"],
            "memory_share": "memory %s of peer" % t["limit"],
            "delta": "%s of %s" % (t["limit"], t["peer"]),
            "slab": "slab %s of %s" % (t["limit"], t["peer"]),
            "slab_share": "every slab case %s of peer" % t["limit"],
            "slab_within": "every slab case +%s" % t["limit"],
            "profile_top": "no slab hook in a workload's top %s" %
            t["limit"]}.get(
                t["kind"], t["kind"])
    site = "" if t["site"] == "-" else t["site"] + " "
    return "%s%s%s" % (site, what, " (stretch)" if t["stretch"] == "yes" else "")


def case_names(verdict):
    """A verdict with its cases named and their figures left out:
    "not met: files (+200 vs +300); spawn (...); within noise: stream
    (...)" reads "not met: files; spawn. within noise: stream"."""
    out = []
    for part in verdict.split("; "):
        what, sep, case = part.partition(": ")
        if sep and what in ("not met", "within noise", "within resolution",
                            "not measured"):
            out.append([what, []])
        else:
            case = part
        if not out:
            return verdict
        case = re.sub(r" \([^()]*\)$", "", case)
        if case:
            out[-1][1].append(case)
    return ". ".join("%s: %s" % (w, "; ".join(c)) if c else w
                     for w, c in out)


def lead_pairs(judged):
    """(row, peer) of every row with an instruction target over its peer,
    in the targets' order."""
    return list(dict.fromkeys((t["row"], t["peer"]) for t in judged
                              if t["kind"] == "share"))


def lead(r, judged):
    """Each fork form against its stock 7.3 peer, with the verdicts."""
    verdicts = {}
    for t in judged:
        if t["fact"] == "no" and t["row"] != "*":
            verdicts.setdefault(t["row"], []).append(
                "%s: %s" % (short(t), case_names(t["verdict"])))

    def over(key):
        def f(row):
            v, o = r.micro_icount(row, key), \
                r.micro_icount(r.matrix[row].baseline, key)
            return "-" if v is None or o is None else "+%.1f" % (v - o)
        return f

    def ext(row):
        p = r.page_ext_per_gib(row)
        return "-" if p is None else "%.2f MiB" % (p / 2**20)

    def cache_fig(key, what):
        def f(row):
            c = r.cache_fig(row, key)
            return "-" if c is None else "%.2f" % c[what]
        return f
    cols = [over(data.MODULE_SITE), over(data.KERNEL_SITE),
            cache_fig(data.MODULE_SITE, "op_lines"),
            cache_fig(data.WORKING_SET, "l2"), ext]
    hdr = ["row / stock peer",
           "instr. over its off, module site",
           "instr. over its off, kernel site",
           "lines/op, hot", "L2 misses/op, working set",
           "page_ext per GiB", "target verdicts"]
    out = [["%s / %s" % (row, peer)] +
           ["%s / %s" % (f(row), f(peer)) for f in cols] +
           ["<br>".join(verdicts.get(row, ["-"]))]
           for row, peer in lead_pairs(judged)]
    return hdr, out


def headline(r):
    keys = [data.MODULE_SITE, ("kmalloc", "64", "hot")]
    hdr = ["row", "order-0 page (instr.)", "vs baseline",
           "kmalloc(64) (instr.)", "vs baseline", "page_ext per GiB",
           "page_ext a page"]
    out = []
    main = [m.name for m in r.matrix.kin(r.matrix.main)]
    for row in main:
        if row not in r.rows:
            out.append([row, "skipped: %s" % r.skip_reason(row), "", "", "",
                        "", ""])
            continue
        line = [row]
        for k in keys:
            v = r.micro_icount(row, k)
            line.append(fmt_n(v))
            o = r.matrix.over(row)
            line.append("" if o is None else "%s (%s)" % (fmt_pct(
                pct(v, r.micro_icount(o, k))), o))
        p = r.page_ext_per_gib(row)
        line.append("" if p is None else "%d B (%.2f MiB)" % (p, p / 2**20))
        line.append("" if p is None else "%.2f B" % (p / 262144))
        out.append(line)
    return hdr, out


def matrix(r):
    out = []
    for m in r.matrix.rows.values():
        out.append([m.name, "`%s`" % m.kernel, m.ref, m.enabled,
                    "`%s`" % m.args if m.args != "-" else "",
                    r.matrix.over(m.name) or "",
                    "measured" if m.name in r.measured() else
                    "skipped: " + r.skip_reason(m.name)])
    return ["row", "kernel", "representation", "enabled", "boot args",
            "over", "status"], out


def link_tags(r):
    lt = r.link_tags()
    if lt is None:
        return None
    notes, hdr, rows = lt
    return "\n".join(notes) + "\n\n" + md((hdr, rows))


