// SPDX-License-Identifier: GPL-2.0
/*
 * memfill MIB: fault in MIB MiB of anonymous memory (movable pages, so
 * some land in ZONE_MOVABLE), print "filled MIB", and sleep until killed,
 * so that a test can offline memory with user pages on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
	size_t len = mib << 20;
	char *p;

	if (!mib) {
		fprintf(stderr, "usage: memfill MIB\n");
		return 2;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memfill: mmap");
		return 1;
	}
	memset(p, 0x5a, len);
	printf("filled %lu\n", mib);
	fflush(stdout);
	for (;;)
		pause();
}
