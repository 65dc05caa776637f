"""Where the series' gain over stock 7.3 comes from: per form, stock 7.3,
stock with only the series' upstream fixes (kernel tree "fixes": its
leading patches with a Fixes: tag, none of which needs an index), the fork
with its kernel tags numbered at boot instead of at link time (tree
"bootnum"), and the fork, side by side.  Columns: instructions over the baseline on the page
paths, instructions to /init, and what the row's kernel checks at build
time.  results/README.md and the RFC's cover letter render the same
cells."""
from . import data

# One group a form, stock first: the fixes row takes from stock what needs
# no index, the fork row the rest.
GROUPS = [["stock-compressed", "stock-fixes-compressed", "fork-bootnum-flags",
           "fork-flags"],
          ["stock-pointer", "stock-fixes-pointer", "fork-pointer"]]
PAGE_COLUMNS = [("order 0, module site", data.MODULE_SITE),
                ("order 0, kernel site", data.KERNEL_SITE),
                ("order 1", ("page", "1", "hot")),
                ("bulk, a page", ("bulk", "16", "hot"))]
BOOT_MIB = "1024"
# What a kernel variant checks at build time that the others find at boot
# or not at all.
BUILD_CHECKS = {
    "stock-bench": "none: at boot, tags too many for the spare page-flag "
                   "bits switch compressed profiling off",
    "stock-fixes-bench": "as stock",
    "fork-bench-bootnum": "BUILD_BUG_ON: the index field's place in page "
                          "flags; the count of tags only at boot",
    "fork-bench": "link-tags: the kernel's tags leave at least 4096 of "
                  "65536 indices to modules, and no dynamic relocation "
                  "writes an index; BUILD_BUG_ON: the index field's place "
                  "in page flags",
}


def groups(r):
    """The groups, each cut to the rows the matrix has (empty ones
    dropped)."""
    return [g for g in ([x for x in grp if x in r.matrix] for grp in GROUPS)
            if len(g) > 1]


def header(r):
    base = r.matrix.main
    return (["row"] + ["%s, over `%s`" % (c, base) for c, _ in PAGE_COLUMNS] +
            ["to /init, %d GiB, vs stock" % (int(BOOT_MIB) // 1024),
             "checked at build time"])


def cells(r):
    """Rows of cells (strings), one a matrix row, in GROUPS' order."""
    out = []
    for g in groups(r):
        stock_boot = r.boot_icount(g[0], BOOT_MIB)
        for row in g:
            m = r.matrix[row]
            line = [row]
            for _, key in PAGE_COLUMNS:
                b, v = r.micro_icount(m.baseline, key), r.micro_icount(row, key)
                line.append("not measured" if None in (b, v) else
                            "%+.1f (%+.1f%%)" % (v - b, (v - b) * 100.0 / b))
            boot = r.boot_icount(row, BOOT_MIB)
            if boot is None:
                line.append("not measured")
            elif row == g[0] or stock_boot is None:
                line.append("%.2fM" % (int(boot["init_ns"]) / 1e6))
            else:
                d = int(boot["init_ns"]) - int(stock_boot["init_ns"])
                line.append("%+.2fM (%+.2f%%)" % (
                    d / 1e6, d * 100.0 / int(stock_boot["init_ns"])))
            line.append(BUILD_CHECKS.get(m.kernel, "-"))
            out.append(line)
    return out
