// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-profiling test module: allocates pages and slab objects at
 * fixed call sites on request, so a test can watch exactly those tags in
 * /proc/allocinfo.
 *
 * Control file /sys/kernel/debug/alloctest/ctl, one command per write:
 *   pages ORDER COUNT   allocate COUNT pages of ORDER (alloctest_pages)
 *   split ORDER COUNT   allocate COUNT non-compound pages of ORDER and
 *                       split each into order-0 pages (alloctest_split)
 *   bulk COUNT          allocate COUNT order-0 pages with
 *                       alloc_pages_bulk() (alloctest_bulk)
 *   shared ORDER COUNT  allocate COUNT non-compound pages of ORDER, take a
 *                       second reference to each and __free_pages() it,
 *                       which frees the tail pages at once and leaves the
 *                       first page held (alloctest_shared)
 *   kmalloc SIZE COUNT  kmalloc COUNT objects of SIZE (alloctest_kmalloc)
 *   percpu SIZE COUNT   allocate COUNT per-cpu areas of SIZE
 *                       (alloctest_percpu)
 *   vmalloc PAGES COUNT vmalloc() COUNT areas of PAGES pages
 *                       (alloctest_vmalloc); "free" vfree()s them, which
 *                       releases their pages with free_pages_bulk()
 *   stash               hand every held page and object to the tagkeep
 *                       module, which frees them later, after this module
 *                       is gone
 *   stress ROUNDS       on every online CPU at once, ROUNDS allocations
 *                       and frees at orders 0 to 3 (alloctest_stress)
 *   free                free everything held
 * Reading it shows what is held.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "tagkeep.h"

#define ALLOCTEST_MAX	4096

struct held_page {
	struct page *page;
	unsigned int order;
};

static DEFINE_MUTEX(alloctest_lock);
static struct held_page held_pages[ALLOCTEST_MAX];
static unsigned int nr_pages;
static void *held_objs[ALLOCTEST_MAX];
static unsigned int nr_objs;
static void __percpu *held_pcpu[ALLOCTEST_MAX];
static unsigned int nr_pcpu;
static void *held_vm[ALLOCTEST_MAX];
static unsigned int nr_vm;
static struct dentry *alloctest_dir;

/* The page call site: its tag is what the tests look for. */
static int alloctest_pages(unsigned int order, unsigned int count)
{
	struct page *page;

	if (order > MAX_PAGE_ORDER || count > ALLOCTEST_MAX - nr_pages)
		return -EINVAL;
	while (count--) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return -ENOMEM;
		held_pages[nr_pages].page = page;
		held_pages[nr_pages].order = order;
		nr_pages++;
	}
	return 0;
}

/* Split pages: each order-0 piece must carry the tag and one call. */
static int alloctest_split(unsigned int order, unsigned int count)
{
	struct page *page;
	unsigned int i;

	if (order > MAX_PAGE_ORDER || count > ALLOCTEST_MAX ||
	    (count << order) > ALLOCTEST_MAX - nr_pages)
		return -EINVAL;
	while (count--) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return -ENOMEM;
		split_page(page, order);
		for (i = 0; i < (1U << order); i++) {
			held_pages[nr_pages].page = page + i;
			held_pages[nr_pages].order = 0;
			nr_pages++;
		}
	}
	return 0;
}

/* Bulk pages: one call site, one call counted a page. */
static int alloctest_bulk(unsigned int count)
{
	struct page **pages;
	unsigned long got = 0, was;
	unsigned int i;

	if (!count || count > ALLOCTEST_MAX - nr_pages)
		return -EINVAL;
	pages = kvcalloc(count, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	/* It fills the empty slots only: call again until all are */
	do {
		was = got;
		got = alloc_pages_bulk(GFP_KERNEL, count, pages);
	} while (got < count && got > was);
	for (i = 0; i < count; i++) {
		if (!pages[i])
			continue;
		held_pages[nr_pages].page = pages[i];
		held_pages[nr_pages].order = 0;
		nr_pages++;
	}
	kvfree(pages);
	return got == count ? 0 : -ENOMEM;
}

/*
 * A non-compound page freed while someone else holds a reference:
 * __free_pages() frees and uncounts the tail pages, and the first page is
 * freed, and uncounted, by the last put (here, alloctest_free_all()).
 */
static int alloctest_shared(unsigned int order, unsigned int count)
{
	struct page *page;

	if (!order || order > MAX_PAGE_ORDER || count > ALLOCTEST_MAX - nr_pages)
		return -EINVAL;
	while (count--) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return -ENOMEM;
		get_page(page);
		__free_pages(page, order);
		held_pages[nr_pages].page = page;
		held_pages[nr_pages].order = 0;
		nr_pages++;
	}
	return 0;
}

/* The slab call site. */
static int alloctest_kmalloc(size_t size, unsigned int count)
{
	void *obj;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE ||
	    count > ALLOCTEST_MAX - nr_objs)
		return -EINVAL;
	while (count--) {
		obj = kmalloc(size, GFP_KERNEL);
		if (!obj)
			return -ENOMEM;
		held_objs[nr_objs++] = obj;
	}
	return 0;
}

