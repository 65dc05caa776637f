"""Host load in the plain-TCG figures.

A row's wall time per guest instruction, on each microbenchmark and perf
workload, is its plain-TCG ns per op over its icount ns per op (which
counts instructions).  Emulation costs about the same per instruction in
every row, so a row whose TCG boot ran while the 2-core host was busy is
slower per instruction on everything, the user-space workloads included,
which the series does not touch: its wall times say nothing about the
kernel.  A per-op cost of the kernel's own (a slow path of the emulator
on one path, say) would raise only the workloads that take that path.

results/README.md gets the check for the run it publishes;
results/tcg-anomaly/ keeps the raw data of the run where fork-flags'
kmalloc looked 100 ns slower than its peers under TCG, and its README is
the same check over that data (see anomaly_readme()).
"""
import statistics

from .tables import bench_label, md

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
         "and its wall times above say nothing about the kernel. "
         "[tcg-anomaly/](tcg-anomaly/README.md) is the run where this "
         "looked like a cost of the page-flags form.\n" % FLAG,
         md(table(checked)) + "\n"]
    s.append(("Rows that ran on a loaded host: %s.\n" % ", ".join(
        "`%s`" % x for x in loaded)) if loaded else
        "No row ran on a noticeably loaded host.\n")
    return "\n".join(s)


def traces_note(index):
    """The traces' section, from traces/INDEX (file, tab, what it holds)."""
    s = ["## Traces of the loop, rebuilt at that commit and booted again\n",
         "fork-bench was rebuilt from the same series and booted again, "
         "alternately with `1,compressed` (fork-flags) and without "
         "(fork-pointer), under plain TCG on this 2-core host. The raw "
         "outputs are in [traces/](traces/):\n"]
    with open(index) as f:
        for line in f:
            name, _, what = line.rstrip("\n").partition("\t")
            if name:
                s.append("- [`%s`](traces/%s): %s." % (name, name, what))
    s.append("\nIn them the two forms cost the same per kmalloc(64) under "
             "TCG, and the page-flags form less per page, as icount says; "
             "the loop stores to no page that holds translated code, and "
             "both forms translate, invalidate, flush and enter translated "
             "code alike; with two busy loops beside it, every case of a "
             "boot slows together. Nothing in the kernel costs this on "
             "hardware, and the series has nothing to fix: the plain-TCG "
             "tables are read with the check of results/README.md beside "
             "them.\n")
    return "\n".join(s)


def anomaly_readme(r, note):
    """results/tcg-anomaly/README.md: the check over the kept run, each
    loaded row's workloads, and note (traces_note())."""
    checked = check(r)
    rat = ratios(r, [c[0] for c in checked])
    meta = r.micro[0] if r.micro else {}
    s = ["# The plain-TCG kmalloc anomaly of fork-flags\n",
         "Generated by `make report` from the raw data in this directory. "
         "`micro.csv` and `perf.csv` are the run published at project "
         "commit %s (date %s), kept here unchanged: in it, `fork-flags` "
         "took far longer per kmalloc()+kfree() under plain TCG than "
         "`fork-pointer` and `stock-compressed`, which run as many guest "
         "instructions per op under icount. Its wall time per guest "
         "instruction, on every case and workload of that boot:\n"
         % (meta.get("commit", "?"), meta.get("date", "?")),
         md(table(checked)) + "\n"]
    loaded = [c for c in checked if c[5]]
    for row, m, rel, slow, n, _ in loaded:
        mids = {lb: statistics.median(v[lb] for v in rat.values() if lb in v)
                for lb in rat[row]}
        s.append("`%s`, each workload against the rows' median for it:\n"
                 % row)
        s.append(md((["workload", "wall ns per instruction",
                      "rows' median", "ratio"],
                     [[lb, "%.3f" % x, "%.3f" % mids[lb],
                       "%.2fx" % (x / mids[lb])]
                      for lb, x in rat[row].items()])) + "\n")
    if loaded:
        s.append("The loaded boot is slower on everything: the slab and "
                 "page loops alike, and the perf workloads, user space "
                 "that the series does not touch. That is the host, not "
                 "a path of the kernel; an emulator slow path on the slab "
                 "path would raise the slab cases alone.\n")
    s.append(note)
    return "\n".join(s)
