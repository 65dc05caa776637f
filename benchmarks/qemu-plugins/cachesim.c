// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cachesim: a QEMU TCG plugin (QEMU 7.2 plugin API) that feeds every guest
 * data access made between a START and a STOP marker into a two-level
 * set-associative LRU cache model, and writes one CSV record per
 * START..STOP window: accesses, distinct cache lines, L1 and L2 misses,
 * and the same per marked operation, plus the distinct lines of each
 * operation alone (summed over the operations: "op_lines").
 *
 * Markers are 7-byte NOPs, "nopl DISP32(%rax)" = 0f 1f 80 <disp32>, with a
 * magic displacement (marker.h): recognised here at translation time from
 * the instruction bytes, so a guest needs no device, hypercall or symbol.
 *
 * State is global (one window for the whole machine, any vCPU may start or
 * stop it) and guarded by one mutex.  Nothing depends on time or host
 * pointer values: two runs of a deterministic guest (user mode, or system
 * mode with -icount, which runs vCPUs in one thread) give identical output.
 *
 * Options (-plugin cachesim.so,opt=val,...):
 *   out=FILE        CSV output (default: QEMU's plugin log, i.e. stderr)
 *   l1=SIZE:WAYS    L1d geometry, bytes and ways (default 32768:8)
 *   l2=SIZE:WAYS    L2 geometry (default 1048576:16)
 *   line=BYTES      line size of both levels (default 64)
 *   flush=on|off    START empties both caches (default on)
 */
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu/qemu-plugin.h>

#include "marker-insn.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* ---- cache model ---------------------------------------------------- */

/*
 * One level: nsets * ways entries.  An entry holds a line number plus one
 * (0 = invalid) and the time of its last use; the way with the smallest
 * time is the LRU victim.  Time is a per-level access counter, so the
 * model is exact LRU and deterministic.
 */
struct level {
	uint64_t nsets, ways;
	uint64_t *tag;		/* nsets * ways: line + 1, or 0 if invalid */
	uint64_t *used;		/* nsets * ways: last-use time */
	uint64_t clock;
};

static bool level_init(struct level *c, uint64_t size, uint64_t ways, uint64_t line)
{
	if (ways == 0 || size % (ways * line))
		return false;
	c->nsets = size / (ways * line);
	if (c->nsets == 0 || (c->nsets & (c->nsets - 1)))
		return false;	/* set index is line % nsets: a power of two */
	c->ways = ways;
	c->tag = g_new0(uint64_t, c->nsets * ways);
	c->used = g_new0(uint64_t, c->nsets * ways);
	c->clock = 0;
	return true;
}

static void level_flush(struct level *c)
{
	memset(c->tag, 0, c->nsets * c->ways * sizeof(*c->tag));
	memset(c->used, 0, c->nsets * c->ways * sizeof(*c->used));
	c->clock = 0;
}

/* Look line up, fill it on a miss (write-allocate); true on a hit. */
static bool level_access(struct level *c, uint64_t line)
{
	uint64_t *tag = c->tag + (line & (c->nsets - 1)) * c->ways;
	uint64_t *used = c->used + (tag - c->tag);
	uint64_t victim = 0;

	c->clock++;
	for (uint64_t w = 0; w < c->ways; w++) {
		if (tag[w] == line + 1) {
			used[w] = c->clock;
			return true;
		}
		if (used[w] < used[victim])
			victim = w;	/* invalid ways have used == 0: taken first */
	}
	tag[victim] = line + 1;
	used[victim] = c->clock;
	return false;
}

/* ---- set of distinct lines (open addressing, grows at 1/2 full) ------ */

struct lineset {
	uint64_t *slot;		/* line + 1, or 0 if empty */
	uint64_t *filled;	/* indexes of the n used slots, for clearing */
	uint64_t cap, n;	/* cap is a power of two */
};

static uint64_t mix(uint64_t x)
{
	/* Fixed multiplicative hash of the line number: no pointers, no seed. */
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 29);
}

static void lineset_add(struct lineset *s, uint64_t line);

