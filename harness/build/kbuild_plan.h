/* Inside harness/build/: one build resolved to paths, key and recipe, shared by the real
 * build, the cache lookup, --dry-run and --list. */
#ifndef HB_BUILD_KBUILD_PLAN_H
#define HB_BUILD_KBUILD_PLAN_H

#include <stdbool.h>
#include <stdio.h>

#include "build/hash.h"
#include "build/kbuild.h"
#include "build/source.h"
#include "config/kconfigs.h"

struct kbuild_plan {
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
int kbuild_plan_init(const char *build, const struct kbuild_opts *opts, struct kbuild_plan *p);
void kbuild_plan_free(struct kbuild_plan *p);
/* A build with patches= whose folder is missing or has no *.patch: -1 naming the folder. */
int kbuild_plan_check_patches(const struct kbuild_plan *p);
/* --dry-run: the plan, with the exact commands when not cached. */
void kbuild_print_plan(const struct kbuild_plan *p, bool cached, FILE *f);
/* Builds into staging and renames it to the entry; call with the slot's lock held.
 * -1 after printing the failing step, the log's path and its last error lines; no
 * staging or work folder is left behind. */
int kbuild_run(const struct kbuild_plan *p);

#endif
