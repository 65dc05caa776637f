// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for link-tags: feeds bytes to the in-memory part of the
 * tool (validate, format the map, assign) under three layouts and checks
 * its promises, not only that it does not crash:
 *  - a rejected buffer is left byte-identical;
 *  - an accepted buffer, once indexed, is accepted again, reads back the
 *    indices just written, and a second assignment changes nothing.
 * Build: make fuzz (clang -fsanitize=fuzzer,address,undefined).
 */
#define LINK_TAGS_NO_MAIN
#include "link-tags.c"

static const struct options fuzz_opts[] = {
	{ .l = { 40, 2, 2, 16, 4, { 8, 16, 24 } } },
	{ .l = { 40, 2, 2, 4, 4, { 8, 16, 24 } }, .module_reserve = 3 },
	{ .l = { 48, 44, 4, 20, 16, { 24, 8, 0 } } },
};

static void one(const uint8_t *data, size_t size, const struct options *o, FILE *sink)
{
	struct image im = { .name = "fuzz", .len = size };
	struct image again;

	im.buf = malloc(size ? size : 1);
	if (!im.buf)
		return;
	memcpy(im.buf, data, size);
	if (image_scan(&im, o)) {
		if (memcmp(im.buf, data, size))
			abort();	/* a rejected file was changed */
		goto out;
	}
	map_print(sink, &im, false);
	image_assign(&im, o, true);
	again = (struct image){ .name = "fuzz", .buf = im.buf, .len = size };
	if (image_scan(&again, o))
		abort();	/* indexing made a good file bad */
	if (again.ntags != im.ntags)
		abort();
	for (size_t t = 0; t < again.ntags; t++)
		if (again.tags[t].stored != again.first + t)
			abort();	/* did not read back what was written */
	if (image_assign(&again, o, true))
		abort();	/* not idempotent */
	image_free(&again);
out:
	image_free(&im);
	free(im.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;

	if (!sink) {
		silent = true;
		if (elf_version(EV_CURRENT) == EV_NONE)
			abort();
		sink = fopen("/dev/null", "w");
		if (!sink)
			abort();
	}
	for (size_t i = 0; i < sizeof(fuzz_opts) / sizeof(fuzz_opts[0]); i++)
		one(data, size, &fuzz_opts[i], sink);
	return 0;
}
