// SPDX-License-Identifier: GPL-2.0
/*
 * nodes-id FUNCTION: read the content id (ALLOCINFO_IOC_CONTENT_ID), then
 * FUNCTION's first tag's index (ALLOCINFO_IOC_GET_AT), then its counts by
 * node (ALLOCINFO_IOC_GET_NODES) asked with that id; prints
 *   ID INDEX RESULT
 * nodes-id INDEX ID: ALLOCINFO_IOC_GET_NODES of INDEX asked with ID;
 * prints RESULT.  RESULT is "ok", or the errno's name for ESTALE, ENOENT
 * and EOPNOTSUPP, else its text.  Exits 1 only when it cannot ask.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

#ifdef ALLOCINFO_IOC_GET_NODES
static const char *result(int fd, unsigned int index, unsigned long long id)
{
	struct allocinfo_node_counter c[64];
	struct allocinfo_get_nodes g = {
		.size = sizeof(g),
		.index = index,
		.content_id = id,
		.nr_nodes = sizeof(c) / sizeof(c[0]),
		.nodes = (unsigned long)c,
	};

	if (!ioctl(fd, ALLOCINFO_IOC_GET_NODES, &g))
		return "ok";
	switch (errno) {
	case ESTALE:
		return "ESTALE";
	case ENOENT:
		return "ENOENT";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	}
	return strerror(errno);
}

int main(int argc, char **argv)
{
	struct allocinfo_content_id id;
	struct allocinfo_get_at at;
	int fd = open("/proc/allocinfo", O_RDONLY);

	if (fd < 0 || (argc != 2 && argc != 3)) {
		fprintf(stderr, "usage: nodes-id FUNCTION | nodes-id INDEX ID\n");
		return 1;
	}
	if (argc == 3) {
		printf("%s\n", result(fd, strtoul(argv[1], NULL, 0),
				      strtoull(argv[2], NULL, 0)));
		return 0;
	}
	memset(&at, 0, sizeof(at));
	at.filter.mask = ALLOCINFO_FILTER_MASK_FUNCTION;
	strncpy(at.filter.fields.function, argv[1], ALLOCINFO_STR_SIZE - 1);
	if (ioctl(fd, ALLOCINFO_IOC_CONTENT_ID, &id) ||
	    ioctl(fd, ALLOCINFO_IOC_GET_AT, &at)) {
		perror("nodes-id");
		return 1;
	}
	printf("%llu %u %s\n", (unsigned long long)id.id, at.data.counter.index,
	       result(fd, at.data.counter.index, id.id));
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "nodes-id: no ALLOCINFO_IOC_GET_NODES in these headers\n");
	return 1;
}
#endif
