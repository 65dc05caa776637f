#!/usr/bin/env python3
"""Tables, plots and target verdicts for results/, from the raw CSVs alone.

Usage: report.py RESULTS_DIR [--readme README.md]

Reads micro.csv, perf.csv, boot.csv, cachesim.csv, skipped.csv (written
by benchmarks/run.sh, one row a run) and link-tags.tsv if present; writes
RESULTS_DIR/README.md and the plots (gnuplot, SVG and PNG).  With
--readme, the headline table is also written into that file between
<!-- results:begin --> and <!-- results:end -->.  Every number here comes
from the CSVs: rerun this script to rebuild the tables without rerunning
the benchmarks.
"""
import csv
import os
import statistics
import subprocess
import sys

ROWS_ORDER = []     # matrix rows in matrix.txt order
MATRIX = {}         # row -> (kernel, ref, enabled, args)
HERE = os.path.dirname(os.path.abspath(__file__))
# Every bar chart's gnuplot style.
HISTOGRAMS = """
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
"""


def load_matrix():
    path = os.environ.get("MATRIX") or os.path.join(HERE, "matrix.txt")
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            ROWS_ORDER.append(w[0])
            MATRIX[w[0]] = (w[1], w[2], w[3], w[4])


def is_distro(row):
    return "distro" in row


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fnum(x):
    return float(x)


def pct(v, base):
    if base is None or v is None or base == 0:
        return None
    return (v - base) / base * 100.0


def fmt_pct(p):
    return "" if p is None else "%+.1f%%" % p


def fmt_n(v, nd=1):
    return "" if v is None else ("%.*f" % (nd, v))


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i == 0 else "---:"
                          for i in range(len(header))) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


# The order-0 pair at the two call sites the targets are judged at.
MODULE_SITE = ("page", "0", "hot")
KERNEL_SITE = ("kpage", "0", "hot")
SITES = ((MODULE_SITE, "module call site"), (KERNEL_SITE, "kernel call site"))


def bench_label(bench, arg, kind):
    if bench == "page":
        s = "page order %s" % arg
    elif bench == "kpage":
        s = "page order 0, kernel call site"
    elif bench == "bulk":
        s = "alloc_pages_bulk_array %s (per page)" % arg
    elif bench == "kmalloc":
        s = "kmalloc(%s)" % arg
    else:
        s = "kmem_cache %s B" % arg
    return s + {"batch": ", batch", "ws": ", working set"}.get(kind, "")


