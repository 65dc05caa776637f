"""The targets of benchmarks/report/targets.txt (its header says what
each kind means), judged: load() reads them, judge() computes every
verdict from the CSVs, one judge a kind (JUDGES); write() keeps them in
results/targets.csv, from which the tables and the RFC are written.  The
peer and the baseline of each come from benchmarks/matrix.txt."""
import csv
import itertools
import os
from fractions import Fraction
from typing import NamedTuple

from . import attribution, data, survey
from .fmt import bench_label, fmt_pct, pct

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "targets.txt")


class Target(NamedTuple):
    kind: str
    row: str = "*"
    site: str = "-"
    limit: str = "-"
    stretch: bool = False
    vs: str = ""
    # A fact follows from the design or from arithmetic (0 bytes of
    # page_ext where the index is in page flags, 2 bytes a page where it
    # is in page_ext): the data is checked against it, but it is no target
    # and is shown apart from them.
    fact: bool = False
    # Why the target, when not met, cannot be met: a bound of the design,
    # which the row's trace shows beside it in results/README.md.
    why: str = ""


def parse(text, path="targets"):
    """The targets of text, in order: KIND ROW SITE LIMIT VS AS [WHY],
    WHY going on over the indented lines after it."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if line[0].isspace():
            if not out:
                raise data.DataError("%s:%d: an indented line and no target "
                                     "before it" % (path, no))
            t = out[-1]
            out[-1] = t._replace(why=" ".join([t.why] + w).lstrip())
            continue
        if len(w) < 6:
            raise data.DataError("%s:%d: want KIND ROW SITE LIMIT VS AS "
                                 "[WHY], found %d column(s)"
                                 % (path, no, len(w)))
        kind, row, site, limit, vs, what = w[:6]
        if kind not in JUDGES:
            raise data.DataError("%s:%d: no kind %s" % (path, no, kind))
        if what not in ("target", "stretch", "fact"):
            raise data.DataError("%s:%d: AS %s is not target, stretch or fact"
                                 % (path, no, what))
        out.append(Target(kind, row, site, limit, what == "stretch",
                          "" if vs == "-" else vs, what == "fact",
                          " ".join(w[6:])))
    return out


def load(path=None):
    """The targets of path, or of targets.txt beside this file (PATH)."""
    path = path or PATH
    with open(path) as f:
        return parse(f.read(), path)


TRAFFIC_SLACK = 0.005
# Targets whose figures are instructions of the order-0 pair: when one is
# not met, the report shows where the row's traced instructions go.
INSTRUCTION_KINDS = ("share", "within", "pages_within", "pages_share",
                     "slab_share", "slab_within")
# Targets over the workloads (instructions an op too): when one is not
# met, the report names the functions of its workloads' profiles (make
# bootprof).
WORKLOAD_KINDS = ("workloads_share", "workloads_within")

FIELDS = ["kind", "row", "peer", "base", "site", "limit", "stretch",
          "fact", "target", "verdict", "measured", "why"]


# The kinds that hold a row to its baseline, or to an absolute limit,
# alone: they have no peer.
NO_PEER = ("within", "pages_within", "workloads_within", "slab_within",
           "page_ext", "profile_top")


def peer(r, t):
    if t.vs:
        return t.vs
    if t.kind in NO_PEER or t.row == "*":
        return "-"
    return r.matrix[t.row].peer


def base(r, t):
    return r.matrix[t.row].baseline if t.row != "*" else r.matrix.main


def own_base(r, row):
    """The profiling-off row of row's own tree (BASE in the matrix): each
    side of a comparison is taken over its own."""
    return r.matrix[row].baseline


def over_what(r, t, p):
    """How a share names the baselines: the one both sides share, or each
    side's own."""
    o, po = base(r, t), own_base(r, p)
    return "`%s`" % o if o == po else "its own tree's (`%s`, `%s`)" % (o, po)


