// SPDX-License-Identifier: GPL-2.0
/*
 * loadmod FILE [PARAMS]: load a module with finit_module(2), once.
 * BusyBox's insmod tries init_module(2) again when finit_module(2) fails
 * for any reason, so a module whose init failed once would load on the
 * second try; a test that fails a module's load on purpose must see the
 * first try's error.  Exit 0 loaded, 1 not (the error printed), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: loadmod FILE [PARAMS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "loadmod: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (syscall(SYS_finit_module, fd, argc > 2 ? argv[2] : "", 0)) {
		fprintf(stderr, "loadmod: %s: %s\n", argv[1], strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
