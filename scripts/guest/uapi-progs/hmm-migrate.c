// SPDX-License-Identifier: GPL-2.0
/*
 * hmm-migrate NPAGES: move NPAGES anonymous pages to test_hmm's
 * device-private memory and back, twice (back once by ioctl, once by CPU
 * faults), and after each step print the counters of the two test_hmm
 * call sites that allocate pages on the way:
 *   STEP DEVMEM_BYTES DEVMEM_CALLS FAULT_BYTES FAULT_CALLS
 * DEVMEM is dmirror_devmem_alloc_page (the system page that backs each
 * device page), FAULT dmirror_devmem_fault_alloc_and_copy (the page that a
 * device page migrates back into).  Needs test_hmm.ko loaded and
 * /dev/hmm_dmirror0.  Built against the booted variant's tree
 * (lib/test_hmm_uapi.h is not an exported header).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/types.h>
#include "test_hmm_uapi.h"

static long page_size;
/* test_hmm copies what it migrated to the device here, for checking */
static unsigned char *mirror;

/* Sum of the /proc/allocinfo lines of test_hmm's function FUNC */
static void counters(const char *func, long long *bytes, long long *calls)
{
	char line[512], want[128];
	long long b, c;
	FILE *f = fopen("/proc/allocinfo", "r");

	*bytes = *calls = 0;
	if (!f) {
		perror("hmm-migrate: /proc/allocinfo");
		exit(1);
	}
	snprintf(want, sizeof(want), "[test_hmm] func:%s ", func);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, want) && sscanf(line, "%lld %lld", &b, &c) == 2) {
			*bytes += b;
			*calls += c;
		}
	fclose(f);
}

static void report(const char *step)
{
	long long db, dc, fb, fc;

	counters("dmirror_devmem_alloc_page", &db, &dc);
	counters("dmirror_devmem_fault_alloc_and_copy", &fb, &fc);
	printf("%s %lld %lld %lld %lld\n", step, db, dc, fb, fc);
	fflush(stdout);
}

static void migrate(int fd, unsigned long req, const char *name,
		    void *addr, unsigned long npages)
{
	struct hmm_dmirror_cmd cmd = {
		.addr = (uintptr_t)addr,
		.ptr = (uintptr_t)mirror,
		.npages = npages,
	};

	if (ioctl(fd, req, &cmd)) {
		fprintf(stderr, "hmm-migrate: %s: %s\n", name, strerror(errno));
		exit(1);
	}
	if (cmd.cpages != npages) {
		fprintf(stderr, "hmm-migrate: %s moved %llu of %lu pages\n", name,
			(unsigned long long)cmd.cpages, npages);
		exit(1);
	}
}

/* Each page holds its own number: a page that lost its data shows. */
static void check(const char *step, unsigned char *buf, unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		if (*(volatile unsigned long *)(buf + i * page_size) != i + 1) {
			fprintf(stderr, "hmm-migrate: %s: page %lu lost its data\n",
				step, i);
			exit(1);
		}
}

int main(int argc, char **argv)
{
	unsigned long npages, i;
	unsigned char *buf;
	int fd;

	if (argc != 2 || (npages = strtoul(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: hmm-migrate NPAGES\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	fd = open("/dev/hmm_dmirror0", O_RDWR);
	if (fd < 0) {
		perror("hmm-migrate: /dev/hmm_dmirror0");
		return 1;
	}
	buf = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mirror = malloc(npages * page_size);
	if (buf == MAP_FAILED || !mirror) {
		perror("hmm-migrate: mmap");
		return 1;
	}
	for (i = 0; i < npages; i++)
		*(unsigned long *)(buf + i * page_size) = i + 1;
	report("touched");
	migrate(fd, HMM_DMIRROR_MIGRATE_TO_DEV, "to device", buf, npages);
	check("to_dev (the device's copy)", mirror, npages);
	report("to_dev");
	migrate(fd, HMM_DMIRROR_MIGRATE_TO_SYS, "to system", buf, npages);
	check("to_sys", buf, npages);
	report("to_sys");
	migrate(fd, HMM_DMIRROR_MIGRATE_TO_DEV, "to device again", buf, npages);
	report("to_dev_again");
	check("cpu_fault", buf, npages);	/* faults every page back */
	report("cpu_fault");
	munmap(buf, npages * page_size);
	close(fd);
	report("unmapped");
	return 0;
}
