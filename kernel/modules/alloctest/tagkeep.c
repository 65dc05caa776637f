// SPDX-License-Identifier: GPL-2.0
/*
 * tagkeep: holds pages that another module allocated, so that a test can
 * unload that module while its pages are alive and free them afterwards
 * from here: the retired-tag path of compact tag references.
 *
 * tagkeep_stash() takes a page and tagkeep_stash_object() a kmalloc()ed
 * object; alloctest's "stash" command finds them with symbol_get(), so
 * alloctest loads without tagkeep.
 * Control file /sys/kernel/debug/tagkeep/ctl: reading shows how many pages
 * and objects are held, writing "free" frees them.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tagkeep.h"

#define TAGKEEP_MAX	4096

static struct {
	struct page *page;
	unsigned int order;
} kept[TAGKEEP_MAX];
static unsigned int nr_kept;
static void *kept_objs[TAGKEEP_MAX];
static unsigned int nr_kept_objs;
static DEFINE_MUTEX(tagkeep_lock);
static struct dentry *tagkeep_dir;

int tagkeep_stash(struct page *page, unsigned int order)
{
	int ret = -ENOSPC;

	mutex_lock(&tagkeep_lock);
	if (nr_kept < TAGKEEP_MAX) {
		kept[nr_kept].page = page;
		kept[nr_kept].order = order;
		nr_kept++;
		ret = 0;
	}
	mutex_unlock(&tagkeep_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(tagkeep_stash);

int tagkeep_stash_object(void *obj)
{
	int ret = -ENOSPC;

	mutex_lock(&tagkeep_lock);
	if (nr_kept_objs < TAGKEEP_MAX) {
		kept_objs[nr_kept_objs++] = obj;
		ret = 0;
	}
	mutex_unlock(&tagkeep_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(tagkeep_stash_object);

static void tagkeep_free_all(void)
{
	mutex_lock(&tagkeep_lock);
	while (nr_kept) {
		nr_kept--;
		__free_pages(kept[nr_kept].page, kept[nr_kept].order);
	}
	while (nr_kept_objs)
		kfree(kept_objs[--nr_kept_objs]);
	mutex_unlock(&tagkeep_lock);
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[16];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strcmp(strim(buf), "free"))
		return -EINVAL;
	tagkeep_free_all();
	return len;
}

static ssize_t ctl_read(struct file *file, char __user *ubuf, size_t len,
			loff_t *ppos)
{
	char buf[48];
	int n;

	mutex_lock(&tagkeep_lock);
	n = scnprintf(buf, sizeof(buf), "pages %u objects %u\n", nr_kept,
		      nr_kept_objs);
	mutex_unlock(&tagkeep_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.read = ctl_read,
	.write = ctl_write,
};

static int __init tagkeep_init(void)
{
	tagkeep_dir = debugfs_create_dir("tagkeep", NULL);
	debugfs_create_file("ctl", 0600, tagkeep_dir, NULL, &ctl_fops);
	return 0;
}

static void __exit tagkeep_exit(void)
{
	debugfs_remove_recursive(tagkeep_dir);
	tagkeep_free_all();
}

module_init(tagkeep_init);
module_exit(tagkeep_exit);
MODULE_DESCRIPTION("Holds pages and objects of other modules for allocation profiling tests");
MODULE_LICENSE("GPL");
