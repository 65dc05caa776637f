// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-profiling test module: a module parameter whose set callback
 * allocates a page.
 *
 * The kernel parses a module's parameters before it sets up the module's
 * allocation tags, so "insmod paramalloc.ko alloc=1" allocates a page at
 * a module call site whose tag is not ready yet.  The page must still be
 * counted on this module's line in /proc/allocinfo, once, and uncounted
 * when it is freed.
 *
 * alloc=1 allocates one order-0 page and keeps it (a second alloc=1 keeps
 * the page it has); alloc=0 frees it, as does unloading the module.  The
 * parameter is writable in /sys/module/paramalloc/parameters/alloc.
 */
#include <linux/gfp.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

static DEFINE_MUTEX(paramalloc_lock);
static struct page *paramalloc_page;

/* Frees the held page, if any; called with paramalloc_lock held. */
static void paramalloc_release(void)
{
	if (paramalloc_page) {
		__free_pages(paramalloc_page, 0);
		paramalloc_page = NULL;
	}
}

/* The call site whose tag the tests look for. */
static int paramalloc_set(const char *val, const struct kernel_param *kp)
{
	bool want;
	int ret;

	ret = kstrtobool(val, &want);
	if (ret)
		return ret;

	mutex_lock(&paramalloc_lock);
	if (!want) {
		paramalloc_release();
	} else if (!paramalloc_page) {
		paramalloc_page = alloc_pages(GFP_KERNEL, 0);
		if (!paramalloc_page)
			ret = -ENOMEM;
	}
	mutex_unlock(&paramalloc_lock);
	return ret;
}

static int paramalloc_get(char *buffer, const struct kernel_param *kp)
{
	bool held;

	mutex_lock(&paramalloc_lock);
	held = paramalloc_page;
	mutex_unlock(&paramalloc_lock);
	return sysfs_emit(buffer, "%d\n", held);
}

static const struct kernel_param_ops paramalloc_ops = {
	.set = paramalloc_set,
	.get = paramalloc_get,
};

module_param_cb(alloc, &paramalloc_ops, NULL, 0644);
MODULE_PARM_DESC(alloc, "1: allocate a page and keep it; 0: free it");

static int __init paramalloc_init(void)
{
	return 0;
}

static void __exit paramalloc_exit(void)
{
	mutex_lock(&paramalloc_lock);
	paramalloc_release();
	mutex_unlock(&paramalloc_lock);
}

module_init(paramalloc_init);
module_exit(paramalloc_exit);
MODULE_DESCRIPTION("Allocates a page from a module parameter's set callback");
MODULE_LICENSE("GPL");
