// SPDX-License-Identifier: GPL-2.0
/*
 * thp: fault in one transparent huge page, print "PID START END" for it,
 * stop itself (SIGSTOP) so that a test can look at /proc/allocinfo and
 * split the page through debugfs, then unmap it when continued.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HPAGE (2UL << 20)

int main(void)
{
	size_t len = 2 * HPAGE;
	unsigned long start;
	char *map;

	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("thp: mmap");
		return 1;
	}
	start = ((unsigned long)map + HPAGE - 1) & ~(HPAGE - 1);
	/* Kernels without madvise() rely on THP "always" instead. */
	if (madvise((void *)start, HPAGE, MADV_HUGEPAGE) && errno != ENOSYS) {
		perror("thp: madvise");
		return 1;
	}
	memset((void *)start, 1, HPAGE);
	printf("%d 0x%lx 0x%lx\n", (int)getpid(), start, start + HPAGE);
	fflush(stdout);
	raise(SIGSTOP);
	munmap(map, len);
	return 0;
}
