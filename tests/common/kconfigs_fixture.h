/* A scratch kernel-configs/ tree for unit tests: HARDBENCH_SOURCE_DIR points at it. */
#ifndef HB_TESTS_KERNEL_FIXTURE_H
#define HB_TESTS_KERNEL_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* Writes text to <root>/<rel>, creating folders. */
static inline void fixture_write(const char *root, const char *rel, const char *text)
{
	char *path = hb_path_join(root, rel);
	char *dir = xstrdup(path);

	*strrchr(dir, '/') = '\0';
	if (hb_mkdir_p(dir, 0755) < 0 || hb_write_file_atomic(path, text, strlen(text)) < 0)
		hb_fatal("fixture: cannot write %s", path);
	free(dir);
	free(path);
}

/* A fresh temporary folder (caller removes it with hb_remove_tree). */
static inline char *fixture_tmpdir(void)
{
	char *t = xstrdup("/tmp/hardbench-kernel-test-XXXXXX");
	if (!mkdtemp(t))
		hb_fatal("fixture: mkdtemp failed");
	return t;
}

/* kernel-configs/ with base.config, a fragment "extra", builds "plain" and "patched"
 * (series for line 6.1 only), a variant "v1" of plain, lines 6.1 (source /src/6.1.tar.xz,
 * no fragments) and 6.12 (fragment "l12"); returns the root, already set as
 * HARDBENCH_SOURCE_DIR. */
static inline char *fixture_configs(void)
{
	char *root = fixture_tmpdir();

	fixture_write(root, "kernel-configs/base.config", "CONFIG_A=y\n# CONFIG_B is not set\n");
	fixture_write(root, "kernel-configs/fragments/extra.config", "CONFIG_B=y\n");
	fixture_write(root, "kernel-configs/builds/plain.build",
		      "[build]\ndescription = plain one\nseed = 001\nfragments =\npatches =\n");
	fixture_write(root, "kernel-configs/builds/patched.build",
		      "; a comment\n[build]\ndescription = with patches\nseed = 000\n"
		      "fragments = extra\npatches = patched\n");
	fixture_write(root, "kernel-configs/patches/patched/6.1/0002-second.patch", "two\n");
	fixture_write(root, "kernel-configs/patches/patched/6.1/0001-first.patch", "one\n");
	fixture_write(root, "kernel-configs/patches/patched/6.1/README", "not a patch\n");
	fixture_write(root, "kernel-configs/lines/6.1.line",
		      "[line]\ndescription = old\nsource = /src/6.1.tar.xz\nfragments =\n");
	fixture_write(root, "kernel-configs/lines/6.12.line",
		      "[line]\ndescription = new\nsource = /src/6.12.tar.xz\nfragments = l12\n");
	fixture_write(root, "kernel-configs/fragments/l12.config", "# CONFIG_C is not set\n");
	fixture_write(root, "kernel-configs/variants/v1.variant",
		      "[variant]\nbuild = plain\ncmdline = init_on_alloc=0 init_on_free=0\n"
		      "description = d\nseed = 001\n");
	setenv("HARDBENCH_SOURCE_DIR", root, 1);
	return root;
}

/* Removes a fixture folder and frees its name. */
static inline void fixture_drop(char *root)
{
	hb_remove_tree(root);
	free(root);
}

/* Runs check on a fresh fixture_configs() tree, then removes the tree. */
static inline void fixture_run(int *failures, void (*check)(const char *root, int *failures))
{
	char *root = fixture_configs();

	check(root, failures);
	fixture_drop(root);
}

#endif