def name(r, t):
    """The target in English."""
    where = "%s call site" % t.site
    p, o = peer(r, t), base(r, t)
    if t.kind == "share":
        if Fraction(t.limit) == 1:
            return "`%s` adds no more than `%s` over %s (order-0 page " \
                   "alloc+free, %s, instructions)" % (t.row, p,
                                                     over_what(r, t, p), where)
        return "`%s` adds at most %s of what `%s` adds over %s (order-0 " \
               "page alloc+free, %s, instructions)" % (
                   t.row, t.limit, p, over_what(r, t, p), where)
    if t.kind == "within":
        return "%s`%s` within +%s%% of `%s` (order-0 page alloc+free, %s, " \
               "instructions)" % ("Stretch: " if t.stretch else "", t.row,
                                  t.limit, o, where)
    if t.kind == "pages_within":
        return "%s`%s` within +%s%% of `%s` on every page row (%s; " \
               "instructions)" % ("Stretch: " if t.stretch else "", t.row,
                                  t.limit, o, data.PAGE_ROWS_TEXT)
    if t.kind == "pages_share":
        return "`%s` adds at most %s of what `%s` adds over %s on every " \
               "page row (%s; instructions)" % (t.row, t.limit, p,
                                                over_what(r, t, p),
                                                data.PAGE_ROWS_TEXT)
    if t.kind == "memory_share":
        return "`%s` costs %s the memory `%s` costs, each over its " \
               "baseline (MemAvailable, every guest size, at the " \
               "resolution of its boots)" % (
                   t.row, "no more than" if t.limit == "1" else
                   "at most %s of" % t.limit, p)
    if t.kind == "workloads_share":
        return "`%s` adds at most %s of what `%s` adds over %s on every " \
               "workload (%s; instructions an op)" % (
                   t.row, t.limit, p, over_what(r, t, p), WORKLOADS_TEXT)
    if t.kind == "workloads_within":
        return "%s`%s` within +%s%% of `%s` on every workload (%s; " \
               "instructions an op)" % ("Stretch: " if t.stretch else "",
                                        t.row, t.limit, o, WORKLOADS_TEXT)
    if t.kind == "slab_share":
        return "`%s` adds at most %s of what `%s` adds over %s on every " \
               "slab case (%s; instructions)" % (
                   t.row, t.limit, p, over_what(r, t, p), slab_text(r, t))
    if t.kind == "slab_within":
        return "%s`%s` within +%s instructions of `%s` on every slab case " \
               "(%s)" % ("Stretch: " if t.stretch else "", t.row, t.limit, o,
                         slab_text(r, t))
    if t.kind == "slab" and t.vs:
        if t.limit == "0":
            return "Slab paths in `%s` run no more instructions than in " \
                   "`%s` (every slab case: %s)" % (t.row, p,
                                                  slab_text(r, t))
        return "Slab paths in `%s` within %s instructions of `%s` (every " \
               "slab case: %s)" % (t.row, t.limit, p, slab_text(r, t))
    if t.kind == "slab":
        return "Slab paths in `%s` no slower than `%s` (instructions, within " \
               "%s an op)" % (t.row, p, t.limit)
    if t.kind == "page_ext":
        return "`%s`: %s of `page_ext` for tagging" % (
            t.row, "zero bytes" if t.limit == "0" else
            "%s bytes a page" % t.limit)
    if t.kind == "page_ext_share":
        return "`%s` needs at most %s of the `page_ext` bytes of `%s`" % (
            t.row, {"1/4": "a quarter", "1/2": "half"}.get(t.limit, t.limit), p)
    if t.kind == "traffic":
        return "Memory traffic: over the working set, the rows with tags in " \
               "`page_ext` touch its lines (at least %s of `page_ext` bytes " \
               "a page / 64 more lines per op than `%s`), the page-flags " \
               "rows no more lines than `%s` (within %s)" % (
                   t.limit, o, o, TRAFFIC_SLACK)
    if t.kind == "delta":
        if t.limit == "0":
            return "`%s` runs no more instructions than `%s` (order-0 page " \
                   "alloc+free, both call sites)" % (t.row, p)
        return "`%s` within %s instructions of `%s` (order-0 page " \
               "alloc+free, both call sites)" % (t.row, t.limit, p)
    if t.kind == "object_size":
        return "`%s`'s `%s` at most %s bytes of text over `%s`'s (the " \
               "kernels' relocatable objects, make survey)" % (
                   r.matrix[t.row].kernel, t.site, t.limit,
                   r.matrix[peer(r, t)].kernel)
    if t.kind == "profile_top":
        return "No out-of-line slab hook (`%s*`) among the %s kernel " \
               "functions `%s`'s workload profiles run most over `%s`'s " \
               "(every workload; kernel instructions an op, make " \
               "bootprof)" % (SLAB_HOOKS, t.limit, t.row, o)
    if t.kind == "boot":
        return "Boot: each fork row reaches `/init` in no more " \
               "instructions than its stock peer (icount, to the printk " \
               "timestamp's tick of %d instructions)" % r.INIT_TICK_NS
    raise ValueError("targets.py: unknown kind %r" % t.kind)


