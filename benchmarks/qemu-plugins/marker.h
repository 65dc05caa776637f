/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Markers for the QEMU plugins (benchmarks/qemu-plugins/).  Each is a
 * 7-byte x86 NOP, "nopl MAGIC(%rax)" = 0f 1f 80 <MAGIC as 4 bytes LE>:
 * harmless on real hardware and under QEMU without the plugin; the plugin
 * recognises the bytes when it translates the code.
 *
 *   CACHESIM_START()  arm the model, zero the counters (and empty the caches
 *                     unless the plugin runs with flush=off)
 *   CACHESIM_OP()     one measured operation done (per-op figures divide by
 *                     the number of these)
 *   CACHESIM_STOP()   disarm and write the window's record
 *   INSNPROF_START()  insnprof: zero every instruction's count
 *   INSNPROF_STOP()   insnprof: write the counts since START, a file a window
 *
 * The "memory" clobber keeps the compiler from moving memory accesses
 * across a marker.  Usable from kernel modules and user space C alike.
 */
#ifndef CACHESIM_MARKER_H
#define CACHESIM_MARKER_H

#define CACHESIM_MAGIC_START	0x43534d01u	/* "\x01MSC" */
#define CACHESIM_MAGIC_STOP	0x43534d02u
#define CACHESIM_MAGIC_OP	0x43534d03u
/* The insnprof plugin's window: counts zeroed at START, written at STOP. */
#define INSNPROF_MAGIC_START	0x46504901u	/* "\x01IPF" */
#define INSNPROF_MAGIC_STOP	0x46504902u

#ifndef __ASSEMBLER__
#if defined(__x86_64__) || defined(__i386__)
#define CACHESIM_MARK_(magic) \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" \
			     : : "i" (magic) : "memory")
#else
#define CACHESIM_MARK_(magic) do { } while (0)	/* markers are x86 only */
#endif
#define CACHESIM_START()	CACHESIM_MARK_(CACHESIM_MAGIC_START)
#define CACHESIM_STOP()		CACHESIM_MARK_(CACHESIM_MAGIC_STOP)
#define CACHESIM_OP()		CACHESIM_MARK_(CACHESIM_MAGIC_OP)
#define INSNPROF_START()	CACHESIM_MARK_(INSNPROF_MAGIC_START)
#define INSNPROF_STOP()		CACHESIM_MARK_(INSNPROF_MAGIC_STOP)
#endif

#endif