static void lineset_grow(struct lineset *s)
{
	struct lineset old = *s;

	s->cap = old.cap ? old.cap * 2 : 4096;
	s->slot = g_new0(uint64_t, s->cap);
	s->filled = g_new(uint64_t, s->cap / 2);
	s->n = 0;
	for (uint64_t i = 0; i < old.n; i++)
		lineset_add(s, old.slot[old.filled[i]] - 1);
	g_free(old.slot);
	g_free(old.filled);
}

static void lineset_add(struct lineset *s, uint64_t line)
{
	uint64_t i;

	if (2 * (s->n + 1) > s->cap)
		lineset_grow(s);
	for (i = mix(line) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == line + 1)
			return;
	s->slot[i] = line + 1;
	s->filled[s->n++] = i;
}

/* O(n), not O(cap): the per-op set is cleared at every OP marker. */
static void lineset_clear(struct lineset *s)
{
	for (uint64_t i = 0; i < s->n; i++)
		s->slot[s->filled[i]] = 0;
	s->n = 0;
}

/* ---- plugin state ---------------------------------------------------- */

static GMutex lock;
static struct level l1, l2;
static struct lineset lines;	/* the window's distinct lines */
static struct lineset op_set;	/* the current operation's */
static unsigned line_shift = 6;
static bool flush_at_start = true;
static FILE *out;		/* NULL: qemu_plugin_outs() */

static bool armed;		/* between START and STOP */
static uint64_t window;		/* windows closed so far */
static uint64_t ops, accesses, l1_miss, l2_miss;
static uint64_t op_lines;	/* sum over the window's ops of their lines */

static void emit(const char *s)
{
	if (out) {
		fputs(s, out);
		fflush(out);	/* a guest that never exits still leaves records */
	} else {
		qemu_plugin_outs(s);
	}
}

static void per_op(char *buf, size_t len, uint64_t v)
{
	if (ops)
		snprintf(buf, len, "%.2f", (double)v / (double)ops);
	else
		snprintf(buf, len, "-");
}

/* Write the current window's record; end says how it ended. */
static void record(const char *end)
{
	char a[32], l[32], m1[32], m2[32], ol[32], buf[512];

	per_op(a, sizeof(a), accesses);
	per_op(l, sizeof(l), lines.n);
	per_op(m1, sizeof(m1), l1_miss);
	per_op(m2, sizeof(m2), l2_miss);
	per_op(ol, sizeof(ol), op_lines);
	snprintf(buf, sizeof(buf),
		 "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		 ",%" PRIu64 ",%s,%s,%s,%s,%" PRIu64 ",%s,%s\n",
		 window, ops, accesses, lines.n, l1_miss, l2_miss,
		 a, l, m1, m2, op_lines, ol, end);
	emit(buf);
	window++;
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	uint32_t magic = (uint32_t)(uintptr_t)udata;

	(void)vcpu;
	g_mutex_lock(&lock);
	switch (magic) {
	case CACHESIM_MAGIC_START:
		/* A second START restarts the window: the first is dropped. */
		ops = accesses = l1_miss = l2_miss = op_lines = 0;
		lineset_clear(&lines);
		lineset_clear(&op_set);
		if (flush_at_start) {
			level_flush(&l1);
			level_flush(&l2);
		}
		__atomic_store_n(&armed, true, __ATOMIC_RELAXED);
		break;
	case CACHESIM_MAGIC_OP:
		if (armed) {
			ops++;
			/* Lines touched since the last OP (or START). */
			op_lines += op_set.n;
			lineset_clear(&op_set);
		}
		break;
	case CACHESIM_MAGIC_STOP:
		if (armed)
			record("stop");
		__atomic_store_n(&armed, false, __ATOMIC_RELAXED);
		break;
	}
	g_mutex_unlock(&lock);
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	uint64_t addr = vaddr, first, last;

	(void)vcpu;
	(void)udata;
	/* Unlocked peek: START/STOP themselves take the lock. */
	if (!__atomic_load_n(&armed, __ATOMIC_RELAXED))
		return;
	/* System mode: the physical address (NULL in user mode). */
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (hw) {
		if (qemu_plugin_hwaddr_is_io(hw))
			return;		/* MMIO is not cached */
		addr = qemu_plugin_hwaddr_phys_addr(hw);
	}
	/*
	 * An access straddling a line boundary touches both lines.  (A
	 * page-straddling one is assumed physically contiguous.)
	 */
	first = addr >> line_shift;
	last = (addr + (1u << qemu_plugin_mem_size_shift(info)) - 1) >> line_shift;

	g_mutex_lock(&lock);
	if (armed) {
		accesses++;
		for (uint64_t line = first; line <= last; line++) {
			lineset_add(&lines, line);
			lineset_add(&op_set, line);
			if (!level_access(&l1, line)) {
				l1_miss++;
				if (!level_access(&l2, line))
					l2_miss++;
			}
		}
	}
	g_mutex_unlock(&lock);
}

