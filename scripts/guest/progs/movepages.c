// SPDX-License-Identifier: GPL-2.0
/*
 * movepages FUNCTION COUNT: fault in COUNT anonymous pages, move them all
 * to node 0 and then all to node 1 with move_pages(2), and print what the
 * lines of /proc/allocinfo of "func:FUNCTION" (the anonymous fault's
 * sites) hold after each move, "before" and "after"; then "moved N", the
 * pages move_pages() put on node 1.
 * movepages FUNCTION COUNT NODE: move the pages to NODE ("moved N" first),
 * print "before", stop (SIGSTOP) for the caller to take NODE's memory
 * offline, and print "after" once continued.
 * A line "STAGE BYTES node0_bytes:B node1_bytes:B ... sum:S words:W" sums
 * the lines: their bytes, each node's bytes as their words say, the sum of
 * those, and W 1 if they had node words.  The reads are its own, so that
 * no other process's pages come and go at those sites in between.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_MF_MOVE	(1 << 1)
#define MAX_NODES	64

static char line[4096], out_buf[4096], in_buf[4096];
static const char *func;

/* @stage NULL: read only, to set up what the reads allocate */
static void site(const char *stage)
{
	long long bytes = 0, node[MAX_NODES] = { 0 }, sum = 0;
	FILE *f = fopen("/proc/allocinfo", "r");
	int words = 0, nid, last = -1;
	char want[256];

	if (!f) {
		perror("movepages: /proc/allocinfo");
		exit(1);
	}
	setvbuf(f, in_buf, _IOFBF, sizeof(in_buf));
	snprintf(want, sizeof(want), " func:%s ", func);
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;
		long long v;

		if (!strstr(line, want))
			continue;
		tok = strtok_r(line, " \n", &save);
		bytes += atoll(tok);
		while ((tok = strtok_r(NULL, " \n", &save))) {
			if (sscanf(tok, "node%d_bytes:%lld", &nid, &v) != 2 ||
			    nid < 0 || nid >= MAX_NODES)
				continue;
			node[nid] += v;
			sum += v;
			words = 1;
			if (nid > last)
				last = nid;
		}
	}
	fclose(f);
	if (!stage)
		return;
	printf("%s %lld", stage, bytes);
	for (nid = 0; nid <= last || nid < 2; nid++)
		printf(" node%d_bytes:%lld", nid, node[nid]);
	printf(" sum:%lld words:%d\n", sum, words);
	fflush(stdout);
}

static long move(void **pages, int *nodes, int *status, long count, int node)
{
	long i, on = 0;

	for (i = 0; i < count; i++)
		nodes[i] = node;
	if (syscall(SYS_move_pages, 0, count, pages, nodes, status, MPOL_MF_MOVE)) {
		perror("movepages: move_pages");
		exit(1);
	}
	for (i = 0; i < count; i++)
		on += status[i] == node;
	return on;
}

int main(int argc, char **argv)
{
	long count = argc > 2 ? atol(argv[2]) : 0, page = sysconf(_SC_PAGESIZE), i, on;
	int *nodes, *status;
	void **pages;
	char *map;

	if (count <= 0 || argc > 4) {
		fprintf(stderr, "usage: movepages FUNCTION COUNT [NODE]\n");
		return 2;
	}
	func = argv[1];
	/*
	 * Whatever the reads and the output allocate (stdio's buffers, the
	 * heap) is in place before the first read: between two reads the
	 * process faults in no page of its own.
	 */
	setvbuf(stdout, out_buf, _IOLBF, sizeof(out_buf));
	site(NULL);
	pages = calloc(count, sizeof(*pages));
	nodes = calloc(count, sizeof(*nodes));
	status = calloc(count, sizeof(*status));
	map = mmap(NULL, count * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!pages || !nodes || !status || map == MAP_FAILED) {
		perror("movepages: mmap");
		return 1;
	}
	for (i = 0; i < count; i++) {
		map[i * page] = 1;
		pages[i] = map + i * page;
	}
	if (argc == 4) {
		printf("moved %ld\n", move(pages, nodes, status, count, atoi(argv[3])));
		site("before");
		raise(SIGSTOP);
		site("after");
		return 0;
	}
	move(pages, nodes, status, count, 0);
	site("before");
	on = move(pages, nodes, status, count, 1);
	site("after");
	printf("moved %ld\n", on);
	return 0;
}
