"""results/trace/README.md (make trace) and results/bootprof/README.md
(make bootprof), from the raw traces and boot profiles beside them."""
from . import limit
from .fmt import md

TOP_N = 12  # functions listed per boot-profile pair


def case_pages(case):
    """Pages one iteration of a case allocates and frees."""
    kind, n = case.split("-")[:2]
    return int(n) if kind in ("bulk", "vmalloc") else 1


def case_title(case):
    if case.endswith("-batch"):
        return "%s, in batch rounds (every object allocated, then every " \
            "one freed; a trace is a round)" % case_title(case[:-6])
    kind, n = case.split("-")
    if kind == "bulk":
        return ("`alloc_pages_bulk()` of %s pages and their `__free_page()` "
                "calls" % n)
    if kind == "vmalloc":
        return ("`vmalloc()` of %s pages and its `vfree()` (its pages go "
                "back through `free_pages_bulk()`)" % n)
    if kind == "kmalloc":
        return "`kmalloc(%s)` + `kfree()`" % n
    if kind == "kmalloc_acct":
        return "`kmalloc(%s, GFP_KERNEL_ACCOUNT)` + `kfree()`" % n
    if kind == "cache":
        return "`kmem_cache_alloc()` + `kmem_cache_free()` of %s bytes" % n
    if kind == "acache":
        return ("`kmem_cache_alloc()` + `kmem_cache_free()` of %s bytes, "
                "`SLAB_ACCOUNT` cache" % n)
    if kind == "lru":
        return ("`kmem_cache_alloc_lru()` + `kmem_cache_free()` of %s bytes, "
                "`SLAB_ACCOUNT` and `SLAB_RECLAIM_ACCOUNT` cache, memcg-aware "
                "`list_lru`" % n)
    if kind == "node":
        return ("`kmem_cache_alloc_node()` on the CPU's node + "
                "`kmem_cache_free()` of %s bytes" % n)
    if kind == "kpage":
        return ("order-%s page of `skb_page_frag_refill()` + "
                "`__free_pages()` (kernel call site)" % n)
    return "order-%s `alloc_pages()` + `__free_pages()`" % n


def trace_table(r, case="page-0"):
    """Instructions per function and row; the rows with a trace."""
    rows = r.trace_rows(case)
    counts = {x: r.trace_counts(x, case) for x in rows}
    most = {}
    for c in counts.values():
        for fn, n in c.items():
            most[fn] = max(most.get(fn, 0), n)
    hdr = ["function"] + rows
    out = [["`%s`" % fn] + [str(counts[x].get(fn, 0)) for x in rows]
           for fn, _ in sorted(most.items(), key=lambda kv: (-kv[1], kv[0]))]
    tot = [sum(counts[x].values()) for x in rows]
    out.append(["**total**"] + ["**%d**" % t for t in tot])
    out.append(["vs %s" % rows[0]] + [
        "" if i == 0 else "%+d (%+.1f%%)" % (t - tot[0],
                                              100.0 * (t - tot[0]) / tot[0])
        for i, t in enumerate(tot)])
    pages = case_pages(case)
    if pages > 1:
        out.append(["per page"] + ["%.1f" % (t / pages) for t in tot])
    pairs = [r.trace_pairs(x, case) for x in rows]
    if max(pairs) > 1:
        out.append(["per pair"] + ["%.1f" % (t / n) for t, n in
                                   zip(tot, pairs)])
    return hdr, out


def limit_section(spec, r, case):
    """The case's essential operations and each row's distance from
    them."""
    got = limit.table(spec, r, case)
    if got is None:
        return ["No count of %s for this case: the trace of `%s` does not "
                "say which functions its instructions were inlined from "
                "(`make trace` traces it again).\n" % (limit.title(spec),
                                                       spec.row)]
    tab, total = got
    return ["### %s: %s instructions%s\n" % (
                limit.title(spec), limit.fmt(total),
                " a pair" if case.endswith("-batch") else ""),
            "The operations any tag reference must do in this pair, each "
            "counted in the trace of `%s` where its instructions came from "
            "(`benchmarks/trace/limit.txt` names the functions and source "
            "lines; the call site is the benchmark module's instructions "
            "over `%s`'s): that row's own cost of them, not a bound on "
            "other forms, which may do them in fewer.\n" % (
                spec.row, r.matrix[spec.row].baseline),
            md(tab), "", "How far each row is from them:\n",
            md(limit.distances(spec, r, case, total)), ""] + \
        budget_section(spec, r, case)


