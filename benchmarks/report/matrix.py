"""benchmarks/matrix.txt: the one Python reader of the matrix (the shell one
is benchmarks/lib.sh).  Columns: ROW KERNEL REF ENABLED PEER BASE ROLE
BOOT-ARGS; "-" is none, and BOOT-ARGS is the rest of the line."""
import os
import re
from typing import NamedTuple

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "matrix.txt")


class MatrixError(Exception):
    pass


class Row(NamedTuple):
    name: str
    kernel: str
    ref: str
    enabled: str
    peer: str
    base: str
    role: str
    args: str

    @property
    def baseline(self):
        """The row this one's figures are taken over (itself for a baseline)."""
        return self.name if self.base == "-" else self.base


class Matrix:
    def __init__(self, rows, path="matrix"):
        self.rows = {}
        self.path = path
        for r in rows:
            if r.name in self.rows:
                raise MatrixError("%s: row %s declared twice" % (path, r.name))
            self.rows[r.name] = r
        for r in rows:
            for other in (r.peer, r.base):
                if other != "-" and other not in self.rows:
                    raise MatrixError("%s: row %s names %s, which is no row"
                                      % (path, r.name, other))
        bases = [r.name for r in rows if r.base == "-"]
        if not bases:
            raise MatrixError("%s: no baseline row (BASE \"-\")" % path)
        self.main = bases[0]    # the baseline of the main tables

    def names(self):
        return list(self.rows)

    def __getitem__(self, name):
        try:
            return self.rows[name]
        except KeyError:
            raise MatrixError("%s: no row %s" % (self.path, name)) from None

    def __contains__(self, name):
        return name in self.rows

    def group(self, base):
        """The rows taken over base, base first, in matrix order."""
        return [r for r in self.rows.values() if r.baseline == base]

    def family(self, name):
        """The stock baseline a row's table is kept by: its baseline, or,
        for a baseline of another tree, the stock one it names as its PEER
        (the fork's tree with profiling off beside stock's), so that each
        row is taken over its own tree and still shares a table."""
        b = self[self[name].baseline]
        return b.peer if b.peer != "-" else b.name

    def over(self, name):
        """The row name's "vs" figures are taken over: its baseline, or, for
        a baseline of another tree, the stock one it names as its PEER;
        None for a baseline of stock's tree."""
        r = self[name]
        if r.base != "-":
            return r.base
        return r.peer if r.peer != "-" else None

    def kin(self, base):
        """The rows of base's family (family()), in matrix order."""
        return [r for r in self.rows.values() if self.family(r.name) == base]

    def roles(self):
        """{form: {part: row}} of the rows with a ROLE, forms and parts in
        matrix order."""
        out = {}
        for r in self.rows.values():
            if r.role != "-":
                form, part = r.role.split("/")
                out.setdefault(form, {})[part] = r.name
        return out

    def pairs(self):
        """(row, peer) for every row that names a stock peer."""
        return [(r.name, r.peer) for r in self.rows.values() if r.peer != "-"]


def parse(text, path="matrix"):
    rows = []
    for no, line in enumerate(text.splitlines(), 1):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if len(w) < 8:
            raise MatrixError("%s:%d: want ROW KERNEL REF ENABLED PEER BASE "
                              "ROLE BOOT-ARGS, found %d column(s)" % (path, no, len(w)))
        if w[6] != "-" and not re.fullmatch(r"[\w-]+/[\w-]+", w[6]):
            raise MatrixError("%s:%d: ROLE %s is not FORM/PART" % (path, no, w[6]))
        rows.append(Row(*w[:7], " ".join(w[7:])))
    return Matrix(rows, path)


def load(path=None):
    """The matrix at path, $MATRIX or benchmarks/matrix.txt."""
    path = path or os.environ.get("MATRIX") or PATH
    try:
        with open(path) as f:
            return parse(f.read(), path)
    except FileNotFoundError:
        raise MatrixError("%s: no such matrix file" % path) from None
