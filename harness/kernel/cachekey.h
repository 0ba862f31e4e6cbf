/* The cache key of a kernel build: everything that changes the kernel, nothing else. */
#ifndef HB_KERNEL_CACHEKEY_H
#define HB_KERNEL_CACHEKEY_H

#include "common/hash.h"
#include "configs/kconfigs.h"

/* Bump when the recipe (make steps, variables, what an entry holds) changes, so old
 * entries stop matching. */
#define KBUILD_RECIPE_VERSION 1
/* Entry folders are <build>-<first KEY_PREFIX hex digits of the key>. */
#define KBUILD_KEY_PREFIX 16

/* The entry, work and lock name: <build>-<key prefix> on the default line (as before
 * lines existed), <build>-<line>-<key prefix> on any other. */
char *kernel_slot_name(const struct build_def *b, const char *key);
/* First line of `gcc --version`; NULL after printing why. */
char *kernel_compiler_id(void);
/* sha256 over: recipe version, source identity, compiler id, the line unless it is the
 * default one, each fragment's and each patch's name and content, and each out-of-tree
 * module's source files by name and content (nothing when the build has none, so such
 * builds keep their keys). ccache, jobs and paths do not matter. -1 after naming a file
 * that cannot be read. */
int kernel_cache_key(const struct build_def *b, const char *source_identity,
		     const char *compiler_id, char key[HB_SHA256_HEX]);

#endif
