// SPDX-License-Identifier: GPL-2.0
/*
 * nodeflip FUNCTION ROUNDS [CTL]: set and clear ALLOCINFO_TAG_NODES on the
 * tags of FUNCTION ROUNDS times with ALLOCINFO_IOC_SET_FLAGS, and every
 * hundredth round, while the flag is set, write "pagesnode 0 1" to the
 * alloctest control file CTL and "free" once it is cleared, so that some
 * of the counters drain with allocations on them.  Prints "N rounds";
 * exit status 1 on an error, 2 when the headers have no counts by node.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

#ifdef ALLOCINFO_TAG_NODES
static int set(int fd, const char *func, int on)
{
	struct allocinfo_set_flags sf;

	memset(&sf, 0, sizeof(sf));
	sf.filter.mask = ALLOCINFO_FILTER_MASK_FUNCTION;
	snprintf(sf.filter.fields.function, sizeof(sf.filter.fields.function),
		 "%s", func);
	if (on)
		sf.set = ALLOCINFO_TAG_NODES;
	else
		sf.clear = ALLOCINFO_TAG_NODES;
	if (ioctl(fd, ALLOCINFO_IOC_SET_FLAGS, &sf)) {
		fprintf(stderr, "nodeflip: %s the flag: %s\n", on ? "setting" : "clearing",
			strerror(errno));
		return -1;
	}
	return 0;
}

static int ctl_write(const char *ctl, const char *cmd)
{
	int fd = open(ctl, O_WRONLY);
	int ok = fd >= 0 && write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd);

	if (fd >= 0)
		close(fd);
	if (!ok)
		fprintf(stderr, "nodeflip: %s: '%s': %s\n", ctl, cmd, strerror(errno));
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *ctl = argc > 3 ? argv[3] : NULL;
	long rounds = argc > 2 ? atol(argv[2]) : 0, i;
	int fd;

	if (rounds <= 0) {
		fprintf(stderr, "usage: nodeflip FUNCTION ROUNDS [CTL]\n");
		return 1;
	}
	fd = open("/proc/allocinfo", O_RDONLY);
	if (fd < 0) {
		perror("nodeflip: /proc/allocinfo");
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		int alloc = ctl && i % 100 == 0;

		if (set(fd, argv[1], 1) ||
		    (alloc && ctl_write(ctl, "pagesnode 0 1")) ||
		    set(fd, argv[1], 0) ||
		    (alloc && ctl_write(ctl, "free")))
			return 1;
	}
	printf("%ld rounds\n", rounds);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "nodeflip: these UAPI headers have no ALLOCINFO_TAG_NODES\n");
	return 2;
}
#endif
