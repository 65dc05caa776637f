"""results/capture/: context capture end to end ('make capture').

cost.csv: allocbench's pairs at its three sites under -icount, with no
flag, with the capture flag set (events not enabled), with perf record -g
taking the events, with the nodes flag set, and with capture or nodes set
on another tag only.  stacks.csv: one kernel call site captured while
files are written to tmpfs, one row a folded stack (the command, then the
frames from the outermost in) with the bytes and events it took, and the
site's line before and after.  alloctop-dir.csv and alloctop-site.csv:
alloctop -b -c's second iteration over a mixed workload, by top-level
directory and the sites that changed most.  bpf.csv (optional): the
kmalloc(64) pair on the series up to its per-tag control posting, with no
flag, the capture flag on its tag or another's, and BPF programs on the
kmem tracepoints following its call site or another instead.  README.md gets the tables;
flame.svg draws the stacks, each frame as wide as the bytes allocated
under it.
"""
import csv
import hashlib
import html
import os
import re

from .fmt import md

SITES = {"page": "page, module call site", "kpage": "page, kernel call site",
         "kmalloc": "kmalloc(64), module call site"}
# The same, as column headings of a table that must stay narrow.
SHORT = {"page": "page, module", "kpage": "page, kernel",
         "kmalloc": "kmalloc(64)"}
MODES = [("none", "no flag"), ("flag", "capture set, events off"),
         ("perf", "capture set, perf record -g")]
# The other flags, and either flag on a tag the loops never touch: what a
# tag pays for another's.
OTHER_MODES = [("none", "no flag"), ("nodes", "nodes set"),
               ("other-capture", "capture on another tag"),
               ("other-nodes", "nodes on another tag")]
# The capture flag beside a BPF tool that follows one call site's objects
# through the kmem tracepoints (bpf.csv: the kmalloc site only).
BPF_MODES = [("none", "no flag"), ("flag", "capture set, events off"),
             ("perf", "capture set, perf record -g"),
             ("bpf", "BPF following this site"),
             ("other-capture", "capture on another tag"),
             ("other-bpf", "BPF following another site")]
# Frames outside the path a user looks at: the way in from user space,
# and the tracing machinery inside the captured call site.
ENTRY = ("entry_SYSCALL_64_after_hwframe", "entry_SYSCALL_64",
         "do_syscall_64", "asm_exc_page_fault", "exc_page_fault")


class CaptureError(Exception):
    pass


META = ("commit", "inputs", "kernel", "qemu", "accel", "icount", "boot_args", "perf")
COLUMNS = {
    "cost.csv": META + ("site", "mode", "n", "total_ns"),
    "stacks.csv": META + ("file", "function", "tag_bytes_before", "tag_bytes_after",
                          "events", "event_bytes", "bytes", "stack_events", "stack"),
}


TOP = {
    "dir": ("alloctop-dir.csv", ("directory",)),
    "site": ("alloctop-site.csv", ("module", "file", "line", "function")),
}
TOP_NUMBERS = ("seconds", "bytes", "calls", "delta_bytes", "delta_calls",
               "bytes_per_sec", "calls_per_sec")


