/*
 * Tag-shaped data for the link-tags tests.  Nothing here ever runs: the
 * tests compile it (-DMODULE for a module) and feed the object to link-tags.
 * -DALT_LAYOUT gives a 48-byte tag with a 32-bit index at offset 44 and
 * the fields in another order, for the --tag-size/--fields test.
 */
#ifndef ALT_LAYOUT
struct codetag {
	unsigned short flags;
	unsigned short idx;
	unsigned int lineno;
	const char *modname;
	const char *function;
	const char *filename;
} __attribute__((aligned(8)));

struct alloc_tag {
	struct codetag ct;
	long *counters;
};
#else
struct codetag {
	const char *filename;		/* 0 */
	const char *function;		/* 8 */
	unsigned int lineno;		/* 16 */
	unsigned int flags;		/* 20 */
	const char *modname;		/* 24 */
} __attribute__((aligned(8)));

struct alloc_tag {
	struct codetag ct;
	long *counters;			/* 32 */
	unsigned int pad;		/* 40 */
	unsigned int idx;		/* 44 */
};
#endif

#ifdef MODULE
const char fixture_modname[] = "fixmod";
#define MODNAME fixture_modname
#else
#define MODNAME 0
#endif

static long counters[4];
long data_before = 0x1111111111111111;

#define TAG_AT(name, func)						\
	static struct alloc_tag name					\
	__attribute__((used, section("alloc_tags"), aligned(8))) = {	\
		.ct = { .lineno = __LINE__, .modname = MODNAME,		\
			.function = func, .filename = __FILE__ },	\
		.counters = &counters[0] }

#define ALLOC_TAG() ({ TAG_AT(_tag, __func__); &_tag; })

void *alloc_one(void)
{
	return ALLOC_TAG();
}

void *alloc_two(int i)
{
	if (i)
		return ALLOC_TAG();
	return ALLOC_TAG();
}

void *alloc_three(void)
{
	void *a = ALLOC_TAG(), *b = ALLOC_TAG();

	return a == b ? a : ALLOC_TAG();
}

/* a name that needs escaping in the map */
TAG_AT(odd_tag, "odd\tname\\");

long data_after __attribute__((section("tail_data"))) = 0x2222222222222222;

void _start(void)
{
}
