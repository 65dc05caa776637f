// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-fuzz ROUNDS SEED [MASK]: throw ROUNDS ioctls at /proc/allocinfo, each
 * a command of the allocinfo type (every known one, and unknown numbers and
 * sizes) with an argument that is random bytes, a half-valid struct (a real
 * filter with random flags, features, masks and unterminated strings; for
 * the _EXT commands and GET_NODES, a size first that is right, short, long
 * or huge), a struct that runs into an unmapped page, a NULL, wild or
 * kernel pointer, or a GET_NODES buffer that ends at an unmapped page,
 * asked with the content id or another.  A MASK keeps the flags that SET_FLAGS
 * sets to those bits.  Then clears every flag on every tag, so
 * that the kernel is left as it was, and prints how each errno came back:
 *   rounds N
 *   errno NAME COUNT
 * It fails (1) only when the last clear does; the kernel's part is judged
 * from dmesg and its keys by the caller.  Deterministic for a SEED.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

#ifdef ALLOCINFO_IOC_SET_FLAGS
static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (unsigned int)(rng >> 33) % n : 0;
}

static void fill(void *p, size_t n)
{
	unsigned char *c = p;

	while (n--)
		*c++ = rnd(256);
}

/* A filter that matches something, or nearly: mostly alloctest's tags */
static void half_valid_filter(struct allocinfo_filter *f)
{
	static const char *const mods[] = { "alloctest", "tagkeep", "test_hmm" };

	memset(f, 0, sizeof(*f));
	switch (rnd(6)) {
	case 0:
		f->mask = rnd(1u << 10);	/* unknown bits too */
		break;
	case 1:
		f->mask = ALLOCINFO_FILTER_MASK_MODNAME;
		memset(f->fields.modname, 'a', sizeof(f->fields.modname));
		break;
	case 2:
		f->mask = ALLOCINFO_FILTER_MASK_MIN_SIZE | ALLOCINFO_FILTER_MASK_MAX_SIZE;
		f->min_size = rnd(1u << 20);
		f->max_size = rnd(2) ? ~0ULL : rnd(1u << 16);
		break;
	case 3:
		f->mask = ALLOCINFO_FILTER_MASK_LINENO | ALLOCINFO_FILTER_MASK_MODNAME;
		strcpy(f->fields.modname, mods[rnd(3)]);
		f->fields.lineno = rnd(600);
		break;
	default:
		f->mask = ALLOCINFO_FILTER_MASK_MODNAME;
		strcpy(f->fields.modname, mods[rnd(3)]);
		break;
	}
}

static unsigned long cmd_of(unsigned int pick)
{
	static const unsigned long known[] = {
		ALLOCINFO_IOC_CONTENT_ID, ALLOCINFO_IOC_GET_AT,
		ALLOCINFO_IOC_GET_NEXT, ALLOCINFO_IOC_GET_AT_EXT,
		ALLOCINFO_IOC_GET_NEXT_EXT, ALLOCINFO_IOC_SET_FLAGS,
		ALLOCINFO_IOC_GET_NODES,
	};
	static const unsigned int sizes[] = { 0, 1, 8, 100, 4095, 4096, 16383 };

	if (pick < sizeof(known) / sizeof(known[0]))
		return known[pick];
	/* an unknown number, or a known number with another size */
	return _IOC(rnd(4), ALLOCINFO_IOC_BASE, rnd(8), sizes[rnd(7)]);
}

/* The size word of an argument: right most of the time, else anything */
static __u32 size_of(__u32 right)
{
	static const __u32 other[] = { 0, 4, 8, 100, 4096, 16384, ~0u };

	return rnd(4) ? right + (rnd(4) ? 0 : 8 * rnd(4)) : other[rnd(7)];
}

