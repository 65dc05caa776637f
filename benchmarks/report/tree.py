"""What the tree declares, counted for the prose: the series' postings and
patches (kernel/patches/series), the kernel variants (kernel/configs/),
the guest tests (scripts/guest/tests/), besides the matrix and the targets.
README.md and docs/ say these through generated blocks, never by hand."""
import importlib.util
import os
import re

from .fmt import md

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def postings(top=TOP):
    """[(letter, title, number of patches)] of kernel/patches/series."""
    out = []
    with open(os.path.join(top, "kernel", "patches", "series")) as f:
        for line in f:
            m = re.match(r"# posting (\w+): (.*)", line)
            if m:
                out.append([m.group(1), m.group(2).strip(), 0])
            elif line.strip() and not line.startswith("#"):
                if not out:
                    raise ValueError("kernel/patches/series: a patch before "
                                     "any '# posting X:' line")
                out[-1][2] += 1
    return [tuple(p) for p in out]


def variants(top=TOP):
    """{variant: {"tree", "arch", "with", "build", "text"}} of the
    fragments of kernel/configs/ that name a tree, by name: the leading
    comment's keyword lines, and its prose as text."""
    d = os.path.join(top, "kernel", "configs")
    out = {}
    for name in sorted(f[:-len(".config")] for f in os.listdir(d)
                       if f.endswith(".config")):
        v, words = {}, []
        with open(os.path.join(d, name + ".config")) as f:
            for line in f:
                if not line.startswith("#") or \
                        re.match(r"# CONFIG_\w+ is not set", line):
                    break
                m = re.match(r"# (tree|arch|with|build): *(.*)", line)
                if m:
                    v[m.group(1)] = m.group(2).strip()
                else:
                    words += line[1:].split()
        if "tree" in v:
            v["text"] = " ".join(words)
            out[name] = v
    return out


def guest_tests(top=TOP):
    return sorted(f for f in os.listdir(
        os.path.join(top, "scripts", "guest", "tests")) if f.endswith(".sh"))


def number(n):
    """n in words up to twelve, as prose writes it."""
    words = ("no", "one", "two", "three", "four", "five", "six", "seven",
             "eight", "nine", "ten", "eleven", "twelve")
    return words[n] if n < len(words) else str(n)


def counts(matrix, targets, top=TOP):
    """The paragraph of counts in README.md's generated block, over the
    matrix and the targets (targets.load())."""
    ps, vs = postings(top), variants(top)
    kernels = list(dict.fromkeys(r.kernel for r in matrix.rows.values()))
    series = [k for k in kernels if vs.get(k, {}).get("tree") != "stock"]
    return (
        "The series is %d patches in %s postings, %s to %s "
        "(`kernel/patches/series`). The benchmark matrix is %d rows on %d "
        "kernels (`benchmarks/matrix.txt`), %d of them built from the "
        "series, which a change to the series measures again; the report "
        "judges %d targets and facts over them "
        "(`benchmarks/report/targets.txt`). `kernel/configs/` declares %d "
        "kernel variants; `make test` runs %d guest tests "
        "(`scripts/guest/tests/`) in every form it boots." % (
            sum(n for _, _, n in ps), number(len(ps)), ps[0][0], ps[-1][0],
            len(matrix.rows), len(kernels), len(series), len(targets),
            len(vs), len(guest_tests(top))))


def postings_table(top=TOP):
    return md((["posting", "what it does", "patches"],
               [[x, t, n] for x, t, n in postings(top)]), left=2)


def churn_table(top=TOP):
    """Each posting's churn (scripts/rfc/churn.py): the lines a patch adds
    that a later patch of the same posting removes."""
    path = os.path.join(top, "scripts", "rfc", "churn.py")
    spec = importlib.util.spec_from_file_location("churn", path)
    churn = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(churn)
    rows = []
    for x, n, files in churn.churn(os.path.join(top, "kernel", "patches")):
        worst = sorted(files.items(), key=lambda f: (-f[1], f[0]))[:3]
        rows.append([x, ", ".join("`%s` %d" % f for f in worst), n])
    return md((["posting", "in the files", "lines"], rows), left=2)


def variants_table(top=TOP):
    return md((["variant", "tree", "includes", "what it is"],
               [["`%s`" % v, x["tree"] + (" (%s)" % x["arch"] if "arch" in x else ""),
                 x.get("with", ""), x["text"]]
                for v, x in variants(top).items()]), left=4)
