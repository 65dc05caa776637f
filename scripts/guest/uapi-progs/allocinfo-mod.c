// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-mod MODULE: list a module's allocation tags through the
 * /proc/allocinfo ioctls (ALLOCINFO_IOC_GET_AT with a module filter, then
 * ALLOCINFO_IOC_GET_NEXT), one line each:
 *   FUNCTION FILE:LINE BYTES CALLS accurate:N unloaded:N
 * Built against the booted variant's exported UAPI headers.  The byte after
 * "accurate" is the fork's "unloaded" flag; on a kernel without it that
 * byte is padding, which the kernel leaves as we pass it: zero.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

static void print_tag(const struct allocinfo_tag_data *d)
{
	const __u8 *flags = &d->counter.accurate;

	printf("%s %s:%llu %llu %llu accurate:%u unloaded:%u\n",
	       d->tag.function, d->tag.filename,
	       (unsigned long long)d->tag.lineno,
	       (unsigned long long)d->counter.bytes,
	       (unsigned long long)d->counter.calls, flags[0], flags[1]);
}

int main(int argc, char **argv)
{
	struct allocinfo_get_at at;
	struct allocinfo_tag_data next;
	int fd;

	if (argc != 2 || strlen(argv[1]) >= ALLOCINFO_STR_SIZE) {
		fprintf(stderr, "usage: allocinfo-mod MODULE\n");
		return 2;
	}
	fd = open("/proc/allocinfo", O_RDONLY);
	if (fd < 0) {
		perror("allocinfo-mod: /proc/allocinfo");
		return 1;
	}
	memset(&at, 0, sizeof(at));
	at.filter.mask = ALLOCINFO_FILTER_MASK_MODNAME;
	strcpy(at.filter.fields.modname, argv[1]);
	if (ioctl(fd, ALLOCINFO_IOC_GET_AT, &at)) {
		if (errno == ENOENT)
			return 0;	/* no such tag: print nothing */
		perror("allocinfo-mod: ALLOCINFO_IOC_GET_AT");
		return 1;
	}
	print_tag(&at.data);
	for (;;) {
		memset(&next, 0, sizeof(next));
		if (ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &next)) {
			if (errno == ENOENT)
				break;
			perror("allocinfo-mod: ALLOCINFO_IOC_GET_NEXT");
			return 1;
		}
		print_tag(&next);
	}
	close(fd);
	return 0;
}