# The workloads a workloads target is judged on, in words.
WORKLOADS_TEXT = "messaging, tmpfs files, spawn, stream, page faults, fork"


def absent(r, *rows):
    for row in rows:
        if row not in r.measured():
            return "not measured: %s" % r.skip_reason(row, "row not in the data")
    return None


# How a target over repeated figures (the microbenchmark's, the
# workloads') is judged, as results/README.md states it: one sentence.
NOISE_RULE = (
    "each case (a page row, a slab case, a call site, a workload) is met "
    "when its limit holds even with every row it compares at whichever of "
    "its figures is the least favourable, not met when the limit fails "
    "even with every row at the most favourable, and within noise "
    "otherwise, where a row's figures are, on a workload, its "
    "trajectories' (each the median of that trajectory's repeats) and, on "
    "the microbenchmark, its repeats in one boot, and a share weighs what "
    "the peer adds over its baseline by the share, except that a row "
    "held within a limit of another row of its tree (the delta and slab "
    "targets) is judged repeat by repeat, each repeat of the one against "
    "the same repeat of the other, which ran at the same point of the same "
    "guest script; the verdict names "
    "every case not met and every case within noise, with its figures")


def extremes(rows, spans, margin):
    """The least and the most favourable margin(*figures) over the rows'
    figures (the microbenchmark's repeats, a workload's trajectories):
    each row of rows (a row named twice taken once) at its cheapest or
    its dearest figure, spans being each row's (median, min, max).
    margin is linear in each figure, so these corners bound it."""
    ends = dict(zip(rows, (sp[1:] for sp in spans)))
    got = [margin(*(dict(zip(ends, pick))[x] for x in rows))
           for pick in itertools.product(*ends.values())]
    return min(got), max(got)


def verdict(least, most):
    """"met" when even the least favourable margin (how far under the
    limit a figure is, negative over it) is not over, "not met" when
    even the most favourable one is, "within noise" otherwise."""
    if least >= 0:
        return "met"
    return "not met" if most < 0 else "within noise"


def judge_case(rows, spans, fig, margin, reps=None):
    """(verdict, evidence) of one case: the evidence is fig of rows'
    medians, the verdict margin's over their figures' extremes, or, given
    each row's repeats in reps, over the margins of each repeat."""
    if reps:
        got = [margin(*each) for each in zip(*reps)]
        ends = min(got), max(got)
    else:
        ends = extremes(rows, spans, margin)
    return verdict(*ends), fig(*(sp[0] for sp in spans))


def paired_reps(r, rows, key):
    """Each row's repeats of key, to be taken repeat by repeat: when every
    row has as many (repeat i of each ran at the same point of the same
    guest script, which icount replays exactly), else None."""
    reps = [r.micro_reps(x, key) for x in rows]
    return reps if len({len(v) for v in reps}) == 1 and reps[0] else None


def cases_verdict(judged, missing=(), between="within noise"):
    """The verdict of a target over cases, judged being (label, figures,
    verdict) of each: every case not met and every case between met and
    not met ("within noise", or "within resolution" for a figure read to
    a resolution), by label with its figures; "met" only when every case
    is measured and met, and "met on the rest" only when some case
    was."""
    parts = []
    for what in ("not met", between):
        named = ["%s (%s)" % (label, f) for label, f, got in judged
                 if got == what]
        if named:
            parts.append("%s: %s" % (what, "; ".join(named)))
    if missing:
        parts.append("not measured: %s%s" % (
            "; ".join(missing), "" if parts or not judged
            else " (met on the rest)"))
    return "; ".join(parts) or "met"


