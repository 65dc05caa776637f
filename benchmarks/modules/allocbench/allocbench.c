// SPDX-License-Identifier: GPL-2.0
/*
 * allocbench: timed allocation loops for the alloctag-fork benchmarks.
 *
 * Write one command to /sys/kernel/debug/allocbench/run and read the
 * result back from the same file:
 *
 *   page ORDER N [batch]    alloc_pages(ORDER) and __free_pages()
 *   bulk NR N               alloc_pages_bulk_array() of NR pages, then
 *                           __free_page() on each; N counts pages
 *   kmalloc SIZE N [batch]  kmalloc(SIZE) and kfree()
 *   cache SIZE N [batch]    kmem_cache_alloc() and kmem_cache_free() on a
 *                           private, unmerged cache of SIZE-byte objects
 *
 * Without "batch" every operation allocates one object and frees it at
 * once (the hot pair); with it, up to the "batch" module parameter objects
 * are allocated and then all freed.  A short untimed warm-up precedes the
 * timed loop.  The time comes from ktime_get_ns(); under QEMU's
 * -icount shift=0 one nanosecond is one guest instruction.
 *
 * The result is one line:
 *   MODE ARG N hot|batch TOTAL_NS NS_PER_OP_TIMES_100
 * where an operation is one allocation plus its free.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static unsigned int batch = 256;
module_param(batch, uint, 0644);
MODULE_PARM_DESC(batch, "objects allocated before freeing in batch mode");

/* Operations between two cond_resched() calls in the timed loops. */
#define AB_CHUNK 4096

enum ab_mode { AB_PAGE, AB_BULK, AB_KMALLOC, AB_CACHE };

static const char * const ab_mode_names[] = {
	[AB_PAGE] = "page",
	[AB_BULK] = "bulk",
	[AB_KMALLOC] = "kmalloc",
	[AB_CACHE] = "cache",
};

struct ab_run {
	enum ab_mode mode;
	unsigned int arg;
	unsigned long n;
	bool batched;
	struct kmem_cache *cache;
	void **slots;
};

static DEFINE_MUTEX(ab_lock);
static char ab_result[128];
static struct dentry *ab_dir;

static void *ab_alloc(struct ab_run *r)
{
	switch (r->mode) {
	case AB_PAGE:
		return alloc_pages(GFP_KERNEL, r->arg);
	case AB_KMALLOC:
		return kmalloc(r->arg, GFP_KERNEL);
	case AB_CACHE:
		return kmem_cache_alloc(r->cache, GFP_KERNEL);
	default:
		return NULL;
	}
}

static void ab_free(struct ab_run *r, void *p)
{
	switch (r->mode) {
	case AB_PAGE:
		__free_pages(p, r->arg);
		break;
	case AB_KMALLOC:
		kfree(p);
		break;
	case AB_CACHE:
		kmem_cache_free(r->cache, p);
		break;
	default:
		break;
	}
}

/* N hot pairs: allocate one object, free it at once. */
static int ab_loop_hot(struct ab_run *r, unsigned long n)
{
	unsigned long done = 0, i, chunk;
	void *p;

	while (done < n) {
		chunk = min_t(unsigned long, n - done, AB_CHUNK);
		for (i = 0; i < chunk; i++) {
			p = ab_alloc(r);
			if (!p)
				return -ENOMEM;
			ab_free(r, p);
		}
		done += chunk;
		cond_resched();
	}
	return 0;
}

/* N operations in rounds: allocate up to "batch" objects, free them all. */
static int ab_loop_batch(struct ab_run *r, unsigned long n)
{
	unsigned long done = 0, i, round;
	int ret = 0;

	while (done < n) {
		round = min_t(unsigned long, n - done, batch);
		for (i = 0; i < round; i++) {
			r->slots[i] = ab_alloc(r);
			if (!r->slots[i]) {
				ret = -ENOMEM;
				break;
			}
		}
		round = i;
		for (i = 0; i < round; i++)
			ab_free(r, r->slots[i]);
		if (ret)
			return ret;
		done += round;
		cond_resched();
	}
	return 0;
}

/* N pages through alloc_pages_bulk_array(), r->arg pages a call. */
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

static int ab_loop(struct ab_run *r, unsigned long n)
{
	if (r->mode == AB_BULK)
		return ab_loop_bulk(r, n);
	if (r->batched)
		return ab_loop_batch(r, n);
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
	r->batched = false;
	if (nw == 4) {
		if (strcmp(word[3], "batch") || r->mode == AB_BULK)
			return -EINVAL;
		r->batched = true;
	}
	if (!r->n)
		return -EINVAL;
	switch (r->mode) {
	case AB_PAGE:
		return r->arg <= MAX_PAGE_ORDER ? 0 : -EINVAL;
	case AB_BULK:
		return r->arg && r->arg <= 4096 ? 0 : -EINVAL;
	default:
		return r->arg && r->arg <= KMALLOC_MAX_CACHE_SIZE ? 0 : -EINVAL;
	}
}

static int ab_run_cmd(struct ab_run *r)
{
	unsigned int slots = r->mode == AB_BULK ? r->arg : batch;
	char name[32];
	u64 t0, t1;
	int ret;

	if (r->batched || r->mode == AB_BULK) {
		if (!slots)
			return -EINVAL;
		r->slots = kvcalloc(slots, sizeof(*r->slots), GFP_KERNEL);
		if (!r->slots)
			return -ENOMEM;
	}
	if (r->mode == AB_CACHE) {
		snprintf(name, sizeof(name), "allocbench-%u", r->arg);
		r->cache = kmem_cache_create(name, r->arg, 0, SLAB_NO_MERGE,
					     NULL);
		if (!r->cache) {
			ret = -ENOMEM;
			goto out;
		}
	}

	/* Warm the per-cpu lists and slabs, untimed. */
	ret = ab_loop(r, max_t(unsigned long, r->n / 16, 1));
	if (ret)
		goto out;

	t0 = ktime_get_ns();
	ret = ab_loop(r, r->n);
	t1 = ktime_get_ns();
	if (ret)
		goto out;

	snprintf(ab_result, sizeof(ab_result), "%s %u %lu %s %llu %llu\n",
		 ab_mode_names[r->mode], r->arg, r->n,
		 r->batched ? "batch" : "hot", t1 - t0,
		 div64_u64((t1 - t0) * 100, r->n));
out:
	kmem_cache_destroy(r->cache);
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
