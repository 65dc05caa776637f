/*
 * Workloads a user runs, each timed with CLOCK_MONOTONIC around its loop
 * (exact under QEMU -icount, where a guest nanosecond is an instruction):
 *
 *   workload files DIR N      create, write 4 KiB, read back and delete N
 *                             files in DIR (a tmpfs)
 *   workload spawn N          fork + execve of this program + wait, N times
 *   workload stream MIB       MIB MiB through an AF_UNIX stream socket pair
 *                             between two processes, in 64 KiB writes
 *   workload timed OPS CMD... run CMD once, counted as OPS operations
 *   workload pause USEC       sleep USEC microseconds and print nothing: a
 *                             start offset, which moves the workload that
 *                             follows to another phase of the timer tick
 *                             (another trajectory through the scheduler)
 *
 * Prints: NAME OPS TOTAL_NS NS_PER_OP_TIMES_100, where an op is a file, a
 * spawn, a 4 KiB page of the stream, or one of the command's OPS.
 * Exit status 2 for bad usage, 1 when the workload fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../qemu-plugins/marker.h"
#include "now.h"

static int fail(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	return 1;
}

static unsigned long count(const char *s)
{
	char *end;
	unsigned long n = strtoul(s, &end, 0);

	return *s && !*end ? n : 0;
}

static int wait_ok(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "workload: child failed (status %#x)\n", status);
		return 1;
	}
	return 0;
}

static int files(const char *dir, unsigned long n)
{
	static char buf[4096], back[4096];
	char path[4096];
	unsigned long i;
	int fd;

	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/w%lu", dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
		if (fd < 0)
			return fail(path);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
		    pread(fd, back, sizeof(back), 0) != (ssize_t)sizeof(back))
			return fail(path);
		if (close(fd) || unlink(path))
			return fail(path);
	}
	return 0;
}

static int spawn(const char *self, unsigned long n)
{
	char *argv[] = { (char *)self, "exit", NULL };
	unsigned long i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return fail("fork");
		if (!pid) {
			execv(self, argv);
			_exit(127);
		}
		if (wait_ok(pid))
			return 1;
	}
	return 0;
}

static int stream(unsigned long mib)
{
	static char buf[65536];
	unsigned long long left = (unsigned long long)mib << 20;
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return fail("socketpair");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		close(sv[0]);
		memset(buf, 0xa5, sizeof(buf));
		while (left) {
			size_t n = left < sizeof(buf) ? left : sizeof(buf);
			ssize_t w = write(sv[1], buf, n);

			if (w <= 0)
				_exit(1);
			left -= w;
		}
		_exit(0);
	}
	close(sv[1]);
	while (left) {
		ssize_t r = read(sv[0], buf, sizeof(buf));

		if (r <= 0)
			return fail("read");
		left -= r;
	}
	close(sv[0]);
	return wait_ok(pid);
}

static int timed(char **cmd)
{
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork");
	if (!pid) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	return wait_ok(pid);
}

static int usage(void)
{
	fprintf(stderr, "usage: workload files DIR N | spawn N | stream MIB | timed OPS CMD... | pause USEC\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t;
	unsigned long ops;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "pause")) {
		struct timespec ts;

		if (argc != 3 || !(ops = count(argv[2])))
			return usage();
		ts.tv_sec = ops / 1000000;
		ts.tv_nsec = (long)(ops % 1000000) * 1000;
		while (nanosleep(&ts, &ts))
			if (errno != EINTR)
				return fail("nanosleep");
		return 0;
	}
	INSNPROF_START();
	t0 = now_ns();
	if (!strcmp(argv[1], "files") && argc == 4 && (ops = count(argv[3])))
		rc = files(argv[2], ops);
	else if (!strcmp(argv[1], "spawn") && argc == 3 && (ops = count(argv[2])))
		rc = spawn("/proc/self/exe", ops);
	else if (!strcmp(argv[1], "stream") && argc == 3 && (ops = count(argv[2]))) {
		rc = stream(ops);
		ops *= 256;
	} else if (!strcmp(argv[1], "timed") && argc >= 4 && (ops = count(argv[2])))
		rc = timed(argv + 3);
	else
		return usage();
	t = now_ns() - t0;
	INSNPROF_STOP();
	if (rc)
		return rc;
	printf("%s %lu %llu %llu\n", argv[1], ops, t, t * 100 / ops);
	return 0;
}
