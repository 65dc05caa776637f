// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insnprof: a QEMU TCG plugin (QEMU 7.2 plugin API) that counts how many
 * times each guest instruction executes, by virtual address, and writes
 * "address count" lines (hex address, decimal count, sorted by address)
 * when the machine exits.  benchmarks/bootprof/bootprof.sh folds them into
 * functions with the kernel's symbol table and compares two kernels.
 *
 * Counting is an inline add per instruction (no callback), so a boot runs
 * a few times slower than without the plugin, not hundreds.  Under
 * -icount the guest is deterministic and so is the output.
 *
 * Options (-plugin insnprof.so,opt=val,...):
 *   out=FILE     output (default: QEMU's plugin log, i.e. stderr)
 *   min=ADDR     count only addresses >= ADDR (hex; default 0).  The
 *                kernel's text is all above 0xffffffff80000000; user
 *                space addresses of different processes would collide.
 *   stop=ADDR    write the counts when the instruction at ADDR (hex) first
 *                executes, e.g. run_init_process for "boot up to /init",
 *                and nothing more at exit.  If ADDR never runs, nothing is
 *                written and the exit hook says so.
 *
 * Windows: an INSNPROF_START() marker (marker.h, from any guest code, user
 * space included) zeroes every count, and INSNPROF_STOP() writes the counts
 * since to out=FILE.N, N the window's number from 1; with windows, nothing
 * more is written at exit.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu/qemu-plugin.h>

#include "marker-insn.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/*
 * One counter per instruction address.  Counters live in the hash table
 * for the whole run, so their addresses can be baked into translated code.
 * A retranslated block (TB flush, or an -icount block cut short for I/O)
 * finds its counters again by address.
 */
static GHashTable *counters;	/* uint64_t vaddr -> uint64_t *count */
static GMutex lock;
static char *out_path;
static uint64_t min_addr;
static uint64_t stop_addr;
static bool have_stop, written;
static unsigned int windows;	/* INSNPROF_STOP markers run so far */

static uint64_t *counter_of(uint64_t vaddr)
{
	uint64_t *c;

	g_mutex_lock(&lock);
	c = g_hash_table_lookup(counters, &vaddr);
	if (!c) {
		uint64_t *key = g_new(uint64_t, 1);

		*key = vaddr;
		c = g_new0(uint64_t, 1);
		g_hash_table_insert(counters, key, c);
	}
	g_mutex_unlock(&lock);
	return c;
}

static void at_stop(unsigned int vcpu, void *p);
static void at_marker(unsigned int vcpu, void *p);

/* insnprof's own markers: cachesim's count as instructions. */
static uint32_t marker_of(const struct qemu_plugin_insn *insn)
{
	uint32_t magic = marker_magic(insn);

	return magic == INSNPROF_MAGIC_START || magic == INSNPROF_MAGIC_STOP ? magic : 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		uint32_t magic = marker_of(insn);

		if (magic)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, at_marker,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)magic);
		if (have_stop && va == stop_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, at_stop,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (va < min_addr)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(insn,
			QEMU_PLUGIN_INLINE_ADD_U64, counter_of(va), 1);
	}
}

static int cmp_addr(const void *a, const void *b)
{
	uint64_t x = **(uint64_t *const *)a, y = **(uint64_t *const *)b;

	return x < y ? -1 : x > y;
}

static void write_out(FILE *f)
{
	GList *keys = g_hash_table_get_keys(counters), *l;
	guint n = g_list_length(keys), i = 0;
	uint64_t **v = g_new(uint64_t *, n ? n : 1);

	for (l = keys; l; l = l->next)
		v[i++] = l->data;
	qsort(v, n, sizeof(*v), cmp_addr);
	for (i = 0; i < n; i++) {
		uint64_t c = *(uint64_t *)g_hash_table_lookup(counters, v[i]);

		if (c)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", *v[i], c);
	}
	g_free(v);
	g_list_free(keys);
}

static void write_path(const char *path)
{
	char *tmp = g_strdup_printf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");

	if (!f) {
		fprintf(stderr, "insnprof: cannot write %s\n", tmp);
		g_free(tmp);
		return;
	}
	write_out(f);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		fprintf(stderr, "insnprof: cannot write %s\n", path);
	g_free(tmp);
}

static void write_all(void)
{
	if (out_path)
		write_path(out_path);
	else
		write_out(stderr);
}

static void zero_one(gpointer key, gpointer value, gpointer data)
{
	(void)key;
	(void)data;
	*(uint64_t *)value = 0;
}

/* A window's marker: START zeroes the counts, STOP writes them. */
static void at_marker(unsigned int vcpu, void *p)
{
	(void)vcpu;
	g_mutex_lock(&lock);
	if ((uint32_t)(uintptr_t)p == INSNPROF_MAGIC_START) {
		g_hash_table_foreach(counters, zero_one, NULL);
	} else if (out_path) {
		char *path = g_strdup_printf("%s.%u", out_path, ++windows);

		write_path(path);
		g_free(path);
	} else {
		windows++;
		fprintf(stderr, "insnprof: window %u\n", windows);
		write_out(stderr);
	}
	g_mutex_unlock(&lock);
}

/* The first execution of stop=ADDR: the counts so far are the profile. */
static void at_stop(unsigned int vcpu, void *p)
{
	(void)vcpu;
	(void)p;
	g_mutex_lock(&lock);
	if (!written) {
		written = true;
		write_all();
	}
	g_mutex_unlock(&lock);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	if (written || windows)
		return;
	if (have_stop) {
		fprintf(stderr, "insnprof: stop address %" PRIx64 " never ran; nothing written\n",
			stop_addr);
		return;
	}
	write_all();
}

static bool parse_hex(const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 16);
	if (end == s || *end) {
		fprintf(stderr, "insnprof: bad address %s (hex expected)\n", s);
		return false;
	}
	return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4)) {
			out_path = g_strdup(a + 4);
		} else if (!strncmp(a, "min=", 4)) {
			if (!parse_hex(a + 4, &min_addr))
				return -1;
		} else if (!strncmp(a, "stop=", 5)) {
			if (!parse_hex(a + 5, &stop_addr))
				return -1;
			have_stop = true;
		} else {
			fprintf(stderr, "insnprof: unknown option %s\n", a);
			return -1;
		}
	}
	counters = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
