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
 *   pagesnode NID COUNT COUNT order-0 pages from node NID only
 *                       (alloctest_pages_node)
 *   kmallocnode NID COUNT  COUNT 64-byte objects from node NID
 *                       (alloctest_kmalloc_node)
 *   kmalloccg SIZE COUNT  the same, charged to the writer's memory cgroup
 *                       (alloctest_accounted)
 *   cache COUNT         COUNT objects of the module's own cache, freed with
 *                       kmem_cache_free() (alloctest_cache_alloc)
 *   cachenode NID COUNT COUNT objects of the module's cache from node NID,
 *                       with kmem_cache_alloc_node() (alloctest_cache_node)
 *   lru COUNT           COUNT 192-byte objects, as a dentry's, of an
 *                       accounted, reclaimable cache with
 *                       kmem_cache_alloc_lru() and a memcg-aware list_lru,
 *                       as dentries and inodes are allocated
 *                       (alloctest_lru_alloc)
 *   inobj COUNT         the same from a cache whose objects have room for
 *                       their slab extension in their padding (40 bytes
 *                       aligned to 64, never merged)
 *   cachebulk COUNT     COUNT objects of the module's cache at once, with
 *                       kmem_cache_alloc_bulk(), freed with
 *                       kmem_cache_free_bulk() (alloctest_cache_bulk)
 *   krealloc SIZE NEW   kmalloc() SIZE bytes and krealloc() them to NEW,
 *                       in place or moved (alloctest_krealloc)
 *   kfreercu COUNT      COUNT 64-byte objects of a cache of their own,
 *                       each kfree_rcu()ed at once (alloctest_kfree_rcu)
 *   rcuflush            destroy that cache, which waits for its objects'
 *                       kfree_rcu() to free them, and make it again
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
#include <linux/list_lru.h>
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
static struct kmem_cache *alloctest_cachep, *alloctest_inobj_cachep;
static struct kmem_cache *alloctest_rcu_cachep, *alloctest_lru_cachep;
static struct list_lru alloctest_lru;
struct held_cache_obj {
	struct kmem_cache *cache;
	void *obj;
};

static struct held_cache_obj held_cobjs[ALLOCTEST_MAX];
static unsigned int nr_cobjs;
static void *held_bulk[ALLOCTEST_MAX];
static unsigned int nr_bulk;
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

/* Pages of one node, for the counts by node */
static int alloctest_pages_node(unsigned int nid, unsigned int count)
{
	struct page *page;

	if (nid >= MAX_NUMNODES || !node_online(nid) ||
	    count > ALLOCTEST_MAX - nr_pages)
		return -EINVAL;
	while (count--) {
		page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE, 0);
		if (!page)
			return -ENOMEM;
		held_pages[nr_pages].page = page;
		held_pages[nr_pages].order = 0;
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

/* Slab objects of one node, for the counts by node */
static int alloctest_kmalloc_node(unsigned int nid, unsigned int count)
{
	void *obj;

	if (nid >= MAX_NUMNODES || !node_online(nid) ||
	    count > ALLOCTEST_MAX - nr_objs)
		return -EINVAL;
	while (count--) {
		obj = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, nid);
		if (!obj)
			return -ENOMEM;
		held_objs[nr_objs++] = obj;
	}
	return 0;
}

/* The accounted slab call site: objects with an objcg pointer. */
static int alloctest_accounted(size_t size, unsigned int count)
{
	void *obj;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE ||
	    count > ALLOCTEST_MAX - nr_objs)
		return -EINVAL;
	while (count--) {
		obj = kmalloc(size, GFP_KERNEL_ACCOUNT);
		if (!obj)
			return -ENOMEM;
		held_objs[nr_objs++] = obj;
	}
	return 0;
}