def budget_section(spec, r, case):
    """Where the whole of the spec's row's pair goes over its baseline:
    the essential operations, each other kind of tagging code, and the
    code around the hooks."""
    got = limit.budget_table(spec, r, case)
    if got is None:
        return []
    return ["#### Where all of %s pair goes\n" % limit.owner(spec),
            "Its difference from `%s`'s trace%s, each instruction counted "
            "once: the essential operations above, then each other kind "
            "of tagging code by the rules of "
            "`benchmarks/report/budget.txt` (its first match), then what is "
            "left, the code around the hooks (registers saved, code grown "
            "or moved in the functions that hold them; negative where "
            "they shrank).\n" % (
                r.matrix[spec.row].baseline,
                ", a pair" if case.endswith("-batch") else ""),
            md(got), ""]


def trace_readme(r):
    cases = [c for c in r.trace_cases() if r.trace_rows(c)]
    m = r.trace_meta(r.trace_rows(cases[0])[0], cases[0])
    out = ["# Where one alloc+free spends its instructions\n",
           "Generated by `make report` from the raw traces beside this "
           "file, which `make trace` (`benchmarks/trace/trace.sh`) takes: "
           "one iteration of one of allocbench's hot loops, single-"
           "stepped with gdb through QEMU's gdbstub after one warm-up "
           "iteration, for each case: %s. Each trace is an exact "
           "instruction count (QEMU %s, %s, `-icount %s`, Linux %s, commit "
           "%s). Functions that the compiler inlined count in their "
           "caller. A trace lists each address once, in the order it first "
           "ran, with the times it ran and its symbol. The iteration traced "
           "is the one under way when gdb attaches, which the host's timing "
           "decides: where an iteration's work depends on the iterations "
           "before it, as a `vmalloc()`'s search of the tree of free "
           "virtual areas does, or a slab batch round's exchanges of "
           "per-CPU sheaves with the barn (`barn_replace_empty_sheaf` and "
           "its kin), two runs of one kernel trace different work. Such a "
           "case's cost is the microbenchmark's "
           "(`micro.csv`, many iterations); its trace says where an "
           "iteration's instructions go.\n"
           % ("; ".join("%s (`%s`)" % (case_title(c), c) for c in cases),
              m.get("qemu"), m.get("accel", "tcg").upper(), m.get("icount"),
              m.get("linux"), m.get("commit"))]
    spec = limit.load()
    for c in cases:
        where = "`ROW.txt`" if c == "page-0" else "`%s/ROW.txt`" % c
        out += ["## %s (`%s`, traces in %s)\n" % (case_title(c), c, where)]
        if c.startswith("vmalloc-"):
            out += ["One iteration each, not the same one in every row: the "
                    "vmap-area functions (`insert_vmap_area`, "
                    "`find_va_links` and their kin) walk a tree whose "
                    "depth moves from one iteration to the next, so their "
                    "counts differ between rows, and between runs of one "
                    "kernel, for reasons that have nothing to do with "
                    "tagging; compare the rows by the microbenchmark's "
                    "`vmalloc` figures.\n"]
        out += [md(trace_table(r, c)), ""]
        out += limit_section(spec, r, c)
    out.append("Rows and kernels as in `benchmarks/matrix.txt`; the per-row "
               "boot arguments are in the first line of each trace.")
    return "\n".join(out) + "\n"


def bootprof_pairs(r):
    """The matrix's (row, peer) pairs whose two profiles are there."""
    have = set(r.bootprof_rows())
    return [(a, b) for a, b in r.matrix.pairs() if a in have and b in have]


