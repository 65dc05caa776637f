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


def bench_label(bench, arg, kind):
    """A microbenchmark case (data.MODULE_SITE and the like) in words; a
    charged case (MODE_cg) is its MODE's, charged to a memory cgroup."""
    if bench.endswith("_cg"):
        s = bench_label(bench[:-3], arg, "hot") + ", charged"
        return s + {"batch": ", batch", "ws": ", working set"}.get(kind, "")
    if bench == "page":
        s = "page order %s" % arg
    elif bench == "kpage":
        s = "page order 0, kernel call site"
    elif bench == "bulk":
        s = "alloc_pages_bulk() of %s (per page)" % arg
    elif bench == "vmalloc":
        s = "vmalloc() and vfree() of %s pages (per page)" % arg
    elif bench == "kmalloc":
        s = "kmalloc(%s)" % arg
    elif bench == "kmalloc_acct":
        s = "kmalloc(%s), accounted" % arg
    elif bench == "acache":
        s = "kmem_cache %s B, accounted" % arg
    elif bench == "lru":
        s = "kmem_cache %s B, list_lru" % arg
    elif bench == "node":
        s = "kmem_cache %s B, on a node" % arg
    else:
        s = "kmem_cache %s B" % arg
    return s + {"batch": ", batch", "ws": ", working set"}.get(kind, "")