def read_csv(p, need):
    try:
        with open(p, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise CaptureError("%s: %s" % (p, e.strerror))
    if not rows:
        raise CaptureError("%s: no rows" % p)
    missing = [c for c in need if c not in rows[0]]
    if missing:
        raise CaptureError("%s: no column %s" % (p, ", ".join(missing)))
    return rows


def load_top(d):
    """{view: rows} of the alloctop snapshots in directory d ({} if none)."""
    out = {}
    for view, (name, keys) in TOP.items():
        p = os.path.join(d, name)
        if os.path.exists(p):
            out[view] = read_csv(p, META + TOP_NUMBERS + keys)
    return out


def load(d):
    """(cost rows, stack rows) of directory d, or an error naming the file."""
    return [read_csv(os.path.join(d, name), need) for name, need in COLUMNS.items()]


def load_bpf(d):
    """The rows of bpf.csv in directory d ([] if none)."""
    p = os.path.join(d, "bpf.csv")
    return read_csv(p, COLUMNS["cost.csv"]) if os.path.exists(p) else []


def bpf_per(rows):
    """{mode: instructions a pair} of bpf.csv's rows."""
    return {c["mode"]: float(c["total_ns"]) / int(c["n"]) for c in rows
            if c["site"] == "kmalloc"}


# The allocator's own frames under a call site whose function was inlined
# (no frame of its own), and the compiler's suffixes on a symbol.
INNER = re.compile(r"^(__alloc_tag_capture_\w+|get_page_from_freelist|"
                   r"post_alloc_hook|prep_new_page|\w+_noprof)$")
SUFFIX = re.compile(r"(\.(constprop|isra|part|cold)(\.\d+)?)+$")


def trim(stack, func):
    """The frames a reader follows: from the first one past the entry from
    user space to the captured call site's function, or, when it has no
    frame (inlined), to the last one outside the allocator."""
    frames = [SUFFIX.sub("", f) for f in stack.split(";")[1:]]
    start = 0
    for i, f in enumerate(frames):
        if f in ENTRY:
            start = i + 1
    frames = frames[start:]
    if func in frames:
        return frames[:len(frames) - frames[::-1].index(func)]
    while frames and INNER.match(frames[-1]):
        frames.pop()
    return frames


def cost_table(cost, modes):
    """Per site, each of @modes (the first the baseline) and each over it;
    None when no row of @cost has a mode but the first."""
    per = {}
    for c in cost:
        per[(c["site"], c["mode"])] = float(c["total_ns"]) / int(c["n"])
    if not any(m == mode for _, m in per for mode, _ in modes[1:]):
        return None
    header = (["site"] + [label for _, label in modes] +
              ["%s over %s" % (m, modes[0][0]) for m, _ in modes[1:]])
    rows = []
    for site, label in SITES.items():
        v = [per.get((site, m)) for m, _ in modes]
        cells = ["%.1f" % x if x is not None else "" for x in v]
        for x in v[1:]:
            cells.append("%+.1f" % (x - v[0]) if None not in (x, v[0]) else "")
        rows.append([label] + cells)
    return md((header, rows))


def stack_table(stacks, func, top=10):
    total = sum(int(s["bytes"]) for s in stacks)
    rows = []
    for s in sorted(stacks, key=lambda s: -int(s["bytes"]))[:top]:
        b = int(s["bytes"])
        rows.append([s["stack"].split(";")[0],
                     " > ".join(trim(s["stack"], func)) or "(no frames)",
                     "%d" % b, "%.1f%%" % (100.0 * b / total), s["stack_events"]])
    return md((["command", "stack (from the entry in)", "bytes", "share", "events"],
               rows), left=2), total


def fold_tree(stacks):
    """{name: [bytes, children]} from the folded stacks, "all" at the root."""
    root = ["all", 0, {}]
    for s in stacks:
        b = int(s["bytes"])
        node = root
        node[1] += b
        for f in s["stack"].split(";"):
            node = node[2].setdefault(f, [f, 0, {}])
            node[1] += b
    return root


def color(name):
    h = int(hashlib.sha256(name.encode()).hexdigest()[:6], 16)
    return "rgb(%d,%d,%d)" % (205 + h % 50, 80 + (h >> 8) % 120, 40 + (h >> 16) % 40)


def flame_svg(stacks, title, width=1200, row=16):
    """A flame graph: the root at the bottom, each frame as wide as the
    bytes allocated under it, its callees above it."""
    root = fold_tree(stacks)
    boxes = []

    def depth(n):
        return 1 + max((depth(c) for c in n[2].values()), default=0)

    levels = depth(root)
    height = (levels + 2) * row
    scale = (width - 20) / root[1] if root[1] else 0

    def walk(node, x, level):
        w = node[1] * scale
        if w >= 0.5:
            y = height - (level + 1) * row
            label = node[0] if w > 7 * len(node[0]) else (
                node[0][:int(w / 7) - 2] + ".." if w > 35 else "")
            boxes.append(
                '<g><title>%s (%d bytes)</title><rect x="%.1f" y="%d" width="%.1f" '
                'height="%d" fill="%s" rx="2"/><text x="%.1f" y="%d">%s</text></g>'
                % (html.escape(node[0]), node[1], x, y, w, row - 1, color(node[0]),
                   x + 3, y + row - 4, html.escape(label)))
        for c in sorted(node[2].values(), key=lambda c: c[0]):
            walk(c, x, level + 1)
            x += c[1] * scale

    walk(root, 10, 0)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'font-family="monospace" font-size="11">\n'
            '<rect width="100%%" height="100%%" fill="white"/>\n'
            '<text x="10" y="%d" font-size="13">%s</text>\n%s\n</svg>\n'
            % (width, height, row - 2, html.escape(title), "\n".join(boxes)))


