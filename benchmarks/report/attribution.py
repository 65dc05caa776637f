"""Where the series' gain over stock 7.3 comes from: per form, stock 7.3,
then the series up to the head of each posting (kernel/patches/series)
that changes a row's form: A, the upstream fixes (tree "fixes"); B, the
page free paths; C, an unloaded module's lines; D, compact references
(tree "pretag"); the fork, E to H on top.  Beside them the fork with
its kernel tags numbered at boot instead of at link time (tree
"bootnum").  Columns: instructions over the baseline on the page paths,
instructions to /init, and what the row's kernel checks at build time.
results/README.md and the RFC's cover letters render the same cells."""
from . import data

# Each row's part in its form's group, in the table's order: "stock", a
# posting head (the series up to the end of that posting), "bootnum"
# beside the fork, and "fork" (the whole series).  Which row plays which
# part is the matrix's ROLE column.
ROLES = ("stock", "A", "B", "C", "D", "bootnum", "fork")
PAGE_COLUMNS = [("order 0, module site", data.MODULE_SITE),
                ("order 0, kernel site", data.KERNEL_SITE),
                ("order 1", ("page", "1", "hot")),
                ("bulk, a page", ("bulk", "16", "hot"))]
BOOT_MIB = "1024"
# What each role's kernel checks at build time that the others find at boot
# or not at all.
LINK_TAGS = ("link-tags: every kernel tag numbered, no dynamic relocation "
             "writes an index, and a warning with the counts when fewer "
             "than 4096 of 65536 indices are left to modules; BUILD_BUG_ON: "
             "the index field's place in page flags")
BUILD_CHECKS = {
    "stock": "none: at boot, tags too many for the spare page-flag bits "
             "switch compressed profiling off",
    "A": "as stock", "B": "as stock", "C": "as stock",
    "D": LINK_TAGS,
    "bootnum": "BUILD_BUG_ON: the index field's place in page flags; the "
               "count of tags only at boot",
    "fork": LINK_TAGS,
}
# The rows before compact references: measures of where the gain comes
# from, not the fork, so no fork target judges them.
BEFORE_INDEX = ("A", "B", "C")


def fixes_rows(matrix):
    """The rows of stock with postings that need no index: a measure of
    the fork's gain, not the fork, so no fork target judges them."""
    return {g[x] for g in matrix.roles().values() for x in BEFORE_INDEX
            if x in g}


def groups(r):
    """The groups, each cut to the rows the matrix has, as (role, row) in
    ROLES' order; a group needs its stock and fork rows."""
    out = []
    for g in r.matrix.roles().values():
        unknown = set(g) - set(ROLES)
        if unknown:
            raise data.DataError("%s: ROLE part %s is none of %s" % (
                r.matrix.path, ", ".join(sorted(unknown)), ", ".join(ROLES)))
        have = [(x, g[x]) for x in ROLES if x in g]
        if {"stock", "fork"} <= {x for x, _ in have}:
            out.append(have)
    return out


def measured(r):
    """Whether any row between stock and fork has data."""
    return any(row in r.rows for g in groups(r) for role, row in g
               if role not in ("stock", "fork"))


def header(r):
    base = r.matrix.main
    return (["row"] + ["%s, over `%s`" % (c, base) for c, _ in PAGE_COLUMNS] +
            ["to /init, %d GiB, vs stock" % (int(BOOT_MIB) // 1024),
             "checked at build time"])


def cells(r):
    """Rows of cells (strings), one a matrix row, in the groups' order."""
    out = []
    for g in groups(r):
        stock = dict(g)["stock"]
        stock_boot = r.boot_icount(stock, BOOT_MIB)
        # One fixed point for every posting head: stock's baseline
        base = r.matrix[stock].baseline
        for role, row in g:
            line = [row]
            for _, key in PAGE_COLUMNS:
                b, v = r.micro_icount(base, key), r.micro_icount(row, key)
                line.append("not measured" if None in (b, v) else
                            "%+.1f (%+.1f%%)" % (v - b, (v - b) * 100.0 / b))
            boot = r.boot_icount(row, BOOT_MIB)
            if boot is None:
                line.append("not measured")
            elif row == stock or stock_boot is None:
                line.append("%.2fM" % (int(boot["init_ns"]) / 1e6))
            else:
                d = int(boot["init_ns"]) - int(stock_boot["init_ns"])
                line.append("%+.2fM (%+.2f%%)" % (
                    d / 1e6, d * 100.0 / int(stock_boot["init_ns"])))
            line.append(BUILD_CHECKS[role])
            out.append(line)
    return out


def _pair(r, row, other):
    """(order-0 module-site instructions, boot instructions) of row minus
    other's, and other's boot instructions; None if either is missing."""
    a, b = (r.micro_icount(x, data.MODULE_SITE) for x in (row, other))
    ba, bb = (r.boot_icount(x, BOOT_MIB) for x in (row, other))
    if None in (a, b, ba, bb):
        return None
    return a - b, int(ba["init_ns"]) - int(bb["init_ns"]), int(bb["init_ns"])


# What each part of the chain from stock to the fork is, in the findings.
STEPS = {"A": "the upstream fixes (A)", "B": "the free paths (B)",
         "C": "module lifetime (C)", "D": "compact references (D)",
         "fork": "the rest of the series"}


def steps(r, g):
    """What each measured posting head of group g takes off, or adds to,
    what its stock row adds over stock's baseline (order 0, module site),
    each over the head before it; None without the stock row's figures."""
    def v(x):
        return r.micro_icount(x, data.MODULE_SITE)
    stock = g["stock"]
    base = r.matrix[stock].baseline
    if None in (v(base), v(stock)) or v(stock) <= v(base):
        return None
    added, prev, parts, skipped = v(stock) - v(base), stock, [], []
    for role in ROLES:
        if role in ("stock", "bootnum") or role not in g:
            continue
        if v(g[role]) is None:
            skipped.append(role)
            continue
        # A head not measured merges its step into the next one's.
        what = STEPS[role] if not skipped else (
            "postings %s to %s" % (skipped[0], role) if role != "fork" else
            "postings %s on" % skipped[0])
        d = v(prev) - v(g[role])
        parts.append("%s (`%s`) %s %.1f (%.0f%%)" % (
            what, g[role], "takes off" if d >= 0 else "adds",
            abs(d), 100.0 * abs(d) / added))
        prev, skipped = g[role], []
    return ("`%s` adds %.1f instructions over `%s` (order 0, module site); "
            "posting by posting, %s." % (stock, added, base, "; ".join(parts)))


def findings(r):
    """The table in sentences, computed from it: per group, what each
    posting head takes off stock's overhead; and what numbering at boot
    instead of at link time changes against the fork."""
    out = []
    for g in groups(r):
        g = dict(g)
        fork = g["fork"]
        s = steps(r, g)
        if s:
            out.append(s)
        boot = g.get("bootnum")
        p = _pair(r, boot, fork) if boot else None
        if p:
            hot, d, total = p
            slow = abs(hot) >= 0.5 or abs(d) * 1000 >= total
            out.append(
                "Numbering the kernel's tags at boot (`%s`) instead of at "
                "link time (`%s`) changes the order-0 pair by %+.1f "
                "instructions and the boot to `/init` by %+d (%+.3f%%): %s" % (
                    boot, fork, hot, d, 100.0 * d / total,
                    "link time is worth that much in speed." if slow else
                    "link time is not about speed. What it buys is the "
                    "check at build time: a kernel whose tags leave too "
                    "few indices for modules says so, with the counts, "
                    "when it is linked, instead of switching compressed "
                    "references off when it boots."))
    return out