/* cachesim's own markers; insnprof's are ordinary instructions here. */
static uint32_t marker_of(const struct qemu_plugin_insn *insn)
{
	uint32_t magic = marker_magic(insn);

	return magic >= CACHESIM_MAGIC_START && magic <= CACHESIM_MAGIC_OP ? magic : 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t magic = marker_of(insn);

		if (magic)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)magic);
		else
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	g_mutex_lock(&lock);
	if (armed)
		record("exit");	/* START without STOP: still reported */
	__atomic_store_n(&armed, false, __ATOMIC_RELAXED);
	if (out)
		fclose(out);
	out = NULL;
	g_mutex_unlock(&lock);
}

/* ---- options --------------------------------------------------------- */

static bool parse_u64(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &e, 0);
	*end = e;
	return true;
}

/* "SIZE:WAYS" */
static bool parse_geom(const char *s, uint64_t *size, uint64_t *ways)
{
	const char *e;

	return parse_u64(s, size, &e) && *e == ':' && parse_u64(e + 1, ways, &e) && !*e;
}

static int fail(const char *msg, const char *arg)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "cachesim: %s: %s\n", msg, arg);
	fputs(buf, stderr);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	uint64_t l1_size = 32768, l1_ways = 8, l2_size = 1048576, l2_ways = 16;
	uint64_t line = 64;
	const char *out_path = NULL, *e;

	if (strcmp(info->target_name, "x86_64") && strcmp(info->target_name, "i386"))
		return fail("markers are x86 instructions; target is", info->target_name);

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		size_t klen = v ? (size_t)(v - a) : strlen(a);

		if (!v)
			return fail("option is not key=value", a);
		v++;
		if (klen == 3 && !strncmp(a, "out", 3)) {
			out_path = v;
		} else if (klen == 2 && !strncmp(a, "l1", 2)) {
			if (!parse_geom(v, &l1_size, &l1_ways))
				return fail("l1 wants SIZE:WAYS", a);
		} else if (klen == 2 && !strncmp(a, "l2", 2)) {
			if (!parse_geom(v, &l2_size, &l2_ways))
				return fail("l2 wants SIZE:WAYS", a);
		} else if (klen == 4 && !strncmp(a, "line", 4)) {
			if (!parse_u64(v, &line, &e) || *e)
				return fail("line wants a number", a);
		} else if (klen == 5 && !strncmp(a, "flush", 5)) {
			if (!qemu_plugin_bool_parse("flush", v, &flush_at_start))
				return fail("flush wants on/off", a);
		} else {
			return fail("unknown option (out, l1, l2, line, flush)", a);
		}
	}

	if (line < 8 || (line & (line - 1)))
		return fail("line must be a power of two >= 8", "line");
	for (line_shift = 0; (1ull << line_shift) < line; line_shift++)
		;
	if (!level_init(&l1, l1_size, l1_ways, line))
		return fail("l1: SIZE/(WAYS*line) must be a power of two", "l1");
	if (!level_init(&l2, l2_size, l2_ways, line))
		return fail("l2: SIZE/(WAYS*line) must be a power of two", "l2");
	lineset_grow(&lines);
	lineset_grow(&op_set);

	if (out_path) {
		out = fopen(out_path, "w");
		if (!out)
			return fail("cannot open", out_path);
	}
	emit("window,ops,accesses,lines,l1_miss,l2_miss,"
	     "accesses_per_op,lines_per_op,l1_miss_per_op,l2_miss_per_op,"
	     "op_lines,op_lines_per_op,end\n");

	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
