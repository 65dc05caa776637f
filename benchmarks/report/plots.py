"""The plots: each writes NAME.dat into the results directory and, through
gnuplot, NAME.svg and NAME.png.  write() returns the names of the plots
that have data (the README links those)."""
import os
import shutil
import subprocess

from . import data
from .fmt import bench_label, pct
from .tables import lead_pairs

# Every bar chart's gnuplot style.
HISTOGRAMS = """
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
"""


def gnuplot(d, name, body):
    for term, ext in (("svg size 900,560 dynamic", "svg"),
                      ("pngcairo size 900,560", "png")):
        out = os.path.join(d, "%s.%s" % (name, ext))
        script = "set terminal %s noenhanced\nset output '%s'\n%s" % (
            term, out, body)
        subprocess.run(["gnuplot"], input=script.encode(), check=True)


def overhead(r, dat):
    rows = [x for x in r.rows if r.matrix.over(x) is not None]
    keys = r.micro_keys(rows)
    if not rows or not keys:
        return None
    with open(dat, "w") as f:
        f.write("# operation " + " ".join(rows) + "\n")
        for k in keys:
            vals = [pct(r.micro_icount(x, k),
                        r.micro_icount(r.matrix.over(x), k)) for x in rows]
            f.write('"%s" %s\n' % (bench_label(*k), " ".join(
                "%.2f" % v if v is not None else "?" for v in vals)))
    plot = ", ".join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, x)
                     for i, x in enumerate(rows))
    return HISTOGRAMS + """set ylabel "instructions over each row's own baseline (%%)"
set title 'Allocation cost over profiling compiled out, each row on its own tree (QEMU icount, 1 vCPU)'
set xtics rotate by -40 scale 0 font ',9'
set grid ytics
set key top left
set bmargin 11
set rmargin 12
plot %s
""" % plot


def lead(r, dat, judged):
    """The lead table's instructions: each fork form beside its peer."""
    if r.micro_icount(r.matrix.main, data.MODULE_SITE) is None:
        return None
    with open(dat, "w") as f:
        f.write("# pair fork_module peer_module fork_kernel peer_kernel\n")
        for row, peer in lead_pairs(judged):
            vals = []
            for key in (data.MODULE_SITE, data.KERNEL_SITE):
                off = r.micro_icount(r.matrix[row].baseline, key)
                for x in (row, peer):
                    v = r.micro_icount(x, key)
                    vals.append("?" if v is None or off is None
                                else "%.1f" % (v - off))
            f.write('"%s / %s" %s\n' % (row, peer, " ".join(vals)))
    titles = ["row, module site", "stock peer, module site",
              "row, kernel site", "stock peer, kernel site"]
    plot = ", ".join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, t)
                     for i, t in enumerate(titles))
    return HISTOGRAMS + """set ylabel 'instructions over its off per order-0 alloc+free'
set title 'The fork against stock 7.3 (QEMU icount, 1 vCPU)'
set xtics rotate by -20 scale 0 font ',9'
set grid ytics
set key outside top center horizontal font ',9'
set bmargin 6
set rmargin 8
plot %s
""" % plot


def traffic(r, dat):
    rows = r.cache_rows()
    if not rows:
        return None
    with open(dat, "w") as f:
        f.write("# row hot_lines_per_op ws_l1_miss_per_op "
                "ws_l2_miss_per_op\n")
        for row in rows:
            h = r.cache_fig(row, data.MODULE_SITE)
            w = r.cache_fig(row, data.WORKING_SET)
            f.write('"%s" %s %s %s\n' % (
                row, "?" if h is None else "%.2f" % h["op_lines"],
                "?" if w is None else "%.3f" % w["l1"],
                "?" if w is None else "%.3f" % w["l2"]))
    return HISTOGRAMS + """set xtics rotate by -40 scale 0 font ',9'
set grid ytics
set bmargin 9
set yrange [0:*]
set multiplot layout 1,2 title 'Memory traffic per order-0 alloc+free, module call site (cache model)'
set title 'hot loop: distinct lines a pair'
plot '%s' using 2:xtic(1) notitle
set title 'working set: misses a pair'
plot '%s' using 3:xtic(1) title 'L1', '' using 4 title 'L2'
unset multiplot
""" % (dat, dat)


def memory(r, dat):
    mems = r.mems()
    if not mems:
        return None
    with open(dat, "w") as f:
        f.write("# guest_gib " + " ".join(r.rows) + "\n")
        for mem in mems:
            vals = []
            for row in r.rows:
                b = r.boot_icount(row, mem)
                vals.append("?" if b is None else "%.4f" % (
                    int(b["page_ext_bytes"]) / 2**20))
            f.write("%g %s\n" % (int(mem) / 1024, " ".join(vals)))
    plot = ", ".join(
        "'%s' using 1:%d with linespoints title '%s'" % (dat, i + 2, x)
        for i, x in enumerate(r.rows))
    return """
set xlabel 'guest RAM (GiB)'
set ylabel 'page_ext (MiB)'
set title 'page_ext allocated at boot against guest RAM'
set logscale x 2
set grid
set key top left
plot %s
""" % plot


def write(r, judged, draw=True):
    """Write every plot's data and, if draw, its SVG and PNG."""
    if draw and not shutil.which("gnuplot"):
        raise data.DataError("gnuplot missing: scripts/deps.sh results "
                             "installs it (or render with --no-plots)")
    made = []
    for name, f in (("overhead", lambda dat: overhead(r, dat)),
                    ("lead", lambda dat: lead(r, dat, judged)),
                    ("traffic", lambda dat: traffic(r, dat)),
                    ("memory", lambda dat: memory(r, dat))):
        script = f(os.path.join(r.d, name + ".dat"))
        if script is None:
            continue
        if draw:
            gnuplot(r.d, name, script)
        made.append(name)
    return made