def bootprof_readme(r):
    pairs = bootprof_pairs(r)
    rows = {}
    for a, b in pairs:
        for x in (a, b):
            if x not in rows:
                rows[x] = r.bootprof(x)
    first = next(iter(rows.values()))[0]
    out = ["# Boot profiles: kernel instructions to /init, by function\n",
           "Written by `make report` from the `.tsv` files beside it "
           "(`make bootprof`). Each row's kernel booted under QEMU "
           f"TCG with `-icount shift=0,sleep=off` ({first.get('mem', '?')} "
           "guest RAM, 1 vCPU) and the `insnprof` plugin "
           "(`benchmarks/qemu-plugins/insnprof.c`), which counts every kernel "
           "instruction executed from reset until `run_init_process()` first "
           "runs, folded into functions with the kernel's `System.map`. Each "
           "row booted twice; the two profiles were identical. Unlike the "
           "boot table's time to `/init`, these are instructions alone: no "
           "idle time.\n",
           f"Linux {first.get('linux', '?')}, QEMU {first.get('qemu', '?')}, "
           f"accelerator {first.get('accel', '?')}, commit "
           f"{first.get('commit', '?')}, {first.get('date', '?')}.\n"]
    peer_of = dict(pairs)
    table = []
    for x, (meta, c) in rows.items():
        tot = sum(c.values())
        vs = ""
        if x in peer_of:
            vs = f"{tot - sum(rows[peer_of[x]][1].values()):+d} vs {peer_of[x]}"
        table.append([x, meta.get("kernel_variant", "?"),
                      f"`{meta.get('boot_args', '-')}`", tot, vs])
    out.append(md((["row", "kernel", "boot arguments",
                    "instructions to /init", "vs peer"], table),
                  left=3))
    for fork, stock in pairs:
        a, b = rows[stock][1], rows[fork][1]
        diff = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
        top = sorted((k for k in diff if diff[k]),
                     key=lambda k: (-abs(diff[k]), k))[:TOP_N]
        total = sum(b.values()) - sum(a.values())
        out.append(f"\n## {fork} against {stock}: {total:+d}\n")
        out.append(f"The {len(top)} functions whose counts differ most "
                   f"({sum(1 for k in diff if diff[k])} differ in all):\n")
        out.append(md((["function", stock, fork, "difference"],
                       [[f"`{k}`", a.get(k, 0), b.get(k, 0), f"{diff[k]:+d}"]
                        for k in top])))
    return "\n".join(out + workloads_section(r)) + "\n"


def workloads_section(r):
    """The workload profiles: each row's kernel instructions an op, and
    the functions it runs most over its baseline's."""
    got = r.workload_profiles()
    if not got:
        return []
    out = ["\n# Workloads: kernel instructions an op, by function\n",
           "The rows `benchmarks/bootprof/workloads.txt` names booted twice "
           "more under the same plugin and ran the benchmark's workloads "
           "once (`bench-guest.sh`'s perf phase, `make bench`'s sizes). "
           "Each workload program brackets its timed section with the "
           "plugin's markers (`benchmarks/qemu-plugins/marker.h`): the "
           "counts are the kernel instructions of that section, divided "
           "by its ops. Both runs were identical.\n"]
    for w in dict.fromkeys(w for w, _ in got):
        rows = [x for v, x in got if v == w]
        prof = {x: r.workload_profile(x, w) for x in rows}
        per = {x: {f: n / int(m.get("ops", 1)) for f, n in c.items()}
               for x, (m, c) in prof.items()}
        table = []
        for x in rows:
            base = r.matrix[x].baseline
            tot = sum(per[x].values())
            if base in per:
                over = tot - sum(per[base].values())
                diff = {f: per[x].get(f, 0) - per[base].get(f, 0)
                        for f in set(per[x]) | set(per[base])}
                top = sorted((f for f in diff if diff[f] > 0.05),
                             key=lambda f: (-diff[f], f))[:4]
                vs = "%+.1f vs `%s`" % (over, base)
                most = ", ".join("`%s` %+.1f" % (f, diff[f]) for f in top)
            else:
                vs = most = ""
            table.append([x, prof[x][0].get("ops", "?"), "%.1f" % tot, vs,
                          most])
        out += ["\n## %s\n" % w,
                md((["row", "ops", "kernel instructions an op",
                     "over baseline", "most over baseline"], table),
                   left=1)]
    return out
