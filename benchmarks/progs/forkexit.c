/*
 * Fork/exit loop: fork a child that exits at once, wait for it; N times.
 * Usage: forkexit N
 * Prints: forkexit N TOTAL_NS NS_PER_FORK_TIMES_100
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../qemu-plugins/marker.h"
#include "now.h"

int main(int argc, char **argv)
{
	unsigned long n, i;
	unsigned long long t0, t;
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: forkexit N\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	if (!n)
		return 2;
	INSNPROF_START();
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || status) {
			fprintf(stderr, "forkexit: child failed\n");
			return 1;
		}
	}
	t = now_ns() - t0;
	INSNPROF_STOP();
	printf("forkexit %lu %llu %llu\n", n, t, t * 100 / n);
	return 0;
}
