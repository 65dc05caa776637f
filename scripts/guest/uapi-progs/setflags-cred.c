// SPDX-License-Identifier: GPL-2.0
/*
 * setflags-cred MODULE: whose CAP_SYS_ADMIN ALLOCINFO_IOC_SET_FLAGS asks
 * for, the opener's or the caller's.  Sets and clears the capture flag on
 * MODULE's tags through two files, one line each:
 *   opened-with caller-without RESULT
 *   opened-without caller-with RESULT
 * RESULT "ok" or the errno's name.  The capability goes in and out of the
 * effective set with capset(2); it stays permitted.  Run as root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/alloc_tag.h>
#include <linux/capability.h>

#ifdef ALLOCINFO_IOC_SET_FLAGS
static int effective_admin(int on)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	if (on)
		data[0].effective |= 1u << CAP_SYS_ADMIN;
	else
		data[0].effective &= ~(1u << CAP_SYS_ADMIN);
	return syscall(SYS_capset, &hdr, data);
}

/* Set, then clear, the capture flag on @mod's tags through @fd */
static const char *capture(int fd, const char *mod)
{
	struct allocinfo_set_flags p;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&p, 0, sizeof(p));
		p.filter.mask = ALLOCINFO_FILTER_MASK_MODNAME;
		strcpy(p.filter.fields.modname, mod);
		if (i == 0)
			p.set = ALLOCINFO_TAG_CAPTURE;
		else
			p.clear = ALLOCINFO_TAG_CAPTURE;
		if (ioctl(fd, ALLOCINFO_IOC_SET_FLAGS, &p))
			return errno == EPERM ? "EPERM" : strerror(errno);
	}
	return "ok";
}

int main(int argc, char **argv)
{
	int with, without;

	if (argc != 2 || strlen(argv[1]) >= ALLOCINFO_STR_SIZE) {
		fprintf(stderr, "usage: setflags-cred MODULE\n");
		return 2;
	}
	with = open("/proc/allocinfo", O_RDONLY);
	if (with < 0 || effective_admin(0)) {
		perror("setflags-cred: open or capset");
		return 1;
	}
	without = open("/proc/allocinfo", O_RDONLY);
	if (without < 0) {
		perror("setflags-cred: open without CAP_SYS_ADMIN");
		return 1;
	}
	printf("opened-with caller-without %s\n", capture(with, argv[1]));
	if (effective_admin(1)) {
		perror("setflags-cred: capset");
		return 1;
	}
	printf("opened-without caller-with %s\n", capture(without, argv[1]));
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "setflags-cred: no ALLOCINFO_IOC_SET_FLAGS in these headers\n");
	return 2;
}
#endif