def judge_each(r, cases, rows, fig, margin, span=None, paired=False):
    """Judge every case (label, key) of a target on rows' figures, each
    row's (median, min, max) by span(row, key) (of the microbenchmark's
    repeats unless given): fig(*medians) is a case's evidence,
    margin(*figures) how far under its limit the case is, over the
    figures' extremes or, paired, repeat by repeat (paired_reps).
    Returns (verdict, evidence, the keys of the cases not met)."""
    a = absent(r, *dict.fromkeys(rows))
    if a:
        return "not measured", a, []
    span = span or r.micro_span
    judged, missing, failing = [], [], []
    for label, k in cases:
        spans = [span(x, k) for x in rows]
        if None in spans:
            missing.append(label)
            continue
        got, f = judge_case(rows, spans, fig, margin,
                            paired and paired_reps(r, rows, k))
        judged.append((label, f, got))
        if got == "not met":
            failing.append(k)
    if not judged:
        return "not measured", "no figures: " + "; ".join(missing), []
    return (cases_verdict(judged, missing),
            "; ".join("%s %s" % (label, f) for label, f, _ in judged), failing)


def shares(r, t):
    """The rows of a share, in the order of share_margin's figures: the
    row, its baseline, its peer, the peer's baseline."""
    p = peer(r, t)
    return (t.row, own_base(r, t.row), p, own_base(r, p))


def share_margin(limit):
    """How far under a share's limit: LIMIT of what the peer adds less
    what the row adds, each over its own baseline."""
    f = float(Fraction(limit))
    return lambda v, b, q, bq: (q - bq) * f - (v - b)


def pct_margin(t):
    """How far under +LIMIT% of the baseline."""
    return lambda v, b: b * float(t.limit) / 100 - (v - b)


def over_margin(t):
    """How far under LIMIT instructions over another row."""
    return lambda v, b: float(t.limit) - (v - b)


def over_fig(b, bq):
    """The baseline figure(s) of a share's evidence."""
    return "%.1f" % b if b == bq else "%.1f and %.1f" % (b, bq)


def judge_share(r, t):
    key, rows = data.SITES[t.site], shares(r, t)
    a = absent(r, *dict.fromkeys(rows))
    if a:
        return "not measured", a
    spans = [r.micro_span(x, key) for x in rows]
    if None in spans:
        return "not measured", "no %s call site figure" % t.site
    return judge_case(rows, spans, lambda v, b, q, bq: (
        "+%.1f vs +%.1f over %s (%s vs %s)" % (
            v - b, q - bq, over_fig(b, bq), fmt_pct(pct(v, b)),
            fmt_pct(pct(q, bq)))), share_margin(t.limit))


def judge_within(r, t):
    key, rows = data.SITES[t.site], (t.row, base(r, t))
    a = absent(r, *rows)
    if a:
        return "not measured", a
    spans = [r.micro_span(x, key) for x in rows]
    if None in spans:
        return "not measured", "no %s call site figure" % t.site
    return judge_case(rows, spans, lambda v, b: "+%.1f over %.1f (%s)" % (
        v - b, b, fmt_pct(pct(v, b))), pct_margin(t))


def judge_delta(r, t):
    return judge_each(
        r, [("%s site" % site, k) for site, k in sorted(data.SITES.items())],
        (t.row, peer(r, t)),
        lambda v, q: "%+.1f, %.1f vs %.1f" % (v - q, v, q), over_margin(t),
        paired=True)


def labelled(keys):
    """(label, key) of each benchmark key."""
    return [(bench_label(*k), k) for k in keys]


def judge_pages_within(r, t):
    return judge_each(r, labelled(data.PAGE_ROWS), (t.row, base(r, t)),
                      lambda v, b: fmt_pct(pct(v, b)), pct_margin(t))


def judge_pages_share(r, t):
    return judge_each(r, labelled(data.PAGE_ROWS), shares(r, t),
                      lambda v, b, q, bq: "+%.1f vs +%.1f" % (v - b, q - bq),
                      share_margin(t.limit))


def workload_terms(r, t):
    """(rows, fig, margin) of a workloads target, as judge_each() takes
    them: a share's rows (shares()) or the row and its baseline."""
    if t.kind == "workloads_within":
        return ((t.row, base(r, t)),
                lambda v, b: "%+.1f, %s" % (v - b, fmt_pct(pct(v, b))),
                pct_margin(t))
    return (shares(r, t),
            lambda v, b, q, bq: "+%.1f vs +%.1f" % (v - b, q - bq),
            share_margin(t.limit))