def top_table(view, rows):
    """alloctop's rows of one view as a table, largest change first as
    alloctop printed them."""
    if view == "dir":
        head, key = ["directory"], lambda r: [r["directory"]]
    else:
        head = ["site", "module"]
        key = lambda r: ["%s:%s %s" % (r["file"], r["line"], r["function"]), r["module"]]
    rows_out = [key(r) + [r["bytes"], r["calls"], "%+d" % int(r["delta_bytes"]),
                          "%+d" % int(r["delta_calls"]),
                          "%.0f" % float(r["calls_per_sec"])] for r in rows]
    return md((head + ["bytes", "calls", "change in bytes", "change in calls",
                       "net calls/s"], rows_out), left=len(head))


def top_section(top):
    if not top:
        return []
    r0 = next(iter(top.values()))[0]
    out = [
        "## alloctop -b: a workload by category",
        "",
        "alloctop (the series' tools/mm/alloctop.c) in batch mode while the"
        " guest writes files to tmpfs (keeping four), walks sysfs and forks:"
        " `alloctop -b -c -n 2 -d 1`, the second iteration (%s s of guest"
        " time after the first), read through the allocinfo ioctl.  Bytes and"
        " calls are what is held at the end; the changes and the net rate"
        " are over the interval (frees count against allocations)."
        % r0["seconds"],
        "",
    ]
    if "dir" in top:
        out += ["By top-level directory (`-g dir -l 0`):", "",
                top_table("dir", top["dir"]), ""]
    if "site" in top:
        out += ["The %d sites that changed most (`-s delta`):" % len(top["site"]), "",
                top_table("site", top["site"]), ""]
    return out


def other_flags(cost):
    """The section on the nodes flag and on another tag's flags, when
    @cost has their figures."""
    table = cost_table(cost, OTHER_MODES)
    if table is None:
        return []
    return [
        "## What the other flags cost",
        "",
        "The same pairs with the nodes flag set on the measured tags, and with"
        " capture or nodes set on dup_mm()'s tag only, which no loop"
        " allocates at.  While any tag has either flag, a free looks at the"
        " flags of the index it finds; the last two columns are what that"
        " costs a tag that has no flag.",
        "",
        table,
        "",
    ]


