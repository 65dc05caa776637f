# Run inside gdb (gdb -batch -x gdb-step.py): attach to QEMU's gdbstub,
# stop at TRACE_SYM, step one whole iteration of the benchmark loop
# untraced (so per-cpu lists and caches are warm), then single-step the
# next one, write each instruction's address to TRACE_OUT, and end QEMU.  An
# iteration ends when the program counter is back at TRACE_SYM for the
# TRACE_CALLS-th time (default 1; a batch loop's round of allocations and
# frees is that many calls).
# QEMU's gdbstub masks interrupts while stepping, so nothing else runs.
import os

import gdb

out = os.environ["TRACE_OUT"]
sym = os.environ.get("TRACE_SYM", "__alloc_frozen_pages_noprof")
# page_owner saves a stack for each page: its vmalloc() of 16 pages takes
# over 100000 instructions.
limit = int(os.environ.get("TRACE_LIMIT", "1000000"))
calls = int(os.environ.get("TRACE_CALLS", "1"))


def iteration():
    pcs = []
    start = int(gdb.parse_and_eval("$pc"))
    back = 0
    while len(pcs) < limit:
        gdb.execute("stepi", to_string=True)
        pcs.append(int(gdb.parse_and_eval("$pc")))
        if pcs[-1] == start:
            back += 1
            if back == calls:
                return pcs
    raise gdb.GdbError("%d of %d returns to %s within %d instructions"
                       % (back, calls, sym, limit))


gdb.execute("set pagination off")
gdb.execute("target remote :" + os.environ["TRACE_PORT"])
gdb.execute("break " + sym)
gdb.execute("continue")
gdb.execute("delete")
iteration()
pcs = iteration()
with open(out + ".tmp", "w") as f:
    f.writelines("%x\n" % pc for pc in pcs)
os.rename(out + ".tmp", out)
# The guest's loop has nothing more to give: end QEMU.
gdb.execute("kill")
