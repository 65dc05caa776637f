/*
 * Page-fault loop: map an anonymous region, write one byte to each page,
 * unmap it; ROUNDS times.  Every touch is a fault that allocates a page.
 * Usage: pagefault ROUNDS PAGES
 * Prints: pagefault ROUNDS PAGES TOTAL_NS NS_PER_FAULT_TIMES_100
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../qemu-plugins/marker.h"
#include "now.h"

int main(int argc, char **argv)
{
	unsigned long rounds, pages, r, i, psz = sysconf(_SC_PAGESIZE);
	unsigned long long t0, t;

	if (argc != 3) {
		fprintf(stderr, "usage: pagefault ROUNDS PAGES\n");
		return 2;
	}
	rounds = strtoul(argv[1], NULL, 0);
	pages = strtoul(argv[2], NULL, 0);
	if (!rounds || !pages)
		return 2;
	INSNPROF_START();
	t0 = now_ns();
	for (r = 0; r < rounds; r++) {
		volatile char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (i = 0; i < pages; i++)
			p[i * psz] = 1;
		munmap((void *)p, pages * psz);
	}
	t = now_ns() - t0;
	INSNPROF_STOP();
	printf("pagefault %lu %lu %llu %llu\n", rounds, pages, t,
	       t * 100 / (rounds * pages));
	return 0;
}