/* The kmem_cache_alloc() call site, of either of the module's caches. */
static int alloctest_cache_alloc(struct kmem_cache *cache, unsigned int count)
{
	void *obj;

	if (count > ALLOCTEST_MAX - nr_cobjs)
		return -EINVAL;
	while (count--) {
		obj = kmem_cache_alloc(cache, GFP_KERNEL);
		if (!obj)
			return -ENOMEM;
		held_cobjs[nr_cobjs].cache = cache;
		held_cobjs[nr_cobjs++].obj = obj;
	}
	return 0;
}

/* Held like the module's cache's objects: freed with kmem_cache_free() */
static int alloctest_cache_hold(struct kmem_cache *cache, void *obj)
{
	if (!obj)
		return -ENOMEM;
	held_cobjs[nr_cobjs].cache = cache;
	held_cobjs[nr_cobjs++].obj = obj;
	return 0;
}

/* The kmem_cache_alloc_node() call site */
static int alloctest_cache_node(unsigned int nid, unsigned int count)
{
	int ret = 0;

	if (nid >= MAX_NUMNODES || !node_online(nid) ||
	    count > ALLOCTEST_MAX - nr_cobjs)
		return -EINVAL;
	while (count-- && !ret)
		ret = alloctest_cache_hold(alloctest_cachep,
					   kmem_cache_alloc_node(alloctest_cachep,
								 GFP_KERNEL, nid));
	return ret;
}

/* The kmem_cache_alloc_lru() call site */
static int alloctest_lru_alloc(unsigned int count)
{
	int ret = 0;

	if (count > ALLOCTEST_MAX - nr_cobjs)
		return -EINVAL;
	while (count-- && !ret)
		ret = alloctest_cache_hold(alloctest_lru_cachep,
					   kmem_cache_alloc_lru(alloctest_lru_cachep,
								&alloctest_lru,
								GFP_KERNEL));
	return ret;
}

/* The bulk call site: one tag for every object of the batch. */
static int alloctest_cache_bulk(unsigned int count)
{
	if (!count || count > ALLOCTEST_MAX - nr_bulk)
		return -EINVAL;
	/* All of them or none */
	if (!kmem_cache_alloc_bulk(alloctest_cachep, GFP_KERNEL, count,
				   &held_bulk[nr_bulk]))
		return -ENOMEM;
	nr_bulk += count;
	return 0;
}

/*
 * kmalloc() then krealloc(): an object that fits stays where it is, with
 * the first call site's tag; one that does not moves to an object counted
 * at the second, and the first is uncounted.
 */
static int alloctest_krealloc(size_t size, size_t new_size)
{
	void *obj, *moved;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE || !new_size ||
	    new_size > KMALLOC_MAX_CACHE_SIZE || nr_objs >= ALLOCTEST_MAX)
		return -EINVAL;
	obj = kmalloc(size, GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	moved = krealloc(obj, new_size, GFP_KERNEL);
	if (!moved) {
		kfree(obj);
		return -ENOMEM;
	}
	held_objs[nr_objs++] = moved;
	return 0;
}

struct alloctest_rcu_obj {
	struct rcu_head rcu;
	char data[64 - sizeof(struct rcu_head)];
};

/*
 * Freed after a grace period, in batches, by kfree_rcu()'s machinery, which
 * may hold them until its batch fills: rcuflush frees what it holds.
 */
static int alloctest_kfree_rcu(unsigned int count)
{
	struct alloctest_rcu_obj *obj;

	if (count > ALLOCTEST_MAX || !alloctest_rcu_cachep)
		return -EINVAL;
	while (count--) {
		obj = kmem_cache_alloc(alloctest_rcu_cachep, GFP_KERNEL);
		if (!obj)
			return -ENOMEM;
		kfree_rcu(obj, rcu);
	}
	return 0;
}

static struct kmem_cache *alloctest_rcu_cache_create(void)
{
	return kmem_cache_create("alloctest_rcu", sizeof(struct alloctest_rcu_obj),
				 NULL, SLAB_NO_MERGE);
}

/* kmem_cache_destroy() waits for the cache's kfree_rcu() objects */
static int alloctest_rcu_flush(void)
{
	kmem_cache_destroy(alloctest_rcu_cachep);
	alloctest_rcu_cachep = alloctest_rcu_cache_create();
	return alloctest_rcu_cachep ? 0 : -ENOMEM;
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
	while (nr_cobjs) {
		nr_cobjs--;
		kmem_cache_free(held_cobjs[nr_cobjs].cache, held_cobjs[nr_cobjs].obj);
	}
	if (nr_bulk)
		kmem_cache_free_bulk(alloctest_cachep, nr_bulk, held_bulk);
	nr_bulk = 0;
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
	} else if (n == 3 && !strcmp(cmd, "pagesnode")) {
		ret = alloctest_pages_node(a, b);
	} else if (n == 3 && !strcmp(cmd, "kmallocnode")) {
		ret = alloctest_kmalloc_node(a, b);
	} else if (n == 3 && !strcmp(cmd, "kmalloccg")) {
		ret = alloctest_accounted(a, b);
	} else if (n == 2 && !strcmp(cmd, "cache")) {
		ret = alloctest_cache_alloc(alloctest_cachep, a);
	} else if (n == 3 && !strcmp(cmd, "cachenode")) {
		ret = alloctest_cache_node(a, b);
	} else if (n == 2 && !strcmp(cmd, "lru")) {
		ret = alloctest_lru_alloc(a);
	} else if (n == 2 && !strcmp(cmd, "inobj")) {
		ret = alloctest_cache_alloc(alloctest_inobj_cachep, a);
	} else if (n == 2 && !strcmp(cmd, "cachebulk")) {
		ret = alloctest_cache_bulk(a);
	} else if (n == 3 && !strcmp(cmd, "krealloc")) {
		ret = alloctest_krealloc(a, b);
	} else if (n == 2 && !strcmp(cmd, "kfreercu")) {
		ret = alloctest_kfree_rcu(a);
	} else if (n == 1 && !strcmp(cmd, "rcuflush")) {
		ret = alloctest_rcu_flush();
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
		      nr_objs + nr_cobjs + nr_bulk);
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
	struct kmem_cache_args inobj_args = { .align = 64 };

	alloctest_cachep = kmem_cache_create("alloctest", 96, NULL, 0);
	/* Unmergeable, with 24 bytes of padding an object */
	alloctest_inobj_cachep = kmem_cache_create("alloctest_inobj", 40,
						   &inobj_args, SLAB_NO_MERGE);
	alloctest_rcu_cachep = alloctest_rcu_cache_create();
	alloctest_lru_cachep = kmem_cache_create("alloctest_lru", 192, NULL,
						 SLAB_ACCOUNT | SLAB_RECLAIM_ACCOUNT |
						 SLAB_NO_MERGE);
	if (!alloctest_cachep || !alloctest_inobj_cachep ||
	    !alloctest_rcu_cachep || !alloctest_lru_cachep ||
	    list_lru_init_memcg(&alloctest_lru, NULL)) {
		kmem_cache_destroy(alloctest_cachep);
		kmem_cache_destroy(alloctest_inobj_cachep);
		kmem_cache_destroy(alloctest_rcu_cachep);
		kmem_cache_destroy(alloctest_lru_cachep);
		return -ENOMEM;
	}
	alloctest_dir = debugfs_create_dir("alloctest", NULL);
	debugfs_create_file("ctl", 0600, alloctest_dir, NULL, &ctl_fops);
	return 0;
}

static void __exit alloctest_exit(void)
{
	debugfs_remove_recursive(alloctest_dir);
	alloctest_free_all();
	kmem_cache_destroy(alloctest_cachep);
	kmem_cache_destroy(alloctest_inobj_cachep);
	kmem_cache_destroy(alloctest_rcu_cachep);
	kmem_cache_destroy(alloctest_lru_cachep);
	list_lru_destroy(&alloctest_lru);
}

module_init(alloctest_init);
module_exit(alloctest_exit);
MODULE_DESCRIPTION("Allocation profiling test allocations at known call sites");
MODULE_LICENSE("GPL");