/* The per-cpu call site. */
static int alloctest_percpu(size_t size, unsigned int count)
{
	void __percpu *area;

	if (!size || size > PCPU_MIN_UNIT_SIZE ||
	    count > ALLOCTEST_MAX - nr_pcpu)
		return -EINVAL;
	while (count--) {
		area = __alloc_percpu(size, sizeof(long));
		if (!area)
			return -ENOMEM;
		held_pcpu[nr_pcpu++] = area;
	}
	return 0;
}

/* The vmalloc() call site: its pages and their array are counted here. */
static int alloctest_vmalloc(unsigned int pages, unsigned int count)
{
	void *area;

	if (!pages || pages > ALLOCTEST_MAX || count > ALLOCTEST_MAX - nr_vm)
		return -EINVAL;
	while (count--) {
		area = vmalloc(pages * PAGE_SIZE);
		if (!area)
			return -ENOMEM;
		held_vm[nr_vm++] = area;
	}
	return 0;
}

/* Give the held pages and objects to tagkeep: they outlive this module. */
static int alloctest_stash(void)
{
	int (*stash)(struct page *page, unsigned int order);
	int (*stash_object)(void *obj);
	int ret = 0;

	stash = symbol_get(tagkeep_stash);
	if (!stash)
		return -ENOENT;
	while (nr_pages && !ret) {
		ret = stash(held_pages[nr_pages - 1].page,
			    held_pages[nr_pages - 1].order);
		if (!ret)
			nr_pages--;
	}
	symbol_put(tagkeep_stash);
	if (ret || !nr_objs)
		return ret;

	stash_object = symbol_get(tagkeep_stash_object);
	if (!stash_object)
		return -ENOENT;
	while (nr_objs && !ret) {
		ret = stash_object(held_objs[nr_objs - 1]);
		if (!ret)
			nr_objs--;
	}
	symbol_put(tagkeep_stash_object);
	return ret;
}

static unsigned int stress_rounds;
static struct work_struct stress_work[NR_CPUS];

/* Runs on every CPU at once, each CPU's pages tagged at the same site. */
static void alloctest_stress(struct work_struct *work)
{
	struct page *page;
	unsigned int i;

	for (i = 0; i < stress_rounds; i++) {
		page = alloc_pages(GFP_KERNEL, i % 4);
		if (page)
			__free_pages(page, i % 4);
		if (!(i % 64))
			cond_resched();
	}
}

static void alloctest_stress_all(unsigned int rounds)
{
	unsigned int cpu;

	stress_rounds = rounds;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		INIT_WORK(&stress_work[cpu], alloctest_stress);
		queue_work_on(cpu, system_wq, &stress_work[cpu]);
	}
	for_each_online_cpu(cpu)
		flush_work(&stress_work[cpu]);
	cpus_read_unlock();
}

static void alloctest_free_all(void)
{
	while (nr_pages) {
		nr_pages--;
		__free_pages(held_pages[nr_pages].page,
			     held_pages[nr_pages].order);
	}
	while (nr_objs)
		kfree(held_objs[--nr_objs]);
	while (nr_pcpu)
		free_percpu(held_pcpu[--nr_pcpu]);
	while (nr_vm)
		vfree(held_vm[--nr_vm]);
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[64], cmd[16];
	unsigned int a, b;
	int n, ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';

	n = sscanf(buf, "%15s %u %u", cmd, &a, &b);
	mutex_lock(&alloctest_lock);
	if (n == 3 && !strcmp(cmd, "pages")) {
		ret = alloctest_pages(a, b);
	} else if (n == 3 && !strcmp(cmd, "split")) {
		ret = alloctest_split(a, b);
	} else if (n == 2 && !strcmp(cmd, "bulk")) {
		ret = alloctest_bulk(a);
	} else if (n == 3 && !strcmp(cmd, "shared")) {
		ret = alloctest_shared(a, b);
	} else if (n == 3 && !strcmp(cmd, "kmalloc")) {
		ret = alloctest_kmalloc(a, b);
	} else if (n == 3 && !strcmp(cmd, "percpu")) {
		ret = alloctest_percpu(a, b);
	} else if (n == 3 && !strcmp(cmd, "vmalloc")) {
		ret = alloctest_vmalloc(a, b);
	} else if (n == 1 && !strcmp(cmd, "stash")) {
		ret = alloctest_stash();
	} else if (n == 2 && !strcmp(cmd, "stress")) {
		alloctest_stress_all(a);
		ret = 0;
	} else if (n == 1 && !strcmp(cmd, "free")) {
		alloctest_free_all();
		ret = 0;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&alloctest_lock);
	return ret ? ret : len;
}

static ssize_t ctl_read(struct file *file, char __user *ubuf, size_t len,
			loff_t *ppos)
{
	char buf[64];
	int n;

	mutex_lock(&alloctest_lock);
	n = scnprintf(buf, sizeof(buf), "pages %u objects %u\n", nr_pages,
		      nr_objs);
	mutex_unlock(&alloctest_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.read = ctl_read,
	.write = ctl_write,
};

static int __init alloctest_init(void)
{
	alloctest_dir = debugfs_create_dir("alloctest", NULL);
	debugfs_create_file("ctl", 0600, alloctest_dir, NULL, &ctl_fops);
	return 0;
}

static void __exit alloctest_exit(void)
{
	debugfs_remove_recursive(alloctest_dir);
	alloctest_free_all();
}

module_init(alloctest_init);
module_exit(alloctest_exit);
MODULE_DESCRIPTION("Allocation profiling test allocations at known call sites");
MODULE_LICENSE("GPL");