int main(int argc, char **argv)
{
	static unsigned long errs[256];
	unsigned long long mask = ~0ULL;
	unsigned long rounds, i;
	struct allocinfo_set_flags clear;
	union {
		struct allocinfo_get_at at;
		struct allocinfo_get_at_ext atx;
		struct allocinfo_get_next_ext nextx;
		struct allocinfo_set_flags set;
		struct allocinfo_get_nodes nodes;
		unsigned char raw[16384];
	} *buf;
	long page = sysconf(_SC_PAGESIZE);
	struct allocinfo_content_id id = { 0 };
	unsigned char *map, *edge;
	int fd, e, rc = 0;
	void *arg;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: allocinfo-fuzz ROUNDS SEED [MASK]\n");
		return 2;
	}
	rounds = strtoul(argv[1], NULL, 0);
	rng = strtoull(argv[2], NULL, 0);
	if (argc == 4)
		mask = strtoull(argv[3], NULL, 0);
	buf = malloc(sizeof(*buf));
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/proc/allocinfo", O_RDONLY);
	if (!buf || map == MAP_FAILED || fd < 0) {
		perror("allocinfo-fuzz");
		return 1;
	}
	munmap(map + page, page);	/* the page after map's first is unmapped */

	for (i = 0; i < rounds; i++) {
		unsigned long cmd = cmd_of(rnd(10));

		memset(buf, 0, sizeof(*buf));
		switch (rnd(8)) {
		case 0:
			fill(buf, sizeof(*buf));
			arg = buf;
			break;
		case 1:		/* a struct running into the unmapped page */
			edge = map + page - 1 - rnd(64);
			fill(edge, map + page - edge);
			arg = edge;
			break;
		case 2: {
			static void *const bad[] = {
				NULL, (void *)1, (void *)-1L, (void *)0xffff888000000000UL,
			};

			arg = bad[rnd(4)];
			break;
		}
		case 3:		/* GET_NODES into a buffer ending at the hole */
			cmd = ALLOCINFO_IOC_GET_NODES;
			ioctl(fd, ALLOCINFO_IOC_CONTENT_ID, &id);
			buf->nodes.size = size_of(ALLOCINFO_GET_NODES_SIZE_VER0);
			buf->nodes.content_id = id.id + (rnd(4) ? 0 : rnd(3));
			buf->nodes.index = rnd(4) ? rnd(1u << 16) : rnd(8000);
			buf->nodes.nr_nodes = rnd(2) ? rnd(4) : ~0u;
			buf->nodes.nodes = (unsigned long)(map + page -
				rnd(4) * sizeof(struct allocinfo_node_counter));
			arg = buf;
			break;
		default:	/* half-valid: a filter, random flags */
			half_valid_filter(&buf->at.filter);
			buf->at.pos = rnd(4) ? rnd(64) : ~0ULL;
			if (cmd == ALLOCINFO_IOC_GET_AT_EXT) {
				half_valid_filter(&buf->atx.at.filter);
				buf->atx.at.pos = rnd(4) ? rnd(64) : ~0ULL;
				buf->atx.size = size_of(ALLOCINFO_GET_AT_EXT_SIZE_VER0);
			}
			if (cmd == ALLOCINFO_IOC_GET_NEXT_EXT)
				buf->nextx.size = size_of(ALLOCINFO_GET_NEXT_EXT_SIZE_VER0);
			if (cmd == ALLOCINFO_IOC_SET_FLAGS) {
				half_valid_filter(&buf->set.filter);
				buf->set.features = rnd(8) ? 0 : 1ULL << rnd(64);
				buf->set.set = (rnd(8) ? rnd(8) : 1ULL << rnd(64)) & mask;
				buf->set.clear = rnd(2) ? rnd(8) : 0;
			}
			arg = buf;
			break;
		}
		e = ioctl(fd, cmd, arg) ? errno : 0;
		errs[e & 255]++;
	}

	/* Leave no flag behind: clear them all, on every tag */
	memset(&clear, 0, sizeof(clear));
	clear.clear = ALLOCINFO_TAG_FLAGS;
	if (ioctl(fd, ALLOCINFO_IOC_SET_FLAGS, &clear)) {
		perror("allocinfo-fuzz: clearing every flag");
		rc = 1;
	}
	printf("rounds %lu\n", rounds);
	for (e = 0; e < 256; e++)
		if (errs[e])
			printf("errno %s %lu\n", e ? strerror(e) : "none", errs[e]);
	return rc;
}
#else
int main(void)
{
	fprintf(stderr, "allocinfo-fuzz: no ALLOCINFO_IOC_SET_FLAGS in these headers\n");
	return 2;
}
#endif
