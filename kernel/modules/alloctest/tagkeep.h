/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TAGKEEP_H
#define TAGKEEP_H

struct page;

/* Take over a page of @order; tagkeep frees it on request. */
int tagkeep_stash(struct page *page, unsigned int order);
/* Take over a kmalloc()ed object; tagkeep kfree()s it on request. */
int tagkeep_stash_object(void *obj);

#endif
