"""The essential operations of a tag reference in an alloc+free pair, as
the row benchmarks/trace/limit.txt names does them: the instructions of
the operations any form must do, each counted where that row's trace says
the instruction came from.  They are that row's own cost of them, not a
bound on other forms, which may do them in fewer."""
import os
from typing import NamedTuple

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "trace", "limit.txt")
# The kinds of the rest of the row's tagging code: the report's alone, so
# apart from limit.txt, which make trace reads too
REST_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "budget.txt")
MODULE = "[allocbench module]"  # the call site's instructions in a trace
SITE = "-"                        # the rules' name for them


class LimitError(Exception):
    pass


class Rule(NamedTuple):
    op: str
    function: str
    text: str  # "" for any line of the function


class Spec(NamedTuple):
    row: str
    ops: list    # operation names, in order
    rules: list  # Rule, in order
    rest: list = []        # the other kinds of tagging code, in order
    rest_rules: list = []  # Rule, in order


def load(path=PATH, rest_path=REST_PATH):
    row, ops, rules = None, [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split(None, 3)
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "row" and len(words) == 2:
                row = words[1]
            elif words[0] == "kernel" and len(words) == 2:
                pass  # trace.sh's
            elif words[0] == "op" and len(words) >= 3:
                add(ops, rules, words)
            else:
                raise LimitError("%s:%d: not 'row ROW', 'kernel KERNEL' or "
                                 "'op NAME FUNCTION [TEXT]'" % (path, n))
    if row is None or not rules:
        raise LimitError("%s: no 'row' line or no 'op' line" % path)
    rest, rest_rules = [], []
    if rest_path and os.path.exists(rest_path):
        with open(rest_path) as f:
            for n, line in enumerate(f, 1):
                words = line.split(None, 3)
                if not words or words[0].startswith("#"):
                    continue
                if words[0] != "rest" or len(words) < 3 or words[2] == SITE:
                    raise LimitError("%s:%d: not 'rest NAME FUNCTION [TEXT]' "
                                     "(FUNCTION not '-')" % (rest_path, n))
                add(rest, rest_rules, words)
    return Spec(row, ops, rules, rest, rest_rules)


def add(names, rules, words):
    """An 'op' or 'rest' line's rule, its name kept in order of first
    use."""
    if words[1] not in names:
        names.append(words[1])
    rules.append(Rule(words[1], words[2],
                      words[3].strip() if len(words) == 4 else ""))


def owner(spec):
    """The row, as its owner: "`fork-flags`'"."""
    return "`%s`'%s" % (spec.row, "" if spec.row.endswith("s") else "s")


def title(spec):
    """The count's name in the report: the row's essential operations."""
    return "%s essential operations" % owner(spec)


def matches(rule, frames, src):
    return any(rule.function in (fn, "*") and
               (not rule.text or rule.text in src.get(place, ""))
               for fn, place in frames)


def first(rules, frames, src):
    """The name of the first of @rules (but the call site's) that an
    instruction inlined through @frames matches, or None."""
    for rule in rules:
        if rule.function != SITE and matches(rule, frames, src):
            return rule.op
    return None


def tally(spec, r, case):
    """({op: n}, {kind: n}) of the row's trace of @case, per pair: each
    instruction outside the benchmark module counted for the first op
    rule it matches, else for the first rest rule; or None when the trace
    does not say where its instructions came from."""
    steps = r.trace_steps(spec.row, case)
    if not steps or any(fr is None for fn, fr in steps if fn != MODULE):
        return None
    src = r.trace_source(spec.row, case)
    ops, rest = dict.fromkeys(spec.ops, 0), dict.fromkeys(spec.rest, 0)
    for fn, frames in steps:
        if fn == MODULE:
            continue
        op = first(spec.rules, frames, src)
        if op is not None:
            ops[op] += 1
        else:
            kind = first(spec.rest_rules, frames, src)
            if kind is not None:
                rest[kind] += 1
    # A batch case's trace is a round of pairs: everything per pair.
    n = r.trace_pairs(spec.row, case)
    return ({k: v / n for k, v in ops.items()},
            {k: v / n for k, v in rest.items()})


def count(spec, r, case):
    """{op: instructions} of @case, or None when the row's trace of it does
    not say where its instructions came from.  An instruction counts for the
    first rule it matches; the call site's rule (FUNCTION "-") counts the
    row's instructions in the benchmark module over its baseline's."""
    got = tally(spec, r, case)
    if got is None:
        return None
    per = got[0]
    n = r.trace_pairs(spec.row, case)
    for rule in spec.rules:
        if rule.function == SITE:
            bname = r.matrix[spec.row].baseline
            base = r.trace_counts(bname, case)
            if base is None:
                return None
            mine = sum(1 for fn, _ in r.trace_steps(spec.row, case)
                       if fn == MODULE) / n
            theirs = base.get(MODULE, 0) / r.trace_pairs(bname, case)
            per[rule.op] += max(0, mine - theirs)
    return per


def budget(spec, r, case):
    """Where the spec's row's pair of @case goes over its baseline, as
    (essential, {kind: n}, around, over): the essential operations, each
    kind of the rest of the tagging code (budget.txt's rules), what is
    left of the pair's difference (the code around the hooks) and the
    difference; or None when it cannot be counted."""
    per = count(spec, r, case)
    bname = r.matrix[spec.row].baseline
    base = r.trace_counts(bname, case)
    if per is None or base is None or not spec.rest_rules:
        return None
    rest = tally(spec, r, case)[1]
    over = sum(r.trace_counts(spec.row, case).values()) / \
        r.trace_pairs(spec.row, case) - \
        sum(base.values()) / r.trace_pairs(bname, case)
    essential = sum(per.values())
    return essential, rest, over - essential - sum(rest.values()), over


def budget_table(spec, r, case):
    """(header, rows) of budget(), or None."""
    got = budget(spec, r, case)
    if got is None:
        return None
    essential, rest, around, over = got
    rows = [["the essential operations", fmt(essential)]]
    rows += [["`%s`" % k, fmt(v)] for k, v in rest.items()]
    rows.append(["elsewhere: the code around the hooks", fmt(around, "+")])
    rows.append(["**over `%s`**" % r.matrix[spec.row].baseline,
                 "**%s**" % fmt(over, "+")])
    return ["part of %s pair" % owner(spec), "instructions"], rows


def fmt(v, sign=""):
    """A count: whole, or to a tenth where a round was divided into
    pairs."""
    return ("%" + sign + "d") % v if v == int(v) else \
        ("%" + sign + ".1f") % v


def table(spec, r, case):
    """((header, rows) of @case's operations, their sum), or None when
    they cannot be counted."""
    per = count(spec, r, case)
    if per is None:
        return None
    total = sum(per.values())
    rows = [["`%s`" % op, fmt(n)] for op, n in per.items()]
    rows.append(["**in all**", "**%s**" % fmt(total)])
    return (["operation (counted in the trace of `%s`)" % spec.row,
             "instructions"], rows), total


def distances(spec, r, case, total):
    """(header, rows): each traced row with profiling over its own tree's
    off, and how far that is from @total, the essential operations'."""
    out = []
    for x in r.trace_rows(case):
        base = r.matrix[x].baseline
        if base == x or r.matrix[x].ref == "none" or r.matrix[x].enabled != "1":
            continue
        mine, theirs = r.trace_counts(x, case), r.trace_counts(base, case)
        if theirs is None:
            continue
        over = sum(mine.values()) / r.trace_pairs(x, case) - \
            sum(theirs.values()) / r.trace_pairs(base, case)
        out.append([x, base, fmt(over, "+"), fmt(over - total, "+")])
    return ["row", "over", "instructions over it",
            "over the essential operations"], out
