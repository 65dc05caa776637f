// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-build: every allocation tag's build module name
 * (allocinfo_ext.build_modname, ALLOCINFO_IOC_GET_AT_EXT then _NEXT_EXT),
 * one line a tag, in the order of /proc/allocinfo's lines, "-" for a tag
 * without one.  Exits 1 when the kernel has no _EXT commands or the walk
 * fails before its end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

#ifdef ALLOCINFO_IOC_GET_AT_EXT
static void print_one(const struct allocinfo_ext *x)
{
	if (x->features & ALLOCINFO_EXT_BUILD_MODNAME)
		printf("%.*s\n", ALLOCINFO_STR_SIZE, x->build_modname);
	else
		printf("-\n");
}

int main(void)
{
	struct allocinfo_get_at_ext at;
	struct allocinfo_get_next_ext next;
	int fd = open("/proc/allocinfo", O_RDONLY);

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	if (fd < 0 || ioctl(fd, ALLOCINFO_IOC_GET_AT_EXT, &at)) {
		perror("allocinfo-build");
		return 1;
	}
	print_one(&at.ext);
	for (;;) {
		memset(&next, 0, sizeof(next));
		next.size = sizeof(next);
		if (ioctl(fd, ALLOCINFO_IOC_GET_NEXT_EXT, &next))
			break;
		print_one(&next.ext);
	}
	if (errno != ENOENT) {
		perror("allocinfo-build");
		return 1;
	}
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "allocinfo-build: no ALLOCINFO_IOC_GET_AT_EXT in these headers\n");
	return 1;
}
#endif