class Report:
    def __init__(self, d):
        self.d = d
        self.micro = read_csv(os.path.join(d, "micro.csv"))
        self.perf = read_csv(os.path.join(d, "perf.csv"))
        self.boot = read_csv(os.path.join(d, "boot.csv"))
        self.skipped = read_csv(os.path.join(d, "skipped.csv"))
        self.cache = read_csv(os.path.join(d, "cachesim.csv"))
        allrows = self.micro + self.perf + self.boot
        measured = [r for r in ROWS_ORDER
                    if any(x["row"] == r for x in allrows)]
        # Rows on Debian's page-flag budget have their own baseline and
        # table; the main tables compare the guest-config rows.
        self.rows = [r for r in measured if not is_distro(r)]
        self.distro_rows = [r for r in measured if is_distro(r)]
        self.skip_reason = {}
        for s in self.skipped:
            self.skip_reason.setdefault(s["row"], s["reason"])
        self.mismatch = []

    # --- metadata ---------------------------------------------------------
    def meta(self):
        rows = self.micro + self.perf + self.boot
        if not rows:
            return "No data."

        def vals(k):
            return ", ".join(sorted({r[k] for r in rows}))
        dates = sorted(r["date"] for r in rows)
        perfv = ", ".join(sorted({r["perf"] for r in self.perf})) or "-"
        events = ", ".join(sorted({r["events"] for r in self.perf})) or "-"
        mems = sorted({int(r["mem_mib"]) for r in rows})
        lines = [
            "- Base kernel: Linux %s (Debian source %s), one tarball for "
            "every row; benchmark kernels %s (`kernel/configs/`: `off` is "
            "the stock source with profiling compiled out, `stock-bench` "
            "stock 7.3 with profiling built in, `fork-bench` the series, "
            "both without `CONFIG_MEM_ALLOC_PROFILING_DEBUG`; `page_owner` "
            "is `off` with `CONFIG_PAGE_OWNER=y`; the `-distro` ones are "
            "the same on Debian's page-flag budget)." % (
                vals("kernel"), vals("debian_source"),
                ", ".join("`%s`" % k for k in dict.fromkeys(
                    r["kernel_variant"] for r in rows))),
            "- QEMU %s, accelerator %s, one vCPU (%s); icount modes: %s "
            "(`shift=0,sleep=off`: 1 guest ns = 1 instruction)." % (
                vals("qemu"), vals("accel"), vals("vcpus"), vals("icount")),
            "- Kernel arguments besides the row's own (icount; plain TCG): "
            "%s. `nolapic_timer` skips the APIC timer calibration, a "
            "`pause` spin that takes minutes of host time under icount "
            "(ticks come from the HPET/PIT instead); `tsc_early_khz` is the "
            "host TSC rate (TCG passes the host TSC through and the tiny "
            "guest has no HPET/PM timer to calibrate it against, so it "
            "would fall back to 4 ms jiffies)." % "; ".join(
                "`%s`" % a for a in sorted({r["harness_args"] for r in rows})),
            "- icount runs repeat exactly only with a fixed initramfs, RTC "
            "and serial file: `scripts/boot.sh -i` arranges that.",
            "- Guest memory: %s." % ", ".join(
                "%d GiB" % (m // 1024) if m % 1024 == 0 else "%d MiB" % m
                for m in mems),
            "- Runs from %s to %s; project commit %s.%s" % (
                dates[0], dates[-1], vals("commit"),
                self.since(sorted({r["commit"] for r in rows}))),
            "- perf in the guest: %s (host userspace; the guest kernel is "
            "newer), events: %s (`sw`: task-clock, page-faults, "
            "context-switches; hardware counters report \"not supported\" "
            "under QEMU TCG)." % (perfv, events),
        ]
        return "\n".join(lines)

    def since(self, commits):
        """What changed in the measured code since the measured commit,
        as git says when this report is written (nothing if unknown)."""
        if len(commits) != 1 or commits[0].endswith("-dirty"):
            return ""
        try:
            out = subprocess.run(
                ["git", "-C", HERE, "log", "--format=%h", commits[0] + "..HEAD",
                 "--", "../kernel", ".", ":(exclude)report.py",
                 ":(glob)../scripts/*.sh", "../scripts/guest"],
                capture_output=True, text=True, check=True)
            head = subprocess.run(["git", "-C", HERE, "rev-parse", "--short",
                                   "HEAD"], capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
        words = [c for c in out.stdout.split()
                 if self.describes_only(c)]
        changed = [c for c in out.stdout.split() if c not in words]
        if head.startswith(commits[0]):
            return ""
        if not changed:
            return (" Between it and %s, the commit this report was written "
                    "at, nothing that builds, boots or measures changed "
                    "(`kernel/`, `benchmarks/` but `report.py`, which only "
                    "renders these tables, `scripts/*.sh`, `scripts/guest/`; "
                    "git log)%s." % (head, "" if not words else
                                     "; %s changed only the descriptions of "
                                     "patches in `kernel/patches/`, not "
                                     "their code" % ", ".join(words)))
        return (" Changed since in what builds, boots or measures, by %s "
                "(report written at %s): rerun `make bench`." %
                (", ".join(changed), head))

    @staticmethod
    def describes_only(commit):
        """True if commit changes nothing in kernel/patches/ but the
        patches' descriptions (their diffs are identical) and nothing
        else that builds, boots or measures."""
        def git(*a):
            return subprocess.run(["git", "-C", HERE] + list(a),
                                  capture_output=True, text=True, check=True
                                  ).stdout
        try:
            files = git("diff-tree", "--no-commit-id", "--name-only", "-r",
                        commit).split()
            for f in files:
                if f.startswith("results/") or f in ("README.md",
                                                     "benchmarks/report.py"):
                    continue
                if not (f.startswith("kernel/patches/") and
                        f.endswith(".patch")):
                    return False
                old = git("show", "%s^:%s" % (commit, f))
                new = git("show", "%s:%s" % (commit, f))
                if old[old.find("\ndiff --git "):] != \
                        new[new.find("\ndiff --git "):]:
                    return False
            return True
        except (OSError, subprocess.CalledProcessError):
            return False

    # --- determinism ------------------------------------------------------
    def check_icount(self):
        """Every icount figure must be identical across icount-1/icount-2."""
        def key_micro(r):
            return (r["row"], r["mem_mib"], r["rep"], r["bench"], r["arg"],
                    r["kind"], r["n"])
        checks = [
            (self.micro, key_micro, ["total_ns", "ns_per_op"]),
            (self.perf, lambda r: (r["row"], r["mem_mib"], r["rep"],
                                   r["workload"]),
             ["ops", "elapsed_ns", "task_clock_ns", "page_faults",
              "context_switches"]),
            (self.boot, lambda r: (r["row"], r["mem_mib"]),
             ["init_ns", "memtotal_kb", "memfree_kb", "memavail_kb",
              "page_ext_bytes"]),
            (self.cache, lambda r: (r["row"], r["bench"], r["arg"],
                                    r["kind"], r["n"]),
             ["ops", "accesses", "lines", "l1_miss", "l2_miss", "op_lines"]),
        ]
        n = 0
        for data, key, cols in checks:
            by = {}
            for r in data:
                if r["icount"] == "off":
                    continue
                by.setdefault(key(r), {})[r["run"]] = r
            for k, runs in by.items():
                if len(runs) < 2:
                    self.mismatch.append("%s: only %d icount run(s)" %
                                         (k, len(runs)))
                    continue
                first = sorted(runs)[0].rsplit("-", 1)[0]
                a, b = runs.get(first + "-1"), runs.get(first + "-2")
                for c in cols:
                    n += 1
                    if a is None or b is None or a[c] != b[c]:
                        self.mismatch.append("%s %s: %s vs %s" % (
                            k, c, a and a[c], b and b[c]))
        return n

    # --- microbenchmark -----------------------------------------------------
    def micro_keys(self):
        keys = []
        for r in self.micro:
            k = (r["bench"], r["arg"], r["kind"])
            if k not in keys:
                keys.append(k)
        return keys

    def micro_icount(self, row, key):
        for r in self.micro:
            if (r["row"], r["run"], r["rep"]) == (row, "icount-1", "1") and \
                    (r["bench"], r["arg"], r["kind"]) == key:
                return fnum(r["ns_per_op"])
        return None

    def micro_wall(self, row, key):
        v = [fnum(r["ns_per_op"]) for r in self.micro
             if r["row"] == row and r["icount"] == "off" and
             (r["bench"], r["arg"], r["kind"]) == key]
        if not v:
            return None
        return statistics.median(v), min(v), max(v), len(v)

    def table_micro_icount(self):
        hdr = ["operation (alloc + free)"]
        for row in self.rows:
            hdr += [row] if row == "off" else [row, "vs off"]
        out = []
        for k in self.micro_keys():
            base = self.micro_icount("off", k)
            line = [bench_label(*k)]
            for row in self.rows:
                v = self.micro_icount(row, k)
                line.append(fmt_n(v))
                if row != "off":
                    line.append(fmt_pct(pct(v, base)))
            out.append(line)
        return md_table(hdr, out)

    def table_micro_wall(self):
        hdr = ["operation (alloc + free)"]
        for row in self.rows:
            hdr += [row] if row == "off" else [row, "vs off"]
        out = []
        for k in self.micro_keys():
            base = self.micro_wall("off", k)
            line = [bench_label(*k)]
            for row in self.rows:
                w = self.micro_wall(row, k)
                line.append("" if w is None else "%.1f [%.1f–%.1f]" % w[:3])
                if row != "off":
                    line.append(fmt_pct(pct(w and w[0], base and base[0])))
            out.append(line)
        return md_table(hdr, out)

    # --- perf workloads -------------------------------------------------------
    WORKLOADS = [("micro", "allocbench page order 0 (per alloc+free)"),
                 ("hackbench", "perf bench sched messaging (per message)"),
                 ("pagefault", "mmap/touch/munmap (per fault)"),
                 ("forkexit", "fork + exit + wait (per fork)")]

    def perf_icount(self, row, w):
        for r in self.perf:
            if (r["row"], r["run"], r["rep"], r["workload"]) == \
                    (row, "icount-1", "1", w):
                return r
        return None

    def table_perf_icount(self):
        hdr = ["workload", "row", "ns/op (= instructions)", "vs off",
               "task-clock ms", "page-faults", "context-switches"]
        out = []
        for w, label in self.WORKLOADS:
            base = self.perf_icount("off", w)
            for row in self.rows:
                r = self.perf_icount(row, w)
                if r is None:
                    continue
                v = fnum(r["ns_per_op"])
                out.append([label if row == self.rows[0] else "", row,
                            fmt_n(v), "" if row == "off" else fmt_pct(
                                pct(v, base and fnum(base["ns_per_op"]))),
                            "%.2f" % (int(r["task_clock_ns"]) / 1e6),
                            r["page_faults"], r["context_switches"]])
        return md_table(hdr, out)

    def perf_wall(self, row, w):
        v = [fnum(r["ns_per_op"]) for r in self.perf
             if r["row"] == row and r["icount"] == "off" and
             r["workload"] == w]
        if not v:
            return None
        return statistics.median(v), min(v), max(v), len(v)

    def table_perf_wall(self):
        hdr = ["workload"]
        for row in self.rows:
            hdr += [row] if row == "off" else [row, "vs off"]
        out = []
        for w, label in self.WORKLOADS:
            base = self.perf_wall("off", w)
            line = [label]
            for row in self.rows:
                p = self.perf_wall(row, w)
                line.append("" if p is None else "%.0f [%.0f–%.0f]" % p[:3])
                if row != "off":
                    line.append(fmt_pct(pct(p and p[0], base and base[0])))
            out.append(line)
        return md_table(hdr, out)

    # --- boot and memory --------------------------------------------------------
    def boot_icount(self, row, mem):
        for r in self.boot:
            if (r["row"], r["mem_mib"], r["run"]) == (row, mem, "icount-1"):
                return r
        return None

    def boot_wall(self, row, mem):
        v = [int(r["init_ns"]) / 1e6 for r in self.boot
             if (r["row"], r["mem_mib"]) == (row, mem) and
             r["icount"] == "off"]
        return (statistics.median(v), min(v), max(v), len(v)) if v else None

    def mems(self):
        return sorted({r["mem_mib"] for r in self.boot}, key=int)

    def table_boot(self):
        hdr = ["guest RAM", "row", "to /init, icount (ms)",
               "to /init, tcg median [min–max] ms", "MemTotal MiB",
               "MemFree MiB", "MemAvailable MiB",
               "MemAvailable vs off", "page_ext bytes", "page_ext % of RAM"]
        out = []
        for mem in self.mems():
            base = self.boot_icount("off", mem)
            for row in self.rows:
                r = self.boot_icount(row, mem)
                if r is None:
                    continue
                w = self.boot_wall(row, mem)
                ram = int(mem) * 1024 * 1024
                pe = int(r["page_ext_bytes"])
                dav = ""
                if base is not None and row != "off":
                    d = (int(r["memavail_kb"]) - int(base["memavail_kb"])) * 1024
                    dav = "%+d B (%+.3f%%)" % (d, d * 100.0 / ram)
                out.append([
                    "%d GiB" % (int(mem) // 1024), row,
                    "%.3f" % (int(r["init_ns"]) / 1e6),
                    "" if w is None else "%.1f [%.1f–%.1f]" % w[:3],
                    "%.1f" % (int(r["memtotal_kb"]) / 1024),
                    "%.1f" % (int(r["memfree_kb"]) / 1024),
                    "%.1f" % (int(r["memavail_kb"]) / 1024),
                    dav, pe, "%.3f%%" % (pe * 100.0 / ram)])
        return md_table(hdr, out)

    def table_mem_per_gib(self):
        hdr = ["row", "page_ext bytes per GiB", "bytes per 4 KiB page",
               "% of RAM"]
        out = []
        for row in self.rows:
            per = []
            for mem in self.mems():
                r = self.boot_icount(row, mem)
                if r is not None:
                    per.append(int(r["page_ext_bytes"]) * 1024 / int(mem))
            if not per:
                continue
            p = max(per)
            out.append([row, "%.0f" % p, "%.2f" % (p / 262144),
                        "%.3f%%" % (p * 100 / 2**30)])
        return md_table(hdr, out)

    def table_distro(self):
        """The distro-budget rows against their own baseline, off-distro."""
        key = ("page", "0", "hot")
        base = self.micro_icount("off-distro", key)
        hdr = ["row", "kernel", "reported form", "profiling",
               "order-0 page alloc+free (instructions)", "vs off-distro",
               "page_ext bytes per GiB"]
        out = []
        for row in self.distro_rows:
            k, ref, en, args = MATRIX[row]
            v = self.micro_icount(row, key)
            per = [int(r["page_ext_bytes"]) * 1024 / int(mem)
                   for mem in self.mems()
                   for r in [self.boot_icount(row, mem)] if r is not None]
            out.append([row, "`%s`" % k, ref,
                        {"1": "on", "0": "off"}.get(en, "compiled out"),
                        fmt_n(v) if v is not None else "-",
                        "" if row == "off-distro" or base is None or v is None
                        else fmt_pct(pct(v, base)),
                        "%.0f" % max(per) if per else "-"])
        return md_table(hdr, out)

    # --- memory traffic (cachesim) -------------------------------------------
    def cache_fig(self, row, key):
        """Per-op figures of a row's first cachesim run, or None."""
        for r in self.cache:
            if (r["row"], r["run"]) == (row, "cache-1") and \
                    (r["bench"], r["arg"], r["kind"]) == key:
                ops = int(r["ops"])
                if not ops:
                    return None
                return {"op_lines": int(r["op_lines"]) / ops,
                        "lines": int(r["lines"]) / ops,
                        "l1": int(r["l1_miss"]) / ops,
                        "l2": int(r["l2_miss"]) / ops,
                        "n": r["n"]}
        return None

    def cache_keys(self, kind):
        keys = []
        for r in self.cache:
            k = (r["bench"], r["arg"], r["kind"])
            if k[2] == kind and k not in keys:
                keys.append(k)
        return keys

    def cache_rows(self):
        return [r for r in ROWS_ORDER if any(x["row"] == r for x in self.cache)]

    def table_cache(self, kind):
        """Lines and misses per op, one column group a call site."""
        keys = self.cache_keys(kind)
        site = {"page": "module", "kpage": "kernel"}
        hdr = ["row"]
        for k in keys:
            w = site.get(k[0], k[0])
            if kind == "hot":
                hdr += ["%s: lines/op" % w, "vs off", "%s: L1 misses/op" % w]
            else:
                hdr += ["%s: lines/op" % w, "%s: L1 misses/op" % w,
                        "%s: L2 misses/op" % w]
        out = []
        for row in self.cache_rows():
            base_row = "off-distro" if is_distro(row) else "off"
            line = [row]
            for k in keys:
                c, b = self.cache_fig(row, k), self.cache_fig(base_row, k)
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
        return md_table(hdr, out)

    # --- targets --------------------------------------------------------------
    def targets(self):
        """(target, verdict, evidence) computed from the data."""
        t = []

        def absent(row):
            if row in self.rows:
                return None
            return "not measured: %s" % self.skip_reason.get(
                row, "row not in the data")

        def share_target(row, peer, num, den, key, where):
            """row adds at most num/den of what peer adds over off."""
            if num == den:
                name = "`%s` adds no more than `%s` over `off` " \
                       "(order-0 page alloc+free, %s, instructions)" % (
                           row, peer, where)
            else:
                name = "`%s` adds at most %d/%d of what `%s` adds over " \
                       "`off` (order-0 page alloc+free, %s, " \
                       "instructions)" % (row, num, den, peer, where)
            a = absent(row) or absent(peer) or absent("off")
            if a:
                return (name, "not measured", a)
            o, r, p = [self.micro_icount(x, key) for x in ("off", row, peer)]
            if None in (o, r, p):
                return (name, "not measured", "no %s figure" % where)
            ok = (r - o) * den <= (p - o) * num
            return (name, "met" if ok else "not met",
                    "+%.1f vs +%.1f over %.1f (%s vs %s)" % (
                        r - o, p - o, o, fmt_pct(pct(r, o)),
                        fmt_pct(pct(p, o))))

        def within_target(row, limit, key, where, label):
            name = "%s`%s` within +%d%% of `off` (order-0 page alloc+free, " \
                   "%s, instructions)" % (label, row, limit, where)
            a = absent(row) or absent("off")
            if a:
                return (name, "not measured", a)
            o, r = self.micro_icount("off", key), self.micro_icount(row, key)
            if None in (o, r):
                return (name, "not measured", "no %s figure" % where)
            return (name, "met" if (r - o) * 100 <= o * limit else "not met",
                    "+%.1f over %.1f (%s)" % (r - o, o, fmt_pct(pct(r, o))))
        # Stock 7.3 peers: the fork's page-flags form against stock's
        # compressed form, its page_ext form against stock's pointers; at
        # a module call site and at a kernel one (their tags decode apart).
        for key, where in SITES:
            t.append(share_target("fork-flags", "stock-compressed", 1, 3,
                                  key, where))
            if key == KERNEL_SITE:
                t.append(within_target("fork-flags", 10, key, where, ""))
                t.append(within_target("fork-flags", 5, key, where,
                                       "Stretch: "))
            t.append(share_target("fork-page_ext", "stock-pointer", 1, 2,
                                  key, where))
            t.append(share_target("fork-pointer", "stock-pointer", 1, 1,
                                  key, where))
            t.append(share_target("fork-disabled", "stock-disabled", 1, 1,
                                  key, where))

        # The series leaves the slab paths alone (slab objects keep pointer
        # references in every form): what differs between rows is the
        # loop's own amortised cost, a fraction of an instruction.
        slack = 0.5
        name = ("Slab paths in `fork-flags` no slower than "
                "`stock-compressed` (instructions, within %.1f an op)" % slack)
        a = absent("fork-flags") or absent("stock-compressed")
        if a:
            t.append((name, "not measured", a))
        else:
            worse = []
            for k in self.micro_keys():
                if k[0] not in ("kmalloc", "cache"):
                    continue
                c, p = self.micro_icount("fork-flags", k), \
                    self.micro_icount("stock-compressed", k)
                if c is not None and p is not None and c > p + slack:
                    worse.append("%s %.1f > %.1f" % (bench_label(*k), c, p))
            t.append((name, "not met" if worse else "met",
                      "; ".join(worse) or "every kmalloc/kmem_cache case"))

        def mem_target(row, per_page):
            name = "`%s`: %s of `page_ext` for tagging" % (
                row, "zero bytes" if per_page == 0 else
                "%d bytes a page" % per_page)
            a = absent(row)
            if a:
                return (name, "not measured", a)
            ev, ok = [], True
            for mem in self.mems():
                r = self.boot_icount(row, mem)
                if r is None:
                    continue
                pages = int(mem) * 256
                pe = int(r["page_ext_bytes"])
                ok = ok and pe <= per_page * pages
                ev.append("%d GiB: %d B" % (int(mem) // 1024, pe))
            return (name, "met" if ok and ev else "not met",
                    ", ".join(ev) or "no boot data")
        t.append(mem_target("fork-flags", 0))
        t.append(mem_target("fork-page_ext", 2))

        name = ("`fork-page_ext` needs at most a quarter of the `page_ext` "
                "bytes of `stock-pointer`")
        a = absent("fork-page_ext") or absent("stock-pointer")
        if a:
            t.append((name, "not measured", a))
        else:
            ev, ok = [], True
            for mem in self.mems():
                r = self.boot_icount("fork-page_ext", mem)
                p = self.boot_icount("stock-pointer", mem)
                if r is None or p is None:
                    continue
                rb, pb = int(r["page_ext_bytes"]), int(p["page_ext_bytes"])
                ok = ok and rb * 4 <= pb
                ev.append("%d GiB: %d B vs %d B" % (int(mem) // 1024, rb, pb))
            t.append((name, "met" if ok and ev else "not met",
                      ", ".join(ev) or "no boot data"))

        # The page_ext line (cachesim, working set): over N pages, a row
        # that keeps its tags in page_ext touches its entries, bytes/64 of
        # a line a page more than off; a page-flags row touches nothing
        # more (its field is in the struct page line).
        ws = ("page", "0", "ws")
        name = ("Memory traffic: over the working set, the rows with tags in "
                "`page_ext` touch its lines (at least 0.9 of `page_ext` "
                "bytes a page / 64 more lines per op than `off`), the "
                "page-flags rows no more lines than `off` (within 0.005)")
        ev, bad = [], []
        base = self.cache_fig("off", ws)
        for row in self.rows:
            kernel, ref, en, _ = MATRIX[row]
            c = self.cache_fig(row, ws)
            if row == "off" or c is None or base is None or en != "1" or \
                    ref not in ("pointer", "page_ext", "flags"):
                continue
            boots = [int(r["page_ext_bytes"]) / (int(r["mem_mib"]) * 256)
                     for r in self.boot if r["row"] == row and
                     r["run"] == "icount-1"]
            per_page = max(boots) if boots else 0
            d = c["lines"] - base["lines"]
            if ref == "flags":
                ok = abs(d) <= 0.005
                ev.append("%s %+.3f lines/op (no `page_ext`)" % (row, d))
            else:
                ok = d >= 0.9 * per_page / 64
                ev.append("%s %+.3f lines/op (%.0f B a page: %.3f)" % (
                    row, d, per_page, per_page / 64))
            if not ok:
                bad.append(row)
        if not ev:
            t.append((name, "not measured", "no cachesim data"))
        else:
            t.append((name, "not met: " + ", ".join(bad) if bad else "met",
                      "; ".join(ev)))

        # Boot is judged on icount (instructions to /init), never on TCG
        # wall time: each fork row against its stock peer.
        peers = (("fork-pointer", "stock-pointer"),
                 ("fork-disabled", "stock-disabled"),
                 ("fork-flags", "stock-compressed"),
                 ("fork-page_ext", "stock-pointer"))
        name = "Boot: each fork row reaches `/init` in no more instructions " \
               "than its stock peer (icount)"
        ev, bad = [], []
        for mem in self.mems():
            for row, peer in peers:
                r, p = self.boot_icount(row, mem), self.boot_icount(peer, mem)
                if r is None or p is None:
                    continue
                d = pct(int(r["init_ns"]), int(p["init_ns"]))
                ev.append("%s vs %s %d GiB %+d (%+.2f%%)" % (
                    row, peer, int(mem) // 1024,
                    int(r["init_ns"]) - int(p["init_ns"]), d))
                if int(r["init_ns"]) > int(p["init_ns"]):
                    bad.append("%s at %d GiB" % (row, int(mem) // 1024))
        if not ev:
            t.append((name, "not measured", "no boot data"))
        else:
            t.append((name, "not met: " + ", ".join(bad) if bad else "met",
                      "; ".join(ev)))
        return t

    def table_targets(self):
        return md_table(["target", "verdict", "measured"],
                        [list(x) for x in self.targets()])

    # --- targets not met: where the instructions go (results/trace) ---------
    def trace_counts(self, row):
        """Instructions per function in results/trace/ROW.txt, or None."""
        p = os.path.join(self.d, "trace", "%s.txt" % row)
        if not os.path.exists(p):
            return None
        counts = {}
        with open(p) as f:
            for line in f:
                w = line.split()
                if len(w) == 2 and not line.startswith("#"):
                    counts[w[1]] = counts.get(w[1], 0) + 1
        return counts

    # What would remove the rest, per fork row whose target is not met.
    REMEDY = {
        "fork-page_ext": (
            "Most of it is reaching `page_ext`: `page_ext_lookup()`, "
            "the SPARSEMEM section lookup, once on each side, and the "
            "read-side section around it. Removing it needs `page_ext` "
            "reachable from the pfn by arithmetic alone (as `vmemmap` is "
            "for `struct page`), or one lookup a pair instead of one on "
            "each side; the counter updates themselves are those of the "
            "page-flags form."),
        "fork-flags": (
            "What remains is the work no form can avoid "
            "(saving and restoring `current->alloc_tag` at the call site, "
            "the index write, the two per-cpu counter updates on each "
            "side) plus the call into `__pgalloc_tag_add()`, which stays "
            "out of line because inlining it un-inlines "
            "`post_alloc_hook()` for every form, and the decode of the "
            "index on free."),
        "fork-disabled": (
            "The difference is in code that runs with profiling off: the "
            "static branches and the call-site bookkeeping."),
        "fork-pointer": (
            "The pointer form keeps upstream's `page_ext` lookups."),
    }

    def not_met(self):
        """Each fork row with a target not met: the traced functions that
        differ from `off` most, and what would remove the rest."""
        rows = []
        for target, verdict, _ in self.targets():
            if not verdict.startswith("not met"):
                continue
            for row in self.REMEDY:
                if target.startswith(("`%s` adds" % row,
                                      "`%s` within" % row,
                                      "Stretch: `%s`" % row)):
                    if row not in rows:
                        rows.append(row)
        off = self.trace_counts("off")
        out = []
        for row in rows:
            tc = self.trace_counts(row)
            line = "- `%s`: " % row
            if tc is not None and off is not None:
                diff = sorted(((tc.get(f, 0) - off.get(f, 0), f)
                               for f in set(tc) | set(off)),
                              reverse=True)
                top = [(d, f) for d, f in diff if d > 0][:6]
                line += ("traced over `off` (one order-0 pair, module "
                         "call site): %+d in all; most in %s. " % (
                             sum(tc.values()) - sum(off.values()),
                             ", ".join("`%s` %+d" % (f, d) for d, f in top)))
            out.append(line + self.REMEDY[row])
        return "\n".join(out)

    # --- plots ------------------------------------------------------------------
    def plots(self):
        keys = self.micro_keys()
        rows = [r for r in self.rows if r != "off"]
        made = []
        if rows and self.micro_icount("off", keys[0] if keys else None):
            dat = os.path.join(self.d, "overhead.dat")
            with open(dat, "w") as f:
                f.write("# operation " + " ".join(rows) + "\n")
                for k in keys:
                    base = self.micro_icount("off", k)
                    vals = [pct(self.micro_icount(r, k), base) for r in rows]
                    f.write('"%s" %s\n' % (bench_label(*k), " ".join(
                        "%.2f" % v if v is not None else "?" for v in vals)))
            plot = ", ".join(
                "'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, r)
                for i, r in enumerate(rows))
            script = HISTOGRAMS + """set ylabel 'instructions over off (%%)'
set title 'Allocation cost over profiling compiled out (QEMU icount, 1 vCPU)'
set xtics rotate by -40 scale 0 font ',9'
set grid ytics
set key top left
set bmargin 11
set rmargin 12
plot %s
""" % plot
            made += self.gnuplot("overhead", script)
        made += self.plot_lead()
        made += self.plot_traffic()
        mems = self.mems()
        if mems:
            dat = os.path.join(self.d, "memory.dat")
            with open(dat, "w") as f:
                f.write("# guest_gib " + " ".join(self.rows) + "\n")
                for mem in mems:
                    vals = []
                    for row in self.rows:
                        r = self.boot_icount(row, mem)
                        vals.append("?" if r is None else "%.4f" % (
                            int(r["page_ext_bytes"]) / 2**20))
                    f.write("%g %s\n" % (int(mem) / 1024, " ".join(vals)))
            plot = ", ".join(
                "'%s' using 1:%d with linespoints title '%s'" % (dat, i + 2, r)
                for i, r in enumerate(self.rows))
            script = """
set xlabel 'guest RAM (GiB)'
set ylabel 'page_ext (MiB)'
set title 'page_ext allocated at boot against guest RAM'
set logscale x 2
set grid
set key top left
plot %s
""" % plot
            made += self.gnuplot("memory", script)
        return made

    def plot_lead(self):
        """The lead table's instructions: each fork form beside its peer."""
        pairs = [("fork-flags", "stock-compressed"),
                 ("fork-page_ext", "stock-pointer"),
                 ("fork-pointer", "stock-pointer"),
                 ("fork-disabled", "stock-disabled")]
        if self.micro_icount("off", MODULE_SITE) is None:
            return []
        dat = os.path.join(self.d, "lead.dat")
        with open(dat, "w") as f:
            f.write("# pair fork_module peer_module fork_kernel peer_kernel\n")
            for row, peer in pairs:
                vals = []
                for key in (MODULE_SITE, KERNEL_SITE):
                    off = self.micro_icount("off", key)
                    for x in (row, peer):
                        v = self.micro_icount(x, key)
                        vals.append("?" if v is None or off is None
                                    else "%.1f" % (v - off))
                f.write('"%s / %s" %s\n' % (row, peer, " ".join(vals)))
        titles = ["fork, module site", "stock peer, module site",
                  "fork, kernel site", "stock peer, kernel site"]
        plot = ", ".join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, t)
                         for i, t in enumerate(titles))
        return self.gnuplot("lead", HISTOGRAMS + """set ylabel 'instructions over off per order-0 alloc+free'
set title 'The fork against stock 7.3 (QEMU icount, 1 vCPU)'
set xtics rotate by -20 scale 0 font ',9'
set grid ytics
set key outside top center horizontal font ',9'
set bmargin 6
set rmargin 8
plot %s
""" % plot)

    def plot_traffic(self):
        rows = self.cache_rows()
        ws = ("page", "0", "ws")
        if not rows:
            return []
        dat = os.path.join(self.d, "traffic.dat")
        with open(dat, "w") as f:
            f.write("# row hot_lines_per_op ws_l1_miss_per_op "
                    "ws_l2_miss_per_op\n")
            for row in rows:
                h, w = self.cache_fig(row, MODULE_SITE), self.cache_fig(row, ws)
                f.write('"%s" %s %s %s\n' % (
                    row, "?" if h is None else "%.2f" % h["op_lines"],
                    "?" if w is None else "%.3f" % w["l1"],
                    "?" if w is None else "%.3f" % w["l2"]))
        return self.gnuplot("traffic", HISTOGRAMS + """set xtics rotate by -40 scale 0 font ',9'
set grid ytics
set bmargin 9
set yrange [0:*]
set multiplot layout 1,2 title 'Memory traffic per order-0 alloc+free, module call site (cache model)'
set title 'hot loop: distinct lines a pair'
plot '%s' using 2:xtic(1) notitle
set title 'working set: misses a pair'
plot '%s' using 3:xtic(1) title 'L1', '' using 4 title 'L2'
unset multiplot
""" % (dat, dat))

    def gnuplot(self, name, body):
        made = []
        for term, ext in (("svg size 900,560 dynamic", "svg"),
                          ("pngcairo size 900,560", "png")):
            out = os.path.join(self.d, "%s.%s" % (name, ext))
            script = "set terminal %s noenhanced\nset output '%s'\n%s" % (
                term, out, body)
            subprocess.run(["gnuplot"], input=script.encode(), check=True)
            made.append(os.path.basename(out))
        return made

    # --- link-tags -----------------------------------------------------------------
    def link_tags(self):
        p = os.path.join(self.d, "link-tags.tsv")
        if not os.path.exists(p):
            return None
        hdr, rows, notes = None, [], []
        with open(p) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#"):
                    notes.append(line.lstrip("# "))
                elif hdr is None:
                    hdr = line.split("\t")[:8]
                else:
                    rows.append(line.split("\t")[:8])
        return "\n".join(notes) + "\n\n" + md_table(hdr, rows) \
            if hdr else None

    # --- output -----------------------------------------------------------------------
    def lead(self):
        """Each fork form against its stock 7.3 peer, with the verdicts."""
        pairs = [("fork-flags", "stock-compressed"),
                 ("fork-page_ext", "stock-pointer"),
                 ("fork-pointer", "stock-pointer"),
                 ("fork-disabled", "stock-disabled")]
        verdicts = {}
        for target, verdict, _ in self.targets():
            for row, _ in pairs:
                for key, where in SITES:
                    if target.startswith("`%s` adds" % row) and \
                            where in target:
                        verdicts.setdefault(row, []).append(
                            "%s: %s" % (where.split()[0], verdict))

        def over(row, key):
            v, off = self.micro_icount(row, key), self.micro_icount("off", key)
            return "-" if v is None or off is None else "+%.1f" % (v - off)

        def pair(row, peer, f):
            return "%s / %s" % (f(row), f(peer))

        def ext(row):
            per = [int(r["page_ext_bytes"]) * 1024 // int(r["mem_mib"])
                   for r in self.boot if r["row"] == row and
                   r["run"] == "icount-1"]
            return "%.2f MiB" % (max(per) / 2**20) if per else "-"

        def cache(key, what):
            def f(row):
                c = self.cache_fig(row, key)
                return "-" if c is None else "%.2f" % c[what]
            return f
        hdr = ["fork form / stock peer",
               "instr. over off, module site", "instr. over off, kernel site",
               "lines/op, hot", "L2 misses/op, working set",
               "page_ext per GiB", "target verdicts"]
        out = [["%s / %s" % (row, peer),
                pair(row, peer, lambda x: over(x, MODULE_SITE)),
                pair(row, peer, lambda x: over(x, KERNEL_SITE)),
                pair(row, peer, cache(MODULE_SITE, "op_lines")),
                pair(row, peer, cache(("page", "0", "ws"), "l2")),
                pair(row, peer, ext),
                ", ".join(verdicts.get(row, ["-"]))] for row, peer in pairs]
        return md_table(hdr, out)

    def headline(self):
        keys = [("page", "0", "hot"), ("kmalloc", "64", "hot")]
        hdr = ["row", "order-0 page (instr.)", "vs off", "kmalloc(64) (instr.)",
               "vs off", "page_ext per GiB", "page_ext a page"]
        out = []
        for row in [r for r in ROWS_ORDER if not is_distro(r)]:
            if row not in self.rows:
                out.append([row, "skipped: %s" % self.skip_reason.get(
                    row, "no data"), "", "", "", "", ""])
                continue
            line = [row]
            for k in keys:
                v = self.micro_icount(row, k)
                line.append(fmt_n(v))
                line.append("" if row == "off" else fmt_pct(
                    pct(v, self.micro_icount("off", k))))
            per = [int(r["page_ext_bytes"]) * 1024 // int(r["mem_mib"])
                   for r in self.boot if r["row"] == row and
                   r["run"] == "icount-1"]
            line.append("%d B (%.2f MiB)" % (max(per), max(per) / 2**20)
                        if per else "")
            line.append("%.2f B" % (max(per) / 262144) if per else "")
            out.append(line)
        return md_table(hdr, out)

    def write(self, readme):
        nchecked = self.check_icount()
        plots = self.plots()
        skipped = [(r, self.skip_reason[r]) for r in ROWS_ORDER
                   if r not in self.rows and r in self.skip_reason]
        s = []
        s.append("# Results\n")
        s.append("Generated by `benchmarks/report.py` from the raw CSVs in "
                 "this directory (one row a run): `micro.csv` (in-kernel "
                 "microbenchmark), `perf.csv` (perf stat workloads), "
                 "`boot.csv` (boot time and memory), `skipped.csv`. "
                 "Rerun `make bench` to measure again, or "
                 "`python3 benchmarks/report.py results` to rebuild these "
                 "tables from the CSVs. Do not edit by hand.\n")
        if self.rows:
            s.append("## The fork against stock 7.3\n")
            s.append("Each cell is fork / peer. Order-0 page alloc+free: "
                     "guest instructions under icount (1 GiB guest) over "
                     "profiling compiled out (`off`), with the tag at a "
                     "module call site (`alloc_pages()` in the benchmark "
                     "module) and at a kernel one (`alloc_page()` in "
                     "`net/core/sock.c`); cache lines one alloc+free touches "
                     "in a hot loop, and L2 misses per op over a working "
                     "set of %s pages, from the cache model (see Memory "
                     "traffic); `page_ext` bytes for tagging per GiB of RAM. "
                     "All targets are in the table after Setup.\n" %
                     (self.cache_fig("off", ("page", "0", "ws")) or
                      {"n": "?"})["n"])
            s.append(self.lead() + "\n")
            if any(p.startswith("lead") for p in plots):
                s.append("![fork against stock](lead.svg)\n")
        s.append("## Setup\n")
        s.append(self.meta() + "\n")
        rows_desc = []
        for r in ROWS_ORDER:
            k, ref, en, args = MATRIX[r]
            rows_desc.append([r, "`%s`" % k, ref, en,
                              "`%s`" % args if args != "-" else "",
                              "measured" if r in self.rows else
                              "skipped: " + self.skip_reason.get(r, "no data")])
        s.append("Matrix (`benchmarks/matrix.txt`):\n")
        s.append(md_table(["row", "kernel", "representation", "enabled",
                           "boot args", "status"], rows_desc) + "\n")
        if skipped:
            s.append("Skipped rows are not faked: the guest reads "
                     "`/proc/sys/vm/mem_profiling_ref` and a row runs only "
                     "when it reports the row's representation.\n")
        s.append("## Determinism (icount)\n")
        if self.mismatch:
            s.append("**The icount runs do NOT agree** (%d of %d figures "
                     "differ):\n\n" % (len(self.mismatch), nchecked) +
                     "\n".join("- " + m for m in self.mismatch[:40]) + "\n")
        else:
            s.append("Each icount configuration ran twice; all %d figures "
                     "(microbenchmark, perf workloads, boot) are identical "
                     "between the two runs. Tables show run 1.\n" % nchecked)
        s.append("## Targets\n")
        s.append(self.table_targets() + "\n")
        nm = self.not_met()
        if nm:
            s.append("Where the fork rows with a target not met spend their "
                     "instructions, from the per-function traces in "
                     "[trace/README.md](trace/README.md), and what would "
                     "remove the rest:\n")
            s.append(nm + "\n")
        s.append("## Microbenchmark: instructions per alloc+free "
                 "(icount)\n")
        s.append("`allocbench` module, 1 GiB guest. One op = one allocation "
                 "plus its free; `batch` allocates %s objects, then frees "
                 "them; bulk is per page. Under `-icount shift=0` guest ns "
                 "equal instructions.\n" % "256")
        s.append(self.table_micro_icount() + "\n")
        if any(p.startswith("overhead") for p in plots):
            s.append("![overhead](overhead.svg)\n")
        s.append("Neither stock's compressed form nor the series touches the "
                 "slab paths: `kmalloc` and `kmem_cache` objects keep pointer "
                 "references in `slabobj_ext` in every form, so their rows "
                 "differ between forms only by the loop's amortised overhead "
                 "(a fraction of an instruction per op).\n")
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
                               for n in sorted({r["n"] for r in self.micro
                                                if r["kind"] == "ws"}))
                     or "?"))
        if self.cache:
            s.append("## Memory traffic (cache model)\n")
            s.append("The `cachesim` QEMU plugin (`benchmarks/cachesim/`) "
                     "feeds every guest load and store between the "
                     "benchmark module's markers into a cache model (%s; "
                     "the caches start empty at each window) under icount; "
                     "each configuration ran twice and the figures are "
                     "checked identical (Determinism). Hot loop: %s "
                     "alloc+free pairs; `lines/op` counts the distinct "
                     "64-byte lines each pair touches on its own (code "
                     "fetches excluded), `vs off` against the row's "
                     "baseline: the tag, its per-cpu counters and, for the "
                     "`page_ext` rows, the entry and the lookup's data, "
                     "some of which share lines with what the allocator "
                     "touches anyway. The working set below shows the "
                     "`page_ext` entries themselves: in the page-flags "
                     "forms the index lives in the `struct page` line "
                     "that every row touches.\n" % (
                         ", ".join(sorted({r["cache_model"]
                                           for r in self.cache})),
                         ", ".join(sorted({r["n"] for r in self.cache
                                           if r["kind"] == "hot"}))))
            s.append(self.table_cache("hot") + "\n")
            s.append("Working set: all N pages allocated, then all freed, "
                     "in one window; `lines/op` is the window's distinct "
                     "lines over N, the misses are per op. `page_ext` "
                     "entries of neighbouring pages share a line (8 a line "
                     "with pointers, 32 with 2-byte indexes), so its extra "
                     "misses are a fraction of a line per page.\n")
            s.append(self.table_cache("ws") + "\n")
            if any(p.startswith("traffic") for p in plots):
                s.append("![memory traffic](traffic.svg)\n")
        s.append("## Microbenchmark: wall time per alloc+free (TCG)\n")
        s.append("ns per op, median [min–max] of %s repeats in one boot; "
                 "QEMU TCG without icount (emulated, so absolute values are "
                 "far from hardware). The host has 2 cores shared with other "
                 "kernel builds, so these figures carry that load: read the "
                 "icount tables for the cost, these for the order of "
                 "magnitude.\n" %
                 (self.micro_wall(self.rows[0], self.micro_keys()[0])[3]
                  if self.rows and self.micro else "?"))
        s.append(self.table_micro_wall() + "\n")
        s.append("## perf stat workloads (icount)\n")
        s.append(self.table_perf_icount() + "\n")
        s.append("## perf stat workloads: wall time per op (TCG)\n")
        s.append("ns per op, median [min–max].\n")
        s.append(self.table_perf_wall() + "\n")
        s.append("## Boot and memory\n")
        s.append("Time to `/init` from the printk timestamp of \"Run /init "
                 "as init process\" (icount: virtual time, deterministic; "
                 "tcg: host time). Meminfo read first thing in the guest "
                 "command; page_ext from \"allocated N bytes of page_ext\".\n")
        s.append(self.table_boot() + "\n")
        if os.path.exists(os.path.join(self.d, "bootprof", "README.md")):
            s.append("Where each boot's instructions go, function by "
                     "function, fork row against stock peer: "
                     "[bootprof/README.md](bootprof/README.md) "
                     "(`make bootprof`).\n")
        s.append("Largest page_ext per GiB over the guest sizes:\n")
        s.append(self.table_mem_per_gib() + "\n")
        if any(p.startswith("memory") for p in plots):
            s.append("![memory](memory.svg)\n")
        if self.distro_rows:
            s.append("## On Debian's page-flag budget (distro rows)\n")
            s.append("Kernels built with `kernel/configs/distro.config`, "
                     "which leaves the same spare page-flag bits as Debian "
                     "7.3's amd64 config (none; `make test` checks the two "
                     "agree). Stock's `1,compressed` finds no room and "
                     "switches profiling off for the whole boot; the fork's "
                     "keeps profiling with a 2-byte index in `page_ext`. "
                     "Instructions under icount, 1 GiB guest, against "
                     "`off-distro` (same budget, profiling compiled out); "
                     "the main tables do not include these rows.\n")
            s.append(self.table_distro() + "\n")
        lt = self.link_tags()
        if lt:
            s.append("## link-tags (host post-link pass)\n")
            s.append("From `benchmarks/link-tags/bench.sh` "
                     "(`link-tags.tsv`, every sample kept there).\n")
            s.append(lt + "\n")
        others = [(f, t) for f, t in (
            ("pageflags.md", "page-flag budget survey"),
            ("tagcounts.md", "allocation tag counts"),
            ("rfc", "RFC material")) if os.path.exists(os.path.join(self.d, f))]
        if others:
            s.append("## Elsewhere in results/\n")
            s.append("\n".join("- [%s](%s)" % (t, f) for f, t in others) +
                     "\n")
        with open(os.path.join(self.d, "README.md"), "w") as f:
            f.write("\n".join(s))
        if readme:
            self.write_headline(readme)
        return 1 if self.mismatch else 0

    def write_headline(self, readme):
        begin, end = "<!-- results:begin -->", "<!-- results:end -->"
        with open(readme) as f:
            text = f.read()
        dates = sorted(r["date"] for r in self.micro + self.boot)
        commits = sorted({r["commit"] for r in self.micro + self.boot})
        kern = sorted({r["kernel"] for r in self.micro + self.boot})
        qemu = sorted({r["qemu"] for r in self.micro + self.boot})
        body = [begin,
                "Guest instructions per alloc+free pair (QEMU %s TCG, "
                "`-icount shift=0,sleep=off`, 1 vCPU, 1 GiB; Linux %s; "
                "%s; commit %s). Generated by `benchmarks/report.py`; all "
                "tables, targets and plots: [results/README.md]"
                "(results/README.md).\n" % (
                    ", ".join(qemu), ", ".join(kern),
                    dates[-1][:10] if dates else "?", ", ".join(commits)),
                self.headline(), "",
                md_table(["target", "verdict"],
                         [[n, v] for n, v, _ in self.targets()]),
                end]
        block = "\n".join(body)
        if begin in text and end in text:
            pre = text[:text.index(begin)]
            post = text[text.index(end) + len(end):]
            text = pre + block + post
        else:
            if "\n## Results" not in text:
                text = text.rstrip("\n") + "\n\n## Results\n"
            text = text.rstrip("\n") + "\n\n" + block + "\n"
        with open(readme, "w") as f:
            f.write(text)


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    readme = None
    if len(args) == 3 and args[1] == "--readme":
        readme = args[2]
    load_matrix()
    rep = Report(args[0])
    rc = rep.write(readme)
    if rc:
        print("report.py: icount runs disagree; see %s/README.md" % args[0],
              file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
