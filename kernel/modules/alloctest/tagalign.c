// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-profiling test module: its one allocation tag is aligned to
 * 64 bytes, which the tag size is not a multiple of, so its tag section
 * is aligned off the tag size: placed off the grid of whole tags in the
 * module tag area, it cannot be numbered by its place.  The module must
 * load in every form, with profiling on, and count the page it holds on
 * the overflow line when its tag overflowed, on its own line otherwise.
 *
 * The module has no other allocation call: a second tag in the section
 * would sit at a 64-byte boundary, off the array the section must be.
 */
#include <linux/alloc_tag.h>
#include <linux/gfp.h>
#include <linux/module.h>

static struct page *tagalign_page;

static struct page *tagalign_alloc(void)
{
#ifdef CONFIG_MEM_ALLOC_PROFILING
	static struct alloc_tag tag __used __aligned(64)
		__section(ALLOC_TAG_SECTION_NAME) = { .ct = CODE_TAG_INIT };

	BUILD_BUG_ON(IS_ALIGNED(sizeof(struct alloc_tag), 64));
	return alloc_hooks_tag(&tag, alloc_pages_noprof(GFP_KERNEL, 0));
#else
	return alloc_pages(GFP_KERNEL, 0);
#endif
}

static int __init tagalign_init(void)
{
	tagalign_page = tagalign_alloc();
	return tagalign_page ? 0 : -ENOMEM;
}

static void __exit tagalign_exit(void)
{
	__free_pages(tagalign_page, 0);
}

module_init(tagalign_init);
module_exit(tagalign_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A module whose allocation tag is aligned off the tag size");
