/* Inside harness/kernel/: one build resolved to paths, key and recipe, shared by the real
 * build, the cache lookup, --dry-run and --list. */
#ifndef HB_KERNEL_PLAN_H
#define HB_KERNEL_PLAN_H

#include <stdbool.h>
#include <stdio.h>

#include "common/hash.h"
#include "kernel/kernel.h"
#include "kernel/source.h"
#include "configs/kconfigs.h"

struct kernel_plan {
	struct build_def def;
	struct ksource src;
	char *cache;
	char *compiler;          /* gcc --version, first line */
	char key[HB_SHA256_HEX];
	char *slot;              /* <build>-<key prefix>: entry, work and lock name */
	char *entry;             /* <cache>/kernels/<slot> */
	char *work;              /* <cache>/work/<slot>: source copy, obj, log while building */
	char *staging;           /* <cache>/kernels/.tmp-<slot>: the entry before its rename */
	int jobs;
	bool ccache;
};

/* Loads the build, identifies the source, computes the key. -1 after printing why. */
int kernel_plan_init(const char *build, const struct kernel_opts *opts, struct kernel_plan *p);
void kernel_plan_free(struct kernel_plan *p);
/* A build with patches= whose folder is missing or has no *.patch: -1 naming the folder. */
int kernel_plan_check_patches(const struct kernel_plan *p);
/* --dry-run: the plan, with the exact commands when not cached. */
void kernel_print_plan(const struct kernel_plan *p, bool cached, FILE *f);
/* Builds into staging and renames it to the entry; call with the slot's lock held.
 * -1 after printing the failing step, the log's path and its last error lines; no
 * staging or work folder is left behind. */
int kernel_make(const struct kernel_plan *p);

#endif