def judge_workloads(r, t):
    """Every workload but micro (the microbenchmark's targets judge its
    pair), each row's figures its trajectories' (data.Results.perf_span):
    their extremes bound the margin, their median is the evidence."""
    cases = [(w, w) for w, _ in data.WORKLOADS[1:]]
    return judge_each(r, cases, *workload_terms(r, t), span=r.perf_span)


# How the memory and boot targets are judged, as results/README.md states
# it: each at the resolution of its figures.
MEMORY_RULE = (
    "the memory bill on every boot of each row it compares (icount runs "
    "and TCG ones): met when its limit holds with every row at whichever "
    "boot is the less favourable, not met when it fails even with every "
    "row at the more favourable, within resolution otherwise, and the "
    "verdict names every guest size not met and every one within "
    "resolution, with its figures")
BOOT_RULE = (
    "each row's instructions to `/init` against its peer's, each "
    "truncated to the printk timestamp's tick: met when the row is no "
    "later, within resolution when later by one tick at most (two "
    "instants a tick apart on the truncated clock may be one instruction "
    "apart), not met when later by more, and the verdict names every row "
    "not met and every one within resolution, with its figures")


def resolved(least, most):
    """verdict() of a figure known to its resolution: "within
    resolution" where the margin's two ends disagree."""
    got = verdict(least, most)
    return "within resolution" if got == "within noise" else got


def memory_margin(limit):
    """How far under LIMIT of the peer's bill (taken as 0 when the peer
    costs nothing) the row's bill is, in KiB, from the four rows' held
    MemAvailable (data.Results.held()): the row, its baseline, the peer,
    the peer's baseline."""
    f = Fraction(limit)
    return lambda v, b, q, bq: float(f * max(q - bq, 0) - (v - b))