def bpf_section(rows):
    """The capture flag beside a BPF tool, from bpf.csv's @rows."""
    if not rows:
        return []
    per = bpf_per(rows)
    missing = [m for m, _ in BPF_MODES if m not in per]
    if missing:
        raise CaptureError("bpf.csv: no kmalloc row of mode %s" % ", ".join(missing))
    base = per["none"]
    body = [[label, "%.1f" % per[m], "" if m == "none" else "%+.1f" % (per[m] - base)]
            for m, label in BPF_MODES]
    r0 = rows[0]
    return [
        "## Capture beside kmem tracepoints and BPF",
        "",
        "Written from bpf.csv: kernel %s (%s: the series up to its per-tag"
        " control posting, with BPF), commit %s (inputs %s), QEMU %s %s with"
        " -icount %s, 1 vCPU, boot arguments `%s`."
        % (r0["kernel"], r0["kernel_variant"], r0["commit"], r0["inputs"], r0["qemu"],
           r0["accel"].upper(), r0["icount"], r0["boot_args"]),
        "",
        "allocbench's kmalloc(64) pair, in guest instructions a pair, with the"
        " capture flag and with what a BPF tool does to follow one call"
        " site's live objects without it (benchmarks/progs/bpfpair.c, its"
        " programs JIT-compiled): on kmem:kmalloc, a test of the event's call"
        " site and, at the followed site, the stack's id (bpf_get_stackid)"
        " stored in a hash map under the object's address; on kmem:kfree,"
        " whose event names the freeing code and not the allocating site,"
        " that address deleted from the map, on every free of every site."
        " \"Another\" is dup_mm()'s tag, or its text (that of the function"
        " it is inlined in, where it is), which the loop never allocates"
        " at.  Page allocations are left out: their kmem events"
        " carry no call site to filter on.",
        "",
        md((["kmalloc(64) pair", "instructions", "over no flag"], body)),
        "",
    ]


def readme(cost, stacks, top=None, bpf=None):
    s0 = stacks[0]
    func, where = s0["function"], "%s %s" % (s0["file"], s0["function"])
    table, total = stack_table(stacks, func)
    grew = int(s0["tag_bytes_after"]) - int(s0["tag_bytes_before"])
    c0 = cost[0]
    return "\n".join([
        "# Context capture end to end",
        "",
        "Written by `make report` from cost.csv and stacks.csv (`make capture`,"
        " benchmarks/capture/capture.sh): kernel %s, commit %s (inputs %s),"
        " QEMU %s %s with -icount %s, 1 vCPU, boot arguments `%s`, perf %s."
        % (c0["kernel"], c0["commit"], c0["inputs"], c0["qemu"], c0["accel"].upper(),
           c0["icount"], c0["boot_args"], c0["perf"]),
        "",
        "## What capture costs",
        "",
        "Guest instructions per allocation and free (allocbench, -icount:"
        " one nanosecond an instruction), with the measured tags unflagged,"
        " with the capture flag set while no event is enabled, and with"
        " `perf record -g -a` taking alloc_tag_mem_alloced and"
        " alloc_tag_mem_freed.",
        "",
        cost_table(cost, MODES) or "(no figure with the capture flag)",
        "",
    ] + other_flags(cost) + bpf_section(bpf or []) + [
        "## One call site's stacks",
        "",
        "The capture flag set on %s while `dd`, `cp`, `cat` and `head` write"
        " files to tmpfs, and `perf record -e alloc_tag:alloc_tag_mem_alloced"
        " -g -a` running.  perf recorded %s events, %s bytes; the call site's"
        " line grew by %d bytes meanwhile (perf's own output, in tmpfs too, is"
        " counted at the same site, and what it writes after it stops taking"
        " events is counted but not recorded).  The stacks, folded in the"
        " guest, by bytes (%d in all; frames from the entry from user space to"
        " the call site):"
        % (where, s0["events"], s0["event_bytes"], grew, len(stacks)),
        "",
        table,
        "",
        "![flame graph of the captured allocations](flame.svg)",
        "",
        "flame.svg: every recorded stack, the command at the bottom and the"
        " call site near the top, each frame as wide as the bytes allocated"
        " under it (%d bytes in all)." % total,
        "",
    ] + top_section(top or {}))


def render(d, write):
    """Write README.md and flame.svg of results/capture/ (directory d)."""
    cost, stacks = load(d)
    write(os.path.join(d, "README.md"), readme(cost, stacks, load_top(d), load_bpf(d)))
    s0 = stacks[0]
    write(os.path.join(d, "flame.svg"), flame_svg(
        stacks, "%s %s: bytes allocated, by stack" % (s0["file"], s0["function"])))
