"""The cells every part of the report writes alike: percentages, figures,
the microbenchmark's case names and Markdown tables.  It reads no data."""


def md(table, left=1):
    """A Markdown table: the first left columns left-aligned, the rest
    right-aligned."""
    header, rows = table
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i < left else "---:"
                          for i in range(len(header))) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


def fmt_n(v, nd=1):
    return "" if v is None else ("%.*f" % (nd, v))


def fmt_pct(p):
    return "" if p is None else "%+.1f%%" % p


def pct(v, base):
    if base is None or v is None or base == 0:
        return None
    return (v - base) / base * 100.0


# Each microbenchmark mode's words, with its argument at %s.
BENCH_LABELS = {
    "page": "page order %s",
    "kpage": "page order 0, kernel call site",
    "bulk": "alloc_pages_bulk() of %s (per page)",
    "vmalloc": "vmalloc() and vfree() of %s pages (per page)",
    "kmalloc": "kmalloc(%s)",
    "kmalloc_acct": "kmalloc(%s), accounted",
    "acache": "kmem_cache %s B, accounted",
    "lru": "kmem_cache %s B, list_lru",
    "node": "kmem_cache %s B, on a node",
    "cache": "kmem_cache %s B",
}


def bench_label(bench, arg, kind):
    """A microbenchmark case (data.MODULE_SITE and the like) in words; a
    charged case (MODE_cg) is its MODE's, charged to a memory cgroup."""
    if bench.endswith("_cg"):
        s = bench_label(bench[:-3], arg, "hot") + ", charged"
    else:
        words = BENCH_LABELS.get(bench, BENCH_LABELS["cache"])
        s = words % arg if "%s" in words else words
    return s + {"batch": ", batch", "ws": ", working set"}.get(kind, "")
