"""Host load in the plain-TCG figures.

A row's wall time per guest instruction, on each microbenchmark and perf
workload, is its plain-TCG ns per op over its icount ns per op (which
counts instructions).  Emulation costs about the same per instruction in
every row, so a row whose TCG boot ran while the 2-core host was busy is
slower per instruction on everything, the user-space workloads included,
which the series does not touch: its wall times say nothing about the
kernel.  A per-op cost of the kernel's own (a slow path of the emulator
on one path, say) would raise only the workloads that take that path.

results/README.md gets the check for the run it publishes.
"""
import statistics

from .fmt import bench_label, md

# A row or a workload this many times its peers' median per instruction
# ran on a loaded host.
FLAG = 1.25


def workloads(r):
    """(label, wall, icount) getters for each TCG figure with an icount
    twin: the microbenchmark's cases, then the perf workloads."""
    out = []
    for key in r.micro_keys():
        out.append((bench_label(*key),
                    lambda row, k=key: r.micro_wall(row, k),
                    lambda row, k=key: r.micro_icount(row, k)))
    for w in dict.fromkeys(x["workload"] for x in r.perf):
        def icount(row, w=w):
            p = r.perf_icount(row, w)
            return float(p["ns_per_op"]) if p else None
        out.append((w, lambda row, w=w: r.perf_wall(row, w), icount))
    return out


def ratios(r, rows):
    """{row: {workload: wall ns per guest instruction}}"""
    out = {}
    for row in rows:
        got = {}
        for label, wall, icount in workloads(r):
            w, i = wall(row), icount(row)
            if w and i:
                got[label] = w[0] / i
        if got:
            out[row] = got
    return out


def check(r, rows=None):
    """Per row: (row, its median ns per instruction, that over the rows'
    median, workloads at FLAG times their median over the rows or more,
    workloads compared, loaded)."""
    if rows is None:
        have = {x["row"] for x in r.micro + r.perf}
        rows = [x for x in r.matrix.names() if x in have]
    rat = ratios(r, rows)
    if not rat:
        return []
    per_row = {row: statistics.median(v.values()) for row, v in rat.items()}
    mid = statistics.median(per_row.values())
    labels = dict.fromkeys(lb for v in rat.values() for lb in v)
    wmid = {lb: statistics.median(v[lb] for v in rat.values() if lb in v)
            for lb in labels}
    out = []
    for row, v in rat.items():
        slow = [lb for lb, x in v.items() if x >= FLAG * wmid[lb]]
        out.append((row, per_row[row], per_row[row] / mid, slow, len(v),
                    per_row[row] >= FLAG * mid))
    return out


def table(checked):
    hdr = ["row", "wall ns per guest instruction (median)", "vs the rows' "
           "median", "workloads at %.2fx their median or more" % FLAG,
           "host loaded"]
    rows = [[row, "%.3f" % m, "%.2fx" % rel, "%d of %d" % (len(slow), n),
             "yes" if loaded else "no"]
            for row, m, rel, slow, n, loaded in checked]
    return hdr, rows


def section(r):
    """The check for results/README.md, or "" without TCG figures."""
    checked = check(r)
    if not checked:
        return ""
    loaded = [c[0] for c in checked if c[5]]
    s = ["## Wall time per guest instruction: host load (TCG)\n",
         "Each row's plain-TCG ns per op over its icount ns per op, on every "
         "microbenchmark case and perf workload, the median over them "
         "(benchmarks/report/hostload.py). The emulator costs about the "
         "same per instruction in every row; a row at %.2f times the rows' "
         "median or more ran while the host was busy, on everything at once, "
         "and its wall times above say nothing about the kernel.\n" % FLAG,
         md(table(checked)) + "\n"]
    s.append(("Rows that ran on a loaded host: %s.\n" % ", ".join(
        "`%s`" % x for x in loaded)) if loaded else
        "No row ran on a noticeably loaded host.\n")
    return "\n".join(s)

