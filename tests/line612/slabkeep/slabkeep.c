// SPDX-License-Identifier: GPL-2.0
/*
 * slabkeep: does a slab cache wipe an object on free (init_on_free)?
 *
 * For the seven caches of the exclusions series and seven ordinary ones:
 * allocate an object, fill it with 0xa5, free it and allocate again with
 * preemption off, so that SLUB's per-CPU freelist hands back the same
 * object; then count the bytes that still read 0xa5.  A wiped object keeps
 * none; an exempt one keeps all but the free pointer SLUB writes into it.
 *
 * The caches are found by name on the list of all caches, walked from a
 * cache this module creates (slab_caches itself is not exported); the list
 * head is the one node that is not in a slab page.  Built out of tree
 * against the kernel's build directory, with mm/ on the include path for
 * struct kmem_cache.  Like test_vmalloc, init returns -EAGAIN, so insmod
 * "fails" and nothing stays loaded.  Output: one "slabkeep:" line per cache.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/preempt.h>
#include <linux/fs.h>		/* names_cachep */
#include "slab.h"		/* mm/slab.h: struct kmem_cache */

#ifndef SLAB_SKIP_INIT_ON_FREE
#define SLAB_SKIP_INIT_ON_FREE	((slab_flags_t __force)0x01000000U)
#endif

static const char *const names[] = {
	/* the exclusions series flags these */
	"buffer_head", "names_cache", "mm_struct", "vm_area_struct",
	"anon_vma_chain", "skbuff_head_cache", "skbuff_fclone_cache",
	/* ordinary caches, no ctor, not TYPESAFE_BY_RCU */
	"kmalloc-64", "kmalloc-256", "kmalloc-1k", "kmalloc-4k",
	"filp", "dentry", "files_cache",
};

static struct kmem_cache *find_cache(struct kmem_cache *mine, const char *name)
{
	struct list_head *pos;

	list_for_each(pos, &mine->list) {
		struct kmem_cache *s;

		if (!folio_test_slab(virt_to_folio(pos)))
			continue;	/* the slab_caches head */
		s = list_entry(pos, struct kmem_cache, list);
		if (s->name && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

static void check(struct kmem_cache *s, const char *name)
{
	unsigned int size, kept = 0, i;
	unsigned char *a, *b;
	int tries;

	if (s->ctor || (s->flags & SLAB_TYPESAFE_BY_RCU)) {
		pr_info("slabkeep: %s skipped (ctor or TYPESAFE_BY_RCU)\n", name);
		return;
	}
	size = s->object_size;
	for (tries = 0; tries < 10; tries++) {
		a = kmem_cache_alloc(s, GFP_KERNEL);
		if (!a)
			break;
		memset(a, 0xa5, size);
		preempt_disable();
		kmem_cache_free(s, a);
		b = kmem_cache_alloc(s, GFP_ATOMIC);
		preempt_enable();
		if (!b)
			break;
		if (b == a) {
			for (i = 0; i < size; i++)
				kept += b[i] == 0xa5;
			kmem_cache_free(s, b);
			pr_info("slabkeep: %s size=%u kept=%u/%u flag=%d merged_as=%s\n",
				name, size, kept, size,
				!!(s->flags & SLAB_SKIP_INIT_ON_FREE), s->name);
			return;
		}
		kmem_cache_free(s, b);
	}
	pr_info("slabkeep: %s no same object back\n", name);
}

static int __init slabkeep_init(void)
{
	struct kmem_cache *mine, *s;
	int i;

	/* odd size and a name no one else has, so it is never merged */
	mine = kmem_cache_create("slabkeep_probe", 72, 0, SLAB_NO_MERGE, NULL);
	if (!mine)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		/* exported, so found even when merged into another cache */
		s = strcmp(names[i], "names_cache") ? find_cache(mine, names[i])
						    : names_cachep;
		if (!s) {
			pr_info("slabkeep: %s not found (merged into another cache)\n",
				names[i]);
			continue;
		}
		check(s, names[i]);
	}
	kmem_cache_destroy(mine);
	pr_info("slabkeep: done\n");
	return -EAGAIN;
}
module_init(slabkeep_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hardbench test: do slab caches wipe objects on free?");