def judge_memory_share(r, t):
    p = peer(r, t)
    a = absent(r, t.row, p)
    if a:
        return "not measured", a
    rows, margin, judged, ev = shares(r, t), memory_margin(t.limit), [], []
    for mem in r.mems():
        v, q = r.bill(t.row, mem), r.bill(p, mem)
        spans = [r.held_span(x, mem) for x in rows]
        if v is None or q is None or None in spans:
            return "not measured", "no memory bill at %s MiB (boot.csv " \
                "predates its columns)" % mem
        label = "%d GiB" % (int(mem) // 1024)
        least, most = extremes(rows, spans, margin)
        f = "%+d KiB vs %+d KiB, margin %+.0f KiB, %+.0f to %+.0f over " \
            "the boots" % (v["MemAvailable"], q["MemAvailable"],
                           margin(*(sp[0] for sp in spans)), least, most)
        judged.append((label, f, resolved(least, most)))
        ev.append("%s: %s" % (label, f))
    return cases_verdict(judged, between="within resolution"), \
        "; ".join(ev)


def slab_rows(r, t):
    """The rows a slab target compares: the row and its baseline, or, for
    one held to another row, shares()."""
    return (t.row, base(r, t)) if t.kind == "slab_within" else shares(r, t)


def slab_keys(r, t):
    """The slab cases a target is judged on (data.SLAB_ROWS, with the
    charged ones where every row it compares has memory cgroups, and any
    other measured): one the data lacks is not measured, never met."""
    return r.slab_keys(r.memcg(*slab_rows(r, t)))


def slab_text(r, t):
    """The slab cases of a target, in words."""
    return data.SLAB_ROWS_TEXT + ("; " + data.CHARGED_ROWS_TEXT
                                  if r.memcg(*slab_rows(r, t)) else "")


def judge_slab(r, t):
    """Within LIMIT instructions of VS (the peer unless given); rows of
    two trees, each over its own tree's baseline."""
    rows = shares(r, t)
    if rows[1] == rows[3]:
        return judge_each(
            r, labelled(slab_keys(r, t)), rows[::2],
            lambda v, q: "%+.1f, %.1f vs %.1f" % (v - q, v, q),
            over_margin(t), paired=True)
    return judge_each(
        r, labelled(slab_keys(r, t)), rows,
        lambda v, b, q, bq: "%+.1f vs %+.1f over their baselines" % (
            v - b, q - bq),
        lambda v, b, q, bq: float(t.limit) - (v - b) + (q - bq))


def judge_slab_share(r, t):
    return judge_each(r, labelled(slab_keys(r, t)), shares(r, t),
                      lambda v, b, q, bq: "+%.1f vs +%.1f" % (v - b, q - bq),
                      share_margin(t.limit))


def judge_slab_within(r, t):
    return judge_each(r, labelled(slab_keys(r, t)), (t.row, base(r, t)),
                      lambda v, b: "%+.1f" % (v - b), over_margin(t))


def judge_page_ext(r, t):
    a = absent(r, t.row)
    if a:
        return "not measured", a
    ev, ok = [], True
    for mem in r.mems():
        b = r.boot_icount(t.row, mem)
        if b is None:
            continue
        pe = int(b["page_ext_bytes"])
        ok = ok and pe <= int(t.limit) * int(mem) * 256
        ev.append("%d GiB: %d B" % (int(mem) // 1024, pe))
    return "met" if ok and ev else "not met", ", ".join(ev) or "no boot data"


def judge_page_ext_share(r, t):
    p = peer(r, t)
    a = absent(r, t.row, p)
    if a:
        return "not measured", a
    ev, ok = [], True
    for mem in r.mems():
        b, q = r.boot_icount(t.row, mem), r.boot_icount(p, mem)
        if b is None or q is None:
            continue
        rb, pb = int(b["page_ext_bytes"]), int(q["page_ext_bytes"])
        ok = ok and rb <= pb * Fraction(t.limit)
        ev.append("%d GiB: %d B vs %d B" % (int(mem) // 1024, rb, pb))
    return "met" if ok and ev else "not met", ", ".join(ev) or "no boot data"


def judge_traffic(r, t):
    o = base(r, t)
    ev, bad = [], []
    b = r.cache_fig(o, data.WORKING_SET)
    for row in r.rows:
        m = r.matrix[row]
        c = r.cache_fig(row, data.WORKING_SET)
        if row == o or c is None or b is None or m.enabled != "1" or \
                m.ref not in ("pointer", "page_ext", "flags"):
            continue
        per_page = (r.page_ext_per_gib(row) or 0) / 262144
        d = c["lines"] - b["lines"]
        if m.ref == "flags":
            ok = d <= TRAFFIC_SLACK
            ev.append("%s %+.3f lines/op (no `page_ext`)" % (row, d))
        else:
            ok = d >= float(t.limit) * per_page / 64
            ev.append("%s %+.3f lines/op (%.0f B a page: %.3f)" % (
                row, d, per_page, per_page / 64))
        if not ok:
            bad.append(row)
    if not ev:
        return "not measured", "no cachesim data"
    return "not met: " + ", ".join(bad) if bad else "met", "; ".join(ev)


def boot_verdict(late, tick):
    """The verdict of a row late instructions to /init over its peer,
    each figure truncated to tick."""
    return "met" if late <= 0 else \
        "within resolution" if late <= tick else "not met"


def judge_boot(r, t):
    ev, judged, failing = [], [], []
    unjudged = attribution.fixes_rows(r.matrix)
    for mem in r.mems():
        for row, p in r.matrix.pairs():
            a, b = r.boot_icount(row, mem), r.boot_icount(p, mem)
            if a is None or b is None:
                continue
            x, y = int(a["init_ns"]), int(b["init_ns"])
            ev.append("%s vs %s %d GiB %+d (%+.2f%%)%s" % (
                row, p, int(mem) // 1024, x - y, pct(x, y),
                " (not judged: postings before compact references)" if row in unjudged
                else ""))
            if row in unjudged:
                continue
            got = boot_verdict(x - y, r.INIT_TICK_NS)
            judged.append(("%s at %d GiB" % (row, int(mem) // 1024),
                           "%+d, %d vs %d" % (x - y, x, y), got))
            if got == "not met":
                failing.append((row, mem))
    if not ev:
        return "not measured", "no boot data"
    return cases_verdict(judged, between="within resolution"), \
        "; ".join(ev), failing


# The slab allocator's out-of-line tagging hooks, the fork's and stock's:
# what the common inline paths are for.
SLAB_HOOKS = "__alloc_tagging_slab_"


def judge_profile_top(r, t):
    """Each workload's LIMIT functions that run most over the baseline: a
    slab hook among them fails the workload, named with its rank and
    figure (instructions an op)."""
    o = base(r, t)
    judged, missing = [], []
    for w, _ in data.WORKLOADS[1:]:
        over = r.profile_over(t.row, o, w)
        if over is None:
            missing.append(w)
            continue
        top = sorted(over, key=lambda f: (-over[f], f))[:int(t.limit)]
        hooks = ["`%s` #%d %+.1f" % (f, top.index(f) + 1, over[f])
                 for f in top if f.startswith(SLAB_HOOKS)]
        judged.append((w, ", ".join(hooks) or "none",
                       "not met" if hooks else "met"))
    return cases_verdict(judged, missing), "; ".join(
        "%s: %s" % (w, f) for w, f, _ in judged) or "no profile", \
        [w for w, _, v in judged if v == "not met"]


def judge_object_size(r, t):
    """The object SITE of ROW's kernel: its text at most LIMIT bytes over
    its peer's (make survey's objsize.csv), exactly."""
    p = peer(r, t)
    k, kp = r.matrix[t.row].kernel, r.matrix[p].kernel
    a, b = r.object_size(k, t.site), r.object_size(kp, t.site)
    if a is None or b is None:
        return "not measured", "no %s of %s in objsize.csv (make survey)" % (
            t.site, kp if a else k)
    d = {x: int(a[x]) - int(b[x]) for x in survey.OBJSIZE_PARTS}
    ev = "text %s vs %s (%+d B); rodata %+d, data %+d, bss %+d" % (
        a["text"], b["text"], d["text"], d["rodata"], d["data"], d["bss"])
    return ("met" if d["text"] <= int(t.limit) else "not met"), ev


JUDGES = {"share": judge_share, "within": judge_within,
          "memory_share": judge_memory_share,
          "workloads_share": judge_workloads,
          "workloads_within": judge_workloads,
          "pages_within": judge_pages_within,
          "pages_share": judge_pages_share, "slab": judge_slab,
          "slab_share": judge_slab_share, "slab_within": judge_slab_within,
          "page_ext": judge_page_ext, "page_ext_share": judge_page_ext_share,
          "traffic": judge_traffic, "boot": judge_boot, "delta": judge_delta,
          "profile_top": judge_profile_top,
          "object_size": judge_object_size}


def judge(r, targets=None):
    """Every target judged on the results r: a list of dicts (FIELDS, and
    "failing", which targets.csv leaves out)."""
    out = []
    for t in targets or load():
        if t.row != "*" and t.row not in r.matrix:
            raise data.DataError("targets.txt: target over %s, which is no "
                                 "row of %s" % (t.row, r.matrix.path))
        got = JUDGES[t.kind](r, t)
        verdict, measured = got[:2]
        # What a target not met fails on (page or slab keys, workloads,
        # (row, guest MiB) boots), for the report to name by function;
        # a call-site target fails on its site.
        failing = got[2] if len(got) > 2 else (
            [data.SITES[t.site]] if t.site in data.SITES and
            verdict.startswith("not met") else [])
        out.append({"kind": t.kind, "row": t.row, "peer": peer(r, t),
                    "base": base(r, t), "site": t.site, "limit": t.limit,
                    "stretch": "yes" if t.stretch else "no",
                    "fact": "yes" if t.fact else "no",
                    "target": name(r, t), "verdict": verdict,
                    "measured": measured, "why": t.why,
                    "failing": failing})
    return out


def spec(j):
    """The Target of a judged target (judge()'s dict, or a line of
    targets.csv): its peer as VS, which peer() returns as it was."""
    return Target(j["kind"], j["row"], j["site"], j["limit"],
                  j["stretch"] == "yes", "" if j["peer"] == "-" else j["peer"],
                  j["fact"] == "yes", j.get("why", ""))


def write(path, judged):
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS, lineterminator="\n",
                           extrasaction="ignore")
        w.writeheader()
        w.writerows(judged)
    os.replace(path + ".tmp", path)
