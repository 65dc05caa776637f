"""Data access: the raw files of a results directory, read on first use.

  micro.csv perf.csv boot.csv cachesim.csv skipped.csv   make bench
  link-tags.tsv                                          make bench
  trace/ROW.txt                                          make trace
  bootprof/ROW.tsv                                       make bootprof
  pageflags.csv tagcounts.csv objsize.csv                make survey
  objsize-series.csv                                     make survey
  targets.csv                                            this report

Every figure the report, the plots and the RFC show comes through here.  A
file that is needed and missing raises DataError naming it."""
import csv
import os
import re
import statistics

from . import matrix as matrix_mod

# The order-0 pair at the two call sites, and over the working set.
MODULE_SITE = ("page", "0", "hot")
KERNEL_SITE = ("kpage", "0", "hot")
WORKING_SET = ("page", "0", "ws")
SITES = {"module": MODULE_SITE, "kernel": KERNEL_SITE}
# One kmalloc(64) and kfree() pair.
KMALLOC_SITE = ("kmalloc", "64", "hot")
# Every page row of the microbenchmark: each page order, the batch, bulk
# allocation, vmalloc() (bulk allocation and release), and the working
# set, at both call sites where measured.
PAGE_ROWS = (MODULE_SITE, KERNEL_SITE, ("page", "1", "hot"),
             ("page", "2", "hot"), ("page", "3", "hot"),
             ("page", "0", "batch"), ("bulk", "16", "hot"),
             ("vmalloc", "16", "hot"), WORKING_SET, ("kpage", "0", "ws"))
PAGE_ROWS_TEXT = ("orders 0-3, batch, bulk, vmalloc, working set, both call "
                  "sites")
# Every slab case of the microbenchmark: kmalloc() at each size and in
# batch, a private kmem_cache, and the paths the kernel's own objects take
# (dentry's 192 bytes; accounted kmalloc() and caches; kmem_cache_alloc_lru()
# on an accounted, reclaimable cache, as dentries and inodes; a node's
# cache), in the order the guest runs them.  A case the data lacks is
# judged not measured.
SLAB_KINDS = ("kmalloc", "kmalloc_acct", "cache", "acache", "lru", "node")
SLAB_ROWS = tuple(("kmalloc", size, "hot") for size in (
    "8", "64", "96", "192", "256", "1024", "4096")) + (
    ("kmalloc", "64", "batch"), ("cache", "64", "hot"),
    ("cache", "64", "batch"), ("cache", "192", "hot"),
    ("acache", "192", "hot"), ("kmalloc_acct", "64", "hot"),
    ("lru", "192", "hot"), ("node", "192", "hot"))
SLAB_ROWS_TEXT = ("kmalloc() of 8 to 4096 B and accounted, kmem_cache, "
                  "accounted, list_lru and node caches, batches")
# The accounted cases again, charged: run in a child memory cgroup (the
# guest's charged phase), where each object's obj_cgroup is charged, on
# the same caches; the cases above run in the root cgroup, where nothing
# is.  A kernel without memory cgroups has none of them: they are
# measured on the rows of MEMCG_FAMILIES only, and judged there beside
# SLAB_ROWS.
CHARGED_KINDS = ("kmalloc_acct_cg", "acache_cg", "lru_cg")
CHARGED_ROWS = (("acache_cg", "192", "hot"), ("kmalloc_acct_cg", "64", "hot"),
                ("lru_cg", "192", "hot"))
CHARGED_ROWS_TEXT = ("the accounted kmalloc(), cache and list_lru cases "
                     "charged to a memory cgroup too")
# The families of rows (Matrix.family()) whose kernels have memory
# cgroups compiled in: the distro rows' (kernel/configs/distro.config).
MEMCG_FAMILIES = ("off-distro",)
# The slab cases of a memcg kernel: SLAB_ROWS, each charged case after
# the uncharged one it repeats.
MEMCG_SLAB_ROWS = tuple(x for k in SLAB_ROWS for x in (k,) + tuple(
    c for c in CHARGED_ROWS if c == (k[0] + "_cg",) + k[1:]))

# The workloads (make bench's perf.csv), each with what one op is; micro
# is the microbenchmark's order-0 pair, the others real programs.
WORKLOADS = [("micro", "allocbench page order 0 (per alloc+free)"),
             ("messaging", "perf bench sched messaging (per message)"),
             ("files", "tmpfs file create, write, read, delete (per file)"),
             ("spawn", "fork + exec + exit of a static program (per spawn)"),
             ("stream", "AF_UNIX stream between processes (per 4 KiB)"),
             ("pagefault", "mmap/touch/munmap (per fault)"),
             ("forkexit", "fork + exit + wait (per fork)")]

