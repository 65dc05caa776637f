// SPDX-License-Identifier: GPL-2.0
/*
 * Page-flags probe for scripts/survey/pageflags.sh.  Compiled with the
 * kernel's own headers and flags (kbuild, M=) to assembly only; every value
 * below comes from the kernel's page-flags-layout.h, mmzone.h and
 * generated/bounds.h for the configuration being surveyed.  The only
 * arithmetic here is the sum of the widths the kernel defines (SPARE_SUM),
 * cross-checked against the kernel's own layout offsets (SPARE_PGOFF).
 *
 * Each value is emitted with the kernel's DEFINE() from linux/kbuild.h as a
 * line "->NAME $VALUE ..." in the assembly, which the script reads.
 */
#include <linux/kbuild.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/page-flags-layout.h>
#ifdef CONFIG_MEM_ALLOC_PROFILING
#include <linux/alloc_tag.h>
#endif

#ifdef LAST_CPUPID_NOT_IN_PAGE_FLAGS
#define PROBE_CPUPID_OUT 1
#else
#define PROBE_CPUPID_OUT 0
#endif

#ifdef NODE_NOT_IN_PAGE_FLAGS
#define PROBE_NODE_OUT 1
#else
#define PROBE_NODE_OUT 0
#endif

#ifdef CONFIG_SMP
#define PROBE_NR_CPUS_BITS NR_CPUS_BITS
#else
#define PROBE_NR_CPUS_BITS 0
#endif

#define PROBE_USED (SECTIONS_WIDTH + NODES_WIDTH + ZONES_WIDTH + \
		    LAST_CPUPID_WIDTH + KASAN_TAG_WIDTH + LRU_GEN_WIDTH + \
		    LRU_REFS_WIDTH)

void pfprobe_values(void);
void pfprobe_values(void)
{
	DEFINE(BITS_PER_LONG, BITS_PER_LONG);
	DEFINE(SECTIONS_WIDTH, SECTIONS_WIDTH);
	DEFINE(NODES_SHIFT, NODES_SHIFT);
	DEFINE(NODES_WIDTH, NODES_WIDTH);
	DEFINE(NODE_NOT_IN_PAGE_FLAGS, PROBE_NODE_OUT);
	DEFINE(MAX_NR_ZONES, MAX_NR_ZONES);
	DEFINE(ZONES_WIDTH, ZONES_WIDTH);
	DEFINE(NR_CPUS_BITS, PROBE_NR_CPUS_BITS);
	DEFINE(LAST_CPUPID_SHIFT, LAST_CPUPID_SHIFT);
	DEFINE(LAST_CPUPID_WIDTH, LAST_CPUPID_WIDTH);
	DEFINE(LAST_CPUPID_NOT_IN_PAGE_FLAGS, PROBE_CPUPID_OUT);
	DEFINE(KASAN_TAG_WIDTH, KASAN_TAG_WIDTH);
	DEFINE(LRU_GEN_WIDTH, LRU_GEN_WIDTH);
	DEFINE(LRU_REFS_WANTED, __LRU_REFS_WIDTH);
	DEFINE(LRU_REFS_WIDTH, LRU_REFS_WIDTH);
	DEFINE(NR_PAGEFLAGS, NR_PAGEFLAGS);
	DEFINE(SPARE_SUM, BITS_PER_LONG - NR_PAGEFLAGS - PROBE_USED);
	DEFINE(SPARE_PGOFF, LRU_REFS_PGOFF - NR_PAGEFLAGS);
	/* The allocation tag layout link-tags must be told about. */
#ifdef CONFIG_MEM_ALLOC_PROFILING
	DEFINE(ALLOC_TAG_SIZE, sizeof(struct alloc_tag));
	OFFSET(CODETAG_LINENO, codetag, lineno);
	OFFSET(CODETAG_MODNAME, codetag, modname);
	OFFSET(CODETAG_FUNCTION, codetag, function);
	OFFSET(CODETAG_FILENAME, codetag, filename);
#else
	DEFINE(ALLOC_TAG_SIZE, 0);
	DEFINE(CODETAG_LINENO, 0);
	DEFINE(CODETAG_MODNAME, 0);
	DEFINE(CODETAG_FUNCTION, 0);
	DEFINE(CODETAG_FILENAME, 0);
#endif
}
