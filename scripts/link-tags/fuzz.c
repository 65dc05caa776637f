// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for link-tags: each input becomes a file (a memfd, so
 * that it goes through elf_map() as a real run does) and is checked under
 * four layouts.  It checks the tool's promises, not only that it does not
 * crash:
 *  - the input file is never changed, accepted or not;
 *  - an accepted file, once indexed, is accepted again, reads back the
 *    indices just written, and a second assignment changes nothing.
 * Build: make fuzz (clang -fsanitize=fuzzer,address,undefined).
 */
#define _GNU_SOURCE
#define LINK_TAGS_NO_MAIN
#include "link-tags.c"

#include <sys/mman.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct options fuzz_opts[] = {
	{ .l = { 40, 2, 2, 16, 4, { 8, 16, 24 } } },
	{ .l = { 40, 2, 2, 4, 4, { 8, 16, 24 } }, .module_reserve = 3 },
	{ .l = { 48, 44, 4, 20, 16, { 24, 8, 0 } } },
	{ .l = { 32, 2, 2, 16, 4, { 8, 12, 16 } } },
};

struct memfile {
	int fd;
	char path[64];
};

static void memfile_init(struct memfile *m, const char *name)
{
	m->fd = memfd_create(name, 0);
	if (m->fd < 0)
		abort();
	snprintf(m->path, sizeof(m->path), "/proc/self/fd/%d", m->fd);
}

static void memfile_put(struct memfile *m, off_t at, const void *data, size_t size)
{
	if (pwrite(m->fd, data, size, at) != (ssize_t)size)
		abort();
}

/* Does the file hold exactly data? */
static bool memfile_holds(struct memfile *m, const u8 *data, size_t size)
{
	struct stat st;
	u8 *now;
	bool same;

	if (fstat(m->fd, &st) || (size_t)st.st_size != size)
		return false;
	now = malloc(size ? size : 1);
	if (!now)
		abort();
	same = pread(m->fd, now, size, 0) == (ssize_t)size && !memcmp(now, data, size);
	free(now);
	return same;
}

static struct memfile in, out;
static FILE *sink;

static void one(const u8 *data, size_t size, const struct options *o)
{
	struct image im = { .name = "fuzz" }, again = { .name = "fuzz" };
	u64 rest;

	if (image_open(&im, in.path) || image_scan(&im, o))
		goto out;
	map_print(sink, &im);
	if (image_assign(&im, o) < 0)
		abort();
	/* the file a run would write, from the same three pieces */
	if (ftruncate(out.fd, 0))
		abort();
	rest = im.tag_off + im.tag_bytes;
	memfile_put(&out, 0, im.buf, im.tag_off);
	memfile_put(&out, im.tag_off, im.out, im.tag_bytes);
	memfile_put(&out, rest, im.buf + rest, im.len - rest);
	if (image_open(&again, out.path) || image_scan(&again, o))
		abort();	/* indexing made a good file bad */
	if (again.ntags != im.ntags)
		abort();
	for (size_t t = 0; t < again.ntags; t++)
		if (again.tags[t].stored != FIRST_INDEX + t)
			abort();	/* did not read back what was written */
	if (image_assign(&again, o) != 0)
		abort();	/* not idempotent */
out:
	image_free(&again);
	image_free(&im);
	if (!memfile_holds(&in, data, size))
		abort();	/* the input was changed */
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	if (!sink) {
		silent = true;
		memfile_init(&in, "in");
		memfile_init(&out, "out");
		sink = fopen("/dev/null", "w");
		if (!sink)
			abort();
	}
	if (ftruncate(in.fd, 0))
		abort();
	memfile_put(&in, 0, data, size);
	for (size_t i = 0; i < ARRAY_SIZE(fuzz_opts); i++)
		one(data, size, &fuzz_opts[i]);
	return 0;
}