BENCH_CSVS = ("micro.csv", "perf.csv", "boot.csv", "cachesim.csv",
              "skipped.csv")
MADE_BY = {"micro.csv": "make bench", "perf.csv": "make bench",
           "boot.csv": "make bench", "cachesim.csv": "make bench",
           "skipped.csv": "make bench", "pageflags.csv": "make survey",
           "tagcounts.csv": "make survey", "objsize.csv": "make survey",
           "objsize-series.csv": "make survey",
           "targets.csv": "make report"}


class DataError(Exception):
    pass


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        raise DataError("%s: missing (written by %s)" % (
            path, MADE_BY.get(os.path.basename(path), "its make step"))) from None


def header_words(path, lines=3):
    """key=value words of a raw file's leading '#' lines."""
    meta = {}
    with open(path) as f:
        for n, line in enumerate(f):
            if n >= lines or not line.startswith("#"):
                break
            for word in line[1:].split():
                k, _, v = word.partition("=")
                if v:
                    meta.setdefault(k, v)
    return meta


class Results:
    def __init__(self, d, matrix=None):
        self.d = d
        self.matrix = matrix or matrix_mod.load()
        self._csv = {}

    def path(self, *p):
        return os.path.join(self.d, *p)

    def has(self, *p):
        return os.path.exists(self.path(*p))

    def csv(self, name):
        if name not in self._csv:
            self._csv[name] = read_csv(self.path(name))
        return self._csv[name]

    def optional_csv(self, name):
        """The rows of name, or [] when it does not exist."""
        return self.csv(name) if self.has(name) else []

    micro = property(lambda self: self.csv("micro.csv"))
    perf = property(lambda self: self.csv("perf.csv"))
    boot = property(lambda self: self.csv("boot.csv"))
    cache = property(lambda self: self.csv("cachesim.csv"))
    skipped = property(lambda self: self.csv("skipped.csv"))

    # --- rows -----------------------------------------------------------
    def measured(self):
        """Matrix rows with figures, in matrix order."""
        have = {x["row"] for x in self.micro + self.perf + self.boot}
        return [r for r in self.matrix.names() if r in have]

    @property
    def rows(self):
        """Measured rows of the main tables: those over the main baseline."""
        return [r for r in self.measured()
                if self.matrix.family(r) == self.matrix.main]

    @property
    def other_rows(self):
        """Measured rows over another baseline (the distro rows)."""
        return [r for r in self.measured()
                if self.matrix.family(r) != self.matrix.main]

    def skip_reason(self, row, default="no data"):
        for s in self.skipped:
            if s["row"] == row:
                return s["reason"]
        return default

    def skip_reasons(self):
        out = {}
        for s in self.skipped:
            out.setdefault(s["row"], s["reason"])
        return out

    # --- determinism ------------------------------------------------------
    def determinism(self):
        """(figures compared, mismatches): every icount figure must be
        identical across the two icount runs of a configuration."""
        checks = [
            (self.micro, lambda r: (r["row"], r["mem_mib"], r["rep"], r["bench"],
                                    r["arg"], r["kind"], r["n"]),
             ["total_ns", "ns_per_op"]),
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
        n, mismatch = 0, []
        for data, key, cols in checks:
            by = {}
            for r in data:
                if r["icount"] == "off":
                    continue
                by.setdefault(key(r), {})[r["run"]] = r
            for k, runs in by.items():
                if len(runs) < 2:
                    mismatch.append("%s: only %d icount run(s)" % (k, len(runs)))
                    continue
                first = sorted(runs)[0].rsplit("-", 1)[0]
                a, b = runs.get(first + "-1"), runs.get(first + "-2")
                for c in cols:
                    n += 1
                    if a is None or b is None or a[c] != b[c]:
                        mismatch.append("%s %s: %s vs %s" % (
                            k, c, a and a[c], b and b[c]))
        return n, mismatch

    # --- microbenchmark -----------------------------------------------------
    def micro_keys(self, rows=None):
        """The cases measured, on any of rows (every row unless given)."""
        return list(dict.fromkeys((r["bench"], r["arg"], r["kind"])
                                  for r in self.micro
                                  if rows is None or r["row"] in rows))

    def memcg(self, *rows):
        """Whether every one of rows has memory cgroups compiled in (is of
        a family of MEMCG_FAMILIES), and so the charged slab cases."""
        return all(self.matrix.family(x) in MEMCG_FAMILIES for x in rows)

    def slab_keys(self, memcg=False):
        """The slab cases a target is judged on: every one of SLAB_ROWS,
        or with memcg of MEMCG_SLAB_ROWS (the charged cases too), measured
        or not, then any other slab case of those kinds measured."""
        declared = MEMCG_SLAB_ROWS if memcg else SLAB_ROWS
        kinds = SLAB_KINDS + (CHARGED_KINDS if memcg else ())
        return list(declared) + [k for k in self.micro_keys()
                                 if k[0] in kinds and k not in declared]

    # The rule that combines a row's repeats (REPEAT_RULE says it in the
    # report): the median of the repeats of icount run 1, which run 2
    # repeats exactly (Determinism); min and max give their spread.
    REPEAT_RULE = ("the median of the repeats in one boot (icount run 1), "
                   "with their spread, max minus min")

    def micro_reps(self, row, key):
        """Instructions per op of each repeat of run icount-1."""
        return [float(r["ns_per_op"]) for r in self.micro
                if (r["row"], r["run"]) == (row, "icount-1") and
                (r["bench"], r["arg"], r["kind"]) == key]

    def micro_icount(self, row, key):
        """Instructions per op: the median of run icount-1's repeats, or
        None."""
        v = self.micro_reps(row, key)
        return statistics.median(v) if v else None

    def micro_spread(self, row, key):
        """Max minus min of run icount-1's repeats, or None."""
        v = self.micro_reps(row, key)
        return max(v) - min(v) if v else None

    def micro_span(self, row, key):
        """(median, min, max) of run icount-1's repeats, or None."""
        v = self.micro_reps(row, key)
        return (statistics.median(v), min(v), max(v)) if v else None

    def micro_wall(self, row, key):
        """(median, min, max, repeats) of the plain-TCG ns per op, or None."""
        v = [float(r["ns_per_op"]) for r in self.micro
             if r["row"] == row and r["icount"] == "off" and
             (r["bench"], r["arg"], r["kind"]) == key]
        return (statistics.median(v), min(v), max(v), len(v)) if v else None

    def ws_sizes(self):
        return sorted({r["n"] for r in self.micro if r["kind"] == "ws"})

    # --- perf workloads -------------------------------------------------------
    # A row runs its workloads on several trajectories (docs/measuring.md):
    # run icount-1, which icount-2 replays exactly (Determinism), and each
    # run icount-tK, the same work started at another phase of the timer
    # tick.  The rule that combines them (TRAJ_RULE says it in the report):
    TRAJ_RULE = ("each trajectory's figure is the median of its repeats, "
                 "and a row's the median of its trajectories' figures, "
                 "with their range, min to max")

    @staticmethod
    def trajectory(run):
        """Whether run is a trajectory of its own: icount-1 or icount-tK,
        not the replay icount-2 nor a plain-TCG run."""
        return run == "icount-1" or run.startswith("icount-t")

    def perf_trajs(self, row, w):
        """The ns per op of workload w's repeats in each trajectory of row,
        icount-1 first ([] for none)."""
        by = {}
        for r in self.perf:
            if (r["row"], r["workload"]) == (row, w) and \
                    self.trajectory(r["run"]):
                by.setdefault(r["run"], []).append(float(r["ns_per_op"]))
        return [by[run] for run in sorted(by)]

    def perf_figures(self, row, w):
        """Each trajectory's figure of workload w: the median of its
        repeats."""
        return [statistics.median(v) for v in self.perf_trajs(row, w)]

    def perf_span(self, row, w):
        """(median, min, max) of workload w's trajectory figures, or
        None."""
        v = self.perf_figures(row, w)
        return (statistics.median(v), min(v), max(v)) if v else None

    def perf_shape(self, row, w):
        """(trajectories, fewest repeats, most repeats) of workload w, or
        None."""
        t = self.perf_trajs(row, w)
        return (len(t), min(map(len, t)), max(map(len, t))) if t else None

    def perf_reps(self, row, w):
        """The repeats of workload w in run icount-1, by ns per op."""
        return sorted((r for r in self.perf
                       if (r["row"], r["run"], r["workload"]) ==
                       (row, "icount-1", w)),
                      key=lambda r: float(r["ns_per_op"]))

    def perf_icount(self, row, w):
        """The median repeat of workload w in run icount-1 (the lower of
        the two middle ones for an even count), whose counters (task
        clock, faults, switches) the report shows, or None."""
        reps = self.perf_reps(row, w)
        return reps[(len(reps) - 1) // 2] if reps else None

    def perf_wall(self, row, w):
        v = [float(r["ns_per_op"]) for r in self.perf
             if r["row"] == row and r["icount"] == "off" and r["workload"] == w]
        return (statistics.median(v), min(v), max(v), len(v)) if v else None

    # --- boot and memory --------------------------------------------------------
    # init_ns is the printk timestamp of "Run /init as init process"
    # (bench-guest.sh phase_boot), which the console prints in whole
    # microseconds: a multiple of INIT_TICK_NS, the instant truncated to
    # its tick.  Under -icount shift=0 a guest ns is one instruction, so
    # an icount run's init_ns is the instructions to /init at a
    # resolution of INIT_TICK_NS.
    INIT_TICK_NS = 1000

    def mems(self):
        return sorted({r["mem_mib"] for r in self.boot}, key=int)

    def boot_icount(self, row, mem):
        for r in self.boot:
            if (r["row"], r["mem_mib"], r["run"]) == (row, mem, "icount-1"):
                return r
        return None

    def boot_wall(self, row, mem):
        v = [int(r["init_ns"]) / 1e6 for r in self.boot
             if (r["row"], r["mem_mib"]) == (row, mem) and r["icount"] == "off"]
        return (statistics.median(v), min(v), max(v), len(v)) if v else None

    def boots(self, row, mem):
        """Every boot of row at guest size mem: icount runs and TCG ones."""
        return [r for r in self.boot if (r["row"], r["mem_mib"]) == (row, mem)]

    # The memory bill: what a row costs in memory over its baseline, the
    # drop in MemAvailable right after boot (bench-guest.sh reads
    # /proc/meminfo first thing, and the boot's "Memory:" line), in KiB,
    # split into parts that sum to it exactly.  Each part is a figure of
    # one boot (held()), the bill's the row's less its baseline's.  Of one
    # boot, RAM (the pages present, the same in every boot of one guest
    # size, so left out) less MemAvailable is, term by term:
    #   RAM - MemTotal      what memblock kept from the page allocator and
    #                       the boot did not free: the kernel image (code,
    #                       rwdata, rodata and bss of the "Memory:" line),
    #                       Percpu, and the rest ("other reserved": struct
    #                       pages, boot page tables, other memblock
    #                       allocations).  The line's own "reserved" is
    #                       not used: it still holds the init sections, the
    #                       initrd and the image's padding, which the boot
    #                       frees into MemTotal before /init.
    #   MemTotal - MemFree  what the page allocator has handed out: page_ext
    #                       (on SPARSEMEM allocated by alloc_pages_exact()
    #                       or vmalloc once memblock has handed its pages
    #                       over, so inside MemTotal and no part of
    #                       "reserved"), Slab, and the rest ("other
    #                       allocated": page tables, stacks, rootfs files,
    #                       and the per-CPU page lists, free pages MemFree
    #                       does not count, which is why Slab and the rest
    #                       can move against each other).
    #   MemFree - MemAvailable  MemAvailable's own estimate ("reclaim
    #                       estimate"): the watermarks less the page cache
    #                       and slab it counts reclaimable.
    # Percpu is counted once, among what memblock kept: /proc/meminfo's
    # Percpu is every populated percpu page, the first chunk's included,
    # and the first chunk is memblock's; in these boots it is the first
    # chunk whole (the static percpu section and the 8 KiB module and
    # 28 KiB dynamic reserves, to the page).  A page of a later chunk
    # comes from the page allocator: it would show in "other allocated"
    # and, as much negative, in "other reserved", the sum unchanged.
    BILL_PARTS = ["kernel image", "Percpu", "other reserved", "page_ext",
                  "Slab", "other allocated", "reclaim estimate"]
    BILL_COLS = ["memtotal_kb", "memfree_kb", "memavail_kb", "page_ext_bytes",
                 "percpu_kb", "slab_kb", "kernel_kb"]

    @classmethod
    def held(cls, b):
        """{part: KiB} of one boot b: what the kernel holds by each of
        BILL_PARTS, and "MemAvailable", RAM less MemAvailable, their sum;
        None when b lacks a figure (a run before the columns)."""
        if any(not b.get(c, "").isdigit() for c in cls.BILL_COLS):
            return None
        total, free, avail, pe, percpu, slab, kernel = (
            int(b[c]) for c in cls.BILL_COLS)
        pe //= 1024
        return {"MemAvailable": -avail, "kernel image": kernel,
                "Percpu": percpu, "other reserved": -total - kernel - percpu,
                "page_ext": pe, "Slab": slab,
                "other allocated": total - free - pe - slab,
                "reclaim estimate": free - avail}

    def bill(self, row, mem):
        """{part: KiB over the baseline} of row at guest size mem (icount
        run 1), "MemAvailable" the whole bill and BILL_PARTS its parts;
        None when either boot lacks a figure."""
        b, o = self.boot_icount(row, mem), \
            self.boot_icount(self.matrix[row].baseline, mem)
        hb, ho = (None if x is None else self.held(x) for x in (b, o))
        if hb is None or ho is None:
            return None
        return {p: hb[p] - ho[p] for p in hb}

    def held_span(self, row, mem, part="MemAvailable"):
        """(icount run 1's, min, max) of part held (held()) over every
        boot of row at mem, or None."""
        b = self.boot_icount(row, mem)
        v = [h[part] for h in map(self.held, self.boots(row, mem)) if h]
        return (self.held(b)[part], min(v), max(v)) \
            if b is not None and self.held(b) else None

    def bill_resolution(self, mem):
        """{part: (median, largest, row)} of what two boots of one kernel
        differ by at guest size mem: each row's spread, max minus min of
        the part over its boots (icount runs, which replay each other,
        and TCG ones), taken over the rows; {} without boots."""
        out = {}
        for part in ["MemAvailable"] + self.BILL_PARTS:
            spread = []
            for row in self.measured():
                sp = self.held_span(row, mem, part)
                if sp is not None:
                    spread.append((sp[2] - sp[1], row))
            if spread:
                out[part] = (statistics.median(s for s, _ in spread),) + \
                    max(spread)
        return out

    def page_ext_per_gib(self, row):
        """The largest page_ext bytes per GiB of guest RAM over the guest
        sizes the row booted with (icount run 1), or None."""
        per = [int(r["page_ext_bytes"]) * 1024 / int(r["mem_mib"])
               for r in self.boot if r["row"] == row and r["run"] == "icount-1"]
        return max(per) if per else None

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
        return list(dict.fromkeys((r["bench"], r["arg"], r["kind"])
                                  for r in self.cache if r["kind"] == kind))

    def cache_rows(self):
        have = {x["row"] for x in self.cache}
        return [r for r in self.matrix.names() if r in have]

    # --- link-tags ------------------------------------------------------------
    def link_tags(self):
        """(notes, header, rows) of link-tags.tsv, or None."""
        if not self.has("link-tags.tsv"):
            return None
        hdr, rows, notes = None, [], []
        with open(self.path("link-tags.tsv")) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#"):
                    notes.append(line.lstrip("# "))
                elif hdr is None:
                    hdr = line.split("\t")[:8]
                else:
                    rows.append(line.split("\t")[:8])
        return (notes, hdr, rows) if hdr else None

    # --- traces (make trace) ----------------------------------------------------
    # A case is one loop of allocbench: "page-0" (its traces at the top of
    # trace/), "page-1", "bulk-16", "vmalloc-16" (each in a directory of
    # that name).
    def trace_cases(self):
        """The traced cases: page-0 first, then page orders, the kernel
        call site's page, bulk, vmalloc, then the slab cases by kind
        (SLAB_KINDS: kmalloc, accounted kmalloc, kmem_cache, accounted,
        list_lru and node caches), each batch case after its hot one."""
        d = self.path("trace")
        subs = sorted(x for x in os.listdir(d) if os.path.isdir(
            os.path.join(d, x))) if os.path.isdir(d) else []
        kinds = ("page", "kpage", "bulk", "vmalloc") + SLAB_KINDS
        key = lambda c: (kinds.index(c.split("-")[0]), int(c.split("-")[1]),
                         c.endswith("-batch"))
        cases = [c for c in ["page-0"] + subs
                 if re.fullmatch(r"(%s)-\d+(-batch)?" % "|".join(kinds), c)]
        return sorted(cases, key=key)

    def _trace_path(self, row, case):
        sub = () if case == "page-0" else (case,)
        return ("trace",) + sub + (row + ".txt",)

    def trace_rows(self, case="page-0"):
        """Matrix rows with a trace of case, in matrix order."""
        return [r for r in self.matrix.names()
                if self.has(*self._trace_path(r, case))]

    def trace_meta(self, row, case="page-0"):
        return header_words(self.path(*self._trace_path(row, case)))

    def trace_pairs(self, row, case="page-0"):
        """The alloc+free pairs in one traced iteration: a batch round's
        objects (its 'pairs=' word), else 1."""
        return int(self.trace_meta(row, case).get("pairs", "1"))

    def trace_steps(self, row, case="page-0"):
        """(symbol, frames) of each instruction of one traced iteration, or
        None for no trace.  frames: (function, "file:line") of each
        function the instruction was inlined through, innermost first, the
        symbol's own last; None where the trace does not say."""
        if not self.has(*self._trace_path(row, case)):
            return None
        # Each address once, as "address count symbol", with the header
        # word that says so.
        path = self.path(*self._trace_path(row, case))
        if self.trace_meta(row, case).get("counted") != "yes":
            raise DataError("%s: no 'counted=yes' in its header (take it again "
                            "with make trace)" % path)
        steps = []
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                sym, tab, chain = line.rstrip("\n").partition("\t")
                words = sym.split(None, 2)
                fn = words[-1].strip()
                frames = None
                if tab:
                    frames = [tuple(fr.split("@", 1)) for fr in chain.split(";")
                              if chain != "-"]
                steps.extend([(fn, frames)] * int(words[1]))
        return steps

    def trace_source(self, row, case="page-0"):
        """{"file:line": text} of the source lines a trace's frames name."""
        src = {}
        if self.has(*self._trace_path(row, case)):
            with open(self.path(*self._trace_path(row, case))) as f:
                for line in f:
                    if line.startswith("# src "):
                        place, _, text = line[6:].rstrip("\n").partition("\t")
                        src[place] = text
        return src

    def trace_counts(self, row, case="page-0"):
        """Instructions per function of one traced iteration, or None."""
        steps = self.trace_steps(row, case)
        if steps is None:
            return None
        counts = {}
        for fn, _ in steps:
            counts[fn] = counts.get(fn, 0) + 1
        return counts

    # --- boot profiles (make bootprof) --------------------------------------------
    def bootprof_rows(self):
        return [r for r in self.matrix.names()
                if self.has("bootprof", r + ".tsv")]

    def bootprof(self, row):
        """(header words, instructions per function) of a boot profile."""
        path = self.path("bootprof", row + ".tsv")
        if not os.path.exists(path):
            raise DataError("%s: missing (written by make bootprof)" % path)
        counts = {}
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                name, n = line.rstrip("\n").split("\t")
                counts[name] = int(n)
        return header_words(path), counts

    def workload_profiles(self):
        """(workload, row) of every workload profile, in matrix order."""
        return [(w, x) for w, _ in WORKLOADS for x in self.matrix.names()
                if self.has("bootprof", w, x + ".tsv")]

    def profile_over(self, row, base, workload):
        """Kernel instructions an op by function that row's workload
        profile runs over base's (make bootprof), or None if either is
        missing."""
        a, b = self.workload_profile(row, workload), \
            self.workload_profile(base, workload)
        if a is None or b is None:
            return None
        n, m = int(a[0].get("ops", 1)), int(b[0].get("ops", 1))
        return {f: a[1].get(f, 0) / n - b[1].get(f, 0) / m
                for f in set(a[1]) | set(b[1])}

    def workload_profile(self, row, workload):
        """(header words, kernel instructions per function) of a row's
        workload profile (make bootprof), or None."""
        path = self.path("bootprof", workload, row + ".tsv")
        if not os.path.exists(path):
            return None
        counts = {}
        with open(path) as f:
            for line in f:
                if not line.startswith("#"):
                    name, n = line.rstrip("\n").split("\t")
                    counts[name] = int(n)
        return header_words(path), counts

    # --- surveys (make survey) ----------------------------------------------------
    @property
    def pageflags(self):
        return self.csv("pageflags.csv")

    @property
    def tagcounts(self):
        return self.csv("tagcounts.csv")

    def objsize(self):
        return self.optional_csv("objsize.csv")

    def object_size(self, kernel, obj):
        """objsize.csv's row of a kernel variant's object, or None."""
        for x in self.objsize():
            if x["config"] == "guest-" + kernel and x["object"] == obj:
                return x
        return None
