/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workloads' clock: CLOCK_MONOTONIC, which under QEMU's -icount
 * shift=0 advances one nanosecond a guest instruction.
 */
#ifndef PROGS_NOW_H
#define PROGS_NOW_H

#include <time.h>

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif
