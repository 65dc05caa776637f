// SPDX-License-Identifier: GPL-2.0
/*
 * allocbench: timed allocation loops for the alloctag-fork benchmarks.
 *
 * Write one command to /sys/kernel/debug/allocbench/run and read the
 * result back from the same file:
 *
 *   page ORDER N [KIND]     alloc_pages(ORDER) and __free_pages()
 *   kpage 0 N [KIND]        an order-0 page allocated at a kernel call site
 *                           (alloc_page() in net/core/sock.c, through
 *                           skb_page_frag_refill(), which needs
 *                           net.core.high_order_alloc_disable=1 to ask for
 *                           order 0) and __free_page()
 *   bulk NR N               alloc_pages_bulk() of NR pages, then
 *                           __free_page() on each; N counts pages
 *   vmalloc NR N            vmalloc() of NR pages (alloc_pages_bulk()
 *                           inside), then vfree() (free_pages_bulk()
 *                           inside); N counts pages
 *   kmalloc SIZE N [KIND]   kmalloc(SIZE) and kfree()
 *   kmalloc_acct SIZE N [KIND]
 *                           kmalloc(SIZE, GFP_KERNEL_ACCOUNT) and kfree(),
 *                           as a pipe's buffers or a file table are charged
 *   cache SIZE N [KIND]     kmem_cache_alloc() and kmem_cache_free() on a
 *                           private, unmerged cache of SIZE-byte objects
 *   acache SIZE N [KIND]    the same on a SLAB_ACCOUNT cache, as filp and
 *                           vm_area_struct are
 *   lru SIZE N [KIND]       kmem_cache_alloc_lru() with a memcg-aware
 *                           list_lru, on a SLAB_ACCOUNT|SLAB_RECLAIM_ACCOUNT
 *                           cache, as dentries and inodes are allocated,
 *                           and kmem_cache_free()
 *   node SIZE N [KIND]      kmem_cache_alloc_node() on this CPU's node, as
 *                           task_struct and skbuff heads are, and
 *                           kmem_cache_free()
 * The caches of cache, acache, lru and node are the module's own, never
 * merged with another.
 *
 * KIND is how allocations and frees alternate:
 *   hot (default)  every operation allocates one object and frees it at
 *                  once
 *   batch          up to the "batch" module parameter objects are
 *                  allocated, then all freed
 *   ws             the working set: all N are allocated, then all freed
 *                  (N pages far beyond the caches)
 * A short untimed warm-up precedes the timed loop.  The time comes from
 * ktime_get_ns(); under QEMU's -icount shift=0 one nanosecond is one guest
 * instruction.
 *
 * With the "cachesim" parameter set, the measured loop runs between the
 * markers of the cachesim QEMU plugin (benchmarks/qemu-plugins/), one OP
 * marker after each free, in a copy of the loop kept apart so that the
 * timed loops carry no marker.
 *
 * The result is one line:
 *   MODE ARG N KIND TOTAL_NS NS_PER_OP_TIMES_100
 * where an operation is one allocation plus its free.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/list_lru.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <net/sock.h>

#include "marker.h"

static unsigned int batch = 256;
module_param(batch, uint, 0644);
MODULE_PARM_DESC(batch, "objects allocated before freeing in batch mode");

static bool cachesim;
module_param(cachesim, bool, 0644);
MODULE_PARM_DESC(cachesim, "run the measured loop between cachesim markers");

/* Operations between two cond_resched() calls in the timed loops. */
#define AB_CHUNK 4096

enum ab_mode {
	AB_PAGE, AB_KPAGE, AB_BULK, AB_KMALLOC, AB_CACHE, AB_VMALLOC,
	AB_KMALLOC_ACCT, AB_ACACHE, AB_LRU, AB_NODE
};

enum ab_kind { AB_HOT, AB_BATCH, AB_WS };

static const char * const ab_mode_names[] = {
	[AB_PAGE] = "page",
	[AB_KPAGE] = "kpage",
	[AB_BULK] = "bulk",
	[AB_KMALLOC] = "kmalloc",
	[AB_CACHE] = "cache",
	[AB_VMALLOC] = "vmalloc",
	[AB_KMALLOC_ACCT] = "kmalloc_acct",
	[AB_ACACHE] = "acache",
	[AB_LRU] = "lru",
	[AB_NODE] = "node",
};

static const char * const ab_kind_names[] = {
	[AB_HOT] = "hot",
	[AB_BATCH] = "batch",
	[AB_WS] = "ws",
};

struct ab_run {
	enum ab_mode mode;
	unsigned int arg;
	unsigned long n;
	enum ab_kind kind;
	unsigned int round;	/* objects a round in batch and ws */
	struct kmem_cache *cache;
	void **slots;
	int err;		/* why an allocation returned NULL, if known */
};

static DEFINE_MUTEX(ab_lock);
static char ab_result[128];
/* The lru mode's list_lru, memcg-aware as a superblock's; under ab_lock */
static struct list_lru ab_lru;
static struct dentry *ab_dir;

/*
 * The kernel call site: with high-order frag pages disabled,
 * skb_page_frag_refill() on an empty page_frag is one alloc_page() in
 * net/core/sock.c, whose tag is vmlinux's, not this module's.
 */
#ifdef CONFIG_NET
static struct page *ab_kpage(struct ab_run *r)
{
	struct page_frag pf = { };

	if (!skb_page_frag_refill(32, &pf, GFP_KERNEL))
		return NULL;
	if (pf.size != PAGE_SIZE) {
		__free_pages(pf.page, get_order(pf.size));
		pr_warn_once("allocbench: kpage needs net.core.high_order_alloc_disable=1\n");
		r->err = -EOPNOTSUPP;
		return NULL;
	}
	return pf.page;
}
#else
/* No such site without networking: ab_check() refuses the mode */
static struct page *ab_kpage(struct ab_run *r)
{
	r->err = -EOPNOTSUPP;
	return NULL;
}
#endif

/*
 * The flags of a mode's private cache, 0 for a mode without one.
 * SLAB_NO_MERGE keeps it apart from the kernel's caches of its size
 * (dentry's, for 192 bytes), whose objects it would otherwise share.
 */
static slab_flags_t ab_cache_flags(enum ab_mode mode)
{
	switch (mode) {
	case AB_CACHE:
	case AB_NODE:
		return SLAB_NO_MERGE;
	case AB_ACACHE:
		return SLAB_NO_MERGE | SLAB_ACCOUNT;
	case AB_LRU:
		return SLAB_NO_MERGE | SLAB_ACCOUNT | SLAB_RECLAIM_ACCOUNT;
	default:
		return 0;
	}
}

/*
 * The kmalloc cache a kmalloc or kmalloc_acct run allocates from, or NULL
 * for the other modes, whose caches are the run's own and new.  NULL too
 * where kmalloc partitions its caches by call site, which this function
 * cannot name.
 */
static struct kmem_cache *ab_kmalloc_cache(struct ab_run *r)
{
	gfp_t gfp = r->mode == AB_KMALLOC ? GFP_KERNEL : GFP_KERNEL_ACCOUNT;

	if ((r->mode != AB_KMALLOC && r->mode != AB_KMALLOC_ACCT) ||
	    KMALLOC_PARTITION_CACHES_NR)
		return NULL;
	return kmalloc_caches[kmalloc_type(gfp, __kmalloc_token(r->arg))]
			     [__kmalloc_index(r->arg, false)];
}

static void *ab_alloc(struct ab_run *r)
{
	switch (r->mode) {
	case AB_PAGE:
		return alloc_pages(GFP_KERNEL, r->arg);
	case AB_KPAGE:
		return ab_kpage(r);
	case AB_KMALLOC:
		return kmalloc(r->arg, GFP_KERNEL);
	case AB_KMALLOC_ACCT:
		return kmalloc(r->arg, GFP_KERNEL_ACCOUNT);
	case AB_CACHE:
	case AB_ACACHE:
		return kmem_cache_alloc(r->cache, GFP_KERNEL);
	case AB_LRU:
		return kmem_cache_alloc_lru(r->cache, &ab_lru, GFP_KERNEL);
	case AB_NODE:
		return kmem_cache_alloc_node(r->cache, GFP_KERNEL,
					     numa_node_id());
	default:
		return NULL;
	}
}

static void ab_free(struct ab_run *r, void *p)
{
	switch (r->mode) {
	case AB_PAGE:
	case AB_KPAGE:
		__free_pages(p, r->arg);
		break;
	case AB_KMALLOC:
	case AB_KMALLOC_ACCT:
		kfree(p);
		break;
	case AB_CACHE:
	case AB_ACACHE:
	case AB_LRU:
	case AB_NODE:
		kmem_cache_free(r->cache, p);
		break;
	default:
		break;
	}
}

/*
 * N hot pairs: allocate one object, free it at once.  The marked copy
 * (cachesim) is a separate instance, so the timed one has no marker.
 */
static __always_inline int ab_loop_hot_(struct ab_run *r, unsigned long n,
					const bool marked)
{
	unsigned long done = 0, i, chunk;
	void *p;

	while (done < n) {
		chunk = min_t(unsigned long, n - done, AB_CHUNK);
		for (i = 0; i < chunk; i++) {
			p = ab_alloc(r);
			if (!p)
				return r->err ?: -ENOMEM;
			ab_free(r, p);
			if (marked)
				CACHESIM_OP();
		}
		done += chunk;
		cond_resched();
	}
	return 0;
}

/* N operations in rounds: allocate up to r->round objects, free them all. */
static __always_inline int ab_loop_rounds_(struct ab_run *r, unsigned long n,
					   const bool marked)
{
	unsigned long done = 0, i, round;
	int ret = 0;

	while (done < n) {
		round = min_t(unsigned long, n - done, r->round);
		for (i = 0; i < round; i++) {
			r->slots[i] = ab_alloc(r);
			if (!r->slots[i]) {
				ret = r->err ?: -ENOMEM;
				break;
			}
		}
		round = i;
		for (i = 0; i < round; i++) {
			ab_free(r, r->slots[i]);
			if (marked)
				CACHESIM_OP();
		}
		if (ret)
			return ret;
		done += round;
		cond_resched();
	}
	return 0;
}

static noinline int ab_loop_hot(struct ab_run *r, unsigned long n)
{
	return ab_loop_hot_(r, n, false);
}

static noinline int ab_loop_rounds(struct ab_run *r, unsigned long n)
{
	return ab_loop_rounds_(r, n, false);
}

/* The measured loop between cachesim markers, one OP after each free. */
static noinline int ab_loop_marked(struct ab_run *r, unsigned long n)
{
	int ret;

	CACHESIM_START();
	if (r->kind == AB_HOT)
		ret = ab_loop_hot_(r, n, true);
	else
		ret = ab_loop_rounds_(r, n, true);
	CACHESIM_STOP();
	return ret;
}

/* N pages through alloc_pages_bulk(), r->arg pages a call. */
static int ab_loop_bulk(struct ab_run *r, unsigned long n)
{
	struct page **pages = (struct page **)r->slots;
	unsigned long done = 0, i, want, got;

	while (done < n) {
		want = min_t(unsigned long, n - done, r->arg);
		memset(pages, 0, want * sizeof(*pages));
		got = alloc_pages_bulk(GFP_KERNEL, want, pages);
		for (i = 0; i < got; i++)
			__free_page(pages[i]);
		if (!got)
			return -ENOMEM;
		done += got;
		if (!(done % AB_CHUNK))
			cond_resched();
	}
	return 0;
}

/* N pages through vmalloc() and vfree(), r->arg pages an area. */
static int ab_loop_vmalloc(struct ab_run *r, unsigned long n)
{
	unsigned long done = 0;
	void *area;

	while (done < n) {
		area = vmalloc(r->arg * PAGE_SIZE);
		if (!area)
			return -ENOMEM;
		vfree(area);
		done += r->arg;
		if (!(done % AB_CHUNK))
			cond_resched();
	}
	return 0;
}

static int ab_loop(struct ab_run *r, unsigned long n)
{
	if (r->mode == AB_BULK)
		return ab_loop_bulk(r, n);
	if (r->mode == AB_VMALLOC)
		return ab_loop_vmalloc(r, n);
	if (r->kind != AB_HOT)
		return ab_loop_rounds(r, n);
	return ab_loop_hot(r, n);
}

static int ab_parse(char *cmd, struct ab_run *r)
{
	char *word[4];
	int nw = 0, m;
	char *s = strim(cmd), *tok;

	while ((tok = strsep(&s, " \t")) && nw < ARRAY_SIZE(word)) {
		if (*tok)
			word[nw++] = tok;
	}
	if (tok || nw < 3)
		return -EINVAL;
	m = match_string(ab_mode_names, ARRAY_SIZE(ab_mode_names), word[0]);
	if (m < 0)
		return m;
	r->mode = m;
	if (kstrtouint(word[1], 0, &r->arg) || kstrtoul(word[2], 0, &r->n))
		return -EINVAL;
	r->kind = AB_HOT;
	if (nw == 4) {
		m = match_string(ab_kind_names, ARRAY_SIZE(ab_kind_names),
				 word[3]);
		if (m < 0 || r->mode == AB_BULK || r->mode == AB_VMALLOC)
			return -EINVAL;
		r->kind = m;
	}
	if (!r->n)
		return -EINVAL;
	switch (r->mode) {
	case AB_PAGE:
		return r->arg <= MAX_PAGE_ORDER ? 0 : -EINVAL;
	case AB_KPAGE:
		return r->arg == 0 && IS_ENABLED(CONFIG_NET) ? 0 : -EINVAL;
	case AB_BULK:
	case AB_VMALLOC:
		return r->arg && r->arg <= 4096 ? 0 : -EINVAL;
	default:
		return r->arg && r->arg <= KMALLOC_MAX_CACHE_SIZE ? 0 : -EINVAL;
	}
}

static int ab_run_cmd(struct ab_run *r)
{
	unsigned long slots = 0;
	struct kmem_cache *shared;
	bool lru = false;
	char name[32];
	u64 t0, t1;
	int ret;

	if (r->mode == AB_BULK)
		slots = r->arg;
	else if (r->kind == AB_BATCH)
		slots = batch;
	else if (r->kind == AB_WS)
		slots = r->n;
	if ((r->mode == AB_BULK || r->mode == AB_VMALLOC) && cachesim)
		return -EINVAL;		/* no marked copy of these loops */
	if (r->kind != AB_HOT || r->mode == AB_BULK) {
		if (!slots || slots > UINT_MAX)
			return -EINVAL;
		r->round = slots;
		r->slots = kvcalloc(slots, sizeof(*r->slots), GFP_KERNEL);
		if (!r->slots)
			return -ENOMEM;
	}
	if (ab_cache_flags(r->mode)) {
		snprintf(name, sizeof(name), "allocbench-%s-%u",
			 ab_mode_names[r->mode], r->arg);
		r->cache = kmem_cache_create(name, r->arg, 0,
					     ab_cache_flags(r->mode), NULL);
		if (!r->cache) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (r->mode == AB_LRU) {
		ret = list_lru_init_memcg(&ab_lru, NULL);
		if (ret)
			goto out;
		lru = true;
	}

	/*
	 * A shared kmalloc cache starts from empty per-cpu sheaves and an
	 * empty barn, as a private cache does: how many sheaves a batch round
	 * exchanges with the barn depends on how full the CPU's sheaf is when
	 * it starts, which is whatever ran before left, so that an object
	 * allocated or freed anywhere in the kernel would move the result by
	 * one exchange a round.
	 */
	shared = ab_kmalloc_cache(r);
	if (r->kind != AB_HOT && shared)
		kmem_cache_shrink(shared);

	/* Warm the per-cpu lists and slabs, untimed. */
	ret = ab_loop(r, max_t(unsigned long, r->n / 16, 1));
	if (ret)
		goto out;

	t0 = ktime_get_ns();
	ret = cachesim ? ab_loop_marked(r, r->n) : ab_loop(r, r->n);
	t1 = ktime_get_ns();
	if (ret)
		goto out;

	snprintf(ab_result, sizeof(ab_result), "%s %u %lu %s %llu %llu\n",
		 ab_mode_names[r->mode], r->arg, r->n,
		 ab_kind_names[r->kind], t1 - t0,
		 div64_u64((t1 - t0) * 100, r->n));
out:
	kmem_cache_destroy(r->cache);
	if (lru)
		list_lru_destroy(&ab_lru);
	kvfree(r->slots);
	return ret;
}

static ssize_t ab_write(struct file *file, const char __user *ubuf,
			size_t len, loff_t *ppos)
{
	struct ab_run r = { };
	char cmd[64];
	int ret;

	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	ret = ab_parse(cmd, &r);
	if (ret)
		return ret;

	mutex_lock(&ab_lock);
	ab_result[0] = '\0';
	ret = ab_run_cmd(&r);
	mutex_unlock(&ab_lock);
	return ret ? ret : len;
}

static ssize_t ab_read(struct file *file, char __user *ubuf, size_t len,
		       loff_t *ppos)
{
	char out[sizeof(ab_result)];

	mutex_lock(&ab_lock);
	strscpy(out, ab_result, sizeof(out));
	mutex_unlock(&ab_lock);
	return simple_read_from_buffer(ubuf, len, ppos, out, strlen(out));
}

static const struct file_operations ab_fops = {
	.owner = THIS_MODULE,
	.read = ab_read,
	.write = ab_write,
	.llseek = default_llseek,
};

static int __init allocbench_init(void)
{
	ab_dir = debugfs_create_dir("allocbench", NULL);
	debugfs_create_file("run", 0600, ab_dir, NULL, &ab_fops);
	return 0;
}

static void __exit allocbench_exit(void)
{
	debugfs_remove_recursive(ab_dir);
}

module_init(allocbench_init);
module_exit(allocbench_exit);
MODULE_DESCRIPTION("Timed allocation loops for allocation profiling benchmarks");
MODULE_LICENSE("GPL");
