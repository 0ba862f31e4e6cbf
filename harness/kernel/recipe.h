/* The build recipe: the exact commands that turn a source copy and fragments into a
 * kernel, shared by the real build and --dry-run so the plan is what runs. */
#ifndef HB_KERNEL_RECIPE_H
#define HB_KERNEL_RECIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/progress.h"
#include "kernel/sandbox.h"

enum recipe_step {
	STEP_TINYCONFIG,      /* make ARCH=x86_64 O=obj tinyconfig */
	STEP_MERGE,           /* scripts/kconfig/merge_config.sh -m -O obj obj/.config <fragments> */
	STEP_OLDDEFCONFIG,    /* make ... olddefconfig */
	STEP_COMPILE,         /* make ... -jN bzImage modules */
	STEP_MODULES_INSTALL, /* make ... modules_install INSTALL_MOD_PATH=... INSTALL_MOD_STRIP=1 */
	STEP_COUNT
};

/* The object folder, relative to the source copy. It must be a direct child of the copy:
 * kbuild then uses srctree=.. and every compiler line is the same in every copy, which
 * is what lets ccache hit across base and patched builds. */
#define RECIPE_OBJ "obj"

struct recipe {
	const char *tree;         /* the source copy; every step runs with this as cwd */
	char *const *fragments;   /* absolute paths, base.config first */
	int jobs;
	bool ccache;              /* CC="ccache gcc" */
	const char *modules_dir;  /* INSTALL_MOD_PATH */
	const char *ccache_log;   /* CCACHE_STATSLOG, NULL for none */
	/* NULL, or the build's sandbox (kernel/sandbox.h): every step then runs in it, as
	 * the unprivileged uid, and the paths above are the sandbox's (sandbox_path). */
	const struct build_sandbox *sandbox;
};

/* The argv of a step (hb_free_strv). */
char **recipe_argv(const struct recipe *r, enum recipe_step step);
/* The make line of an out-of-tree module in dir (a copy kbuild may write into), run in
 * the tree after the kernel's compile: the head of every step (ARCH, O=, CC) so it builds
 * against this tree's .config and release, which makes its vermagic the kernel's.
 * install: modules_install into modules_dir (lib/modules/<release>/extra/). */
char **recipe_module_argv(const struct recipe *r, const char *dir, bool install);
/* Runs argv as recipe_run runs a step (no progress). */
int recipe_run_argv(const struct recipe *r, char **argv, const char *log);
/* Environment additions for every step (hb_free_strv): LC_ALL=C so error lines can be
 * found in the log, ccache's base directory, reproducible build user and host. */
char **recipe_env(const struct recipe *r);
/* A shell-readable rendering of argv, for the plan and the log ('a b' quoted). */
char *recipe_render(char *const *argv);
const char *recipe_step_name(enum recipe_step step);

/* Counts make's "  CC " lines (compiles, including "  CC [M] ") in text. */
size_t recipe_count_compiles(const char *text, size_t len);
/* Runs a step with its output appended to log. During STEP_COMPILE the log is polled
 * and progress shows compiles done against expected. Returns the exit code (or -1) and
 * the number of compiles seen in *compiles (may be NULL). */
int recipe_run(const struct recipe *r, enum recipe_step step, const char *log,
	       struct progress *p, size_t *compiles);
/* ccache's per-build statistics from CCACHE_STATSLOG: hits, misses. -1 when no log. */
int recipe_ccache_stats(const char *statslog, long *hits, long *misses);
/* The lines of a build log that name errors ("error:" or "Error "), last max_lines of
 * them, one string (caller frees); the log's last lines when none match. */
char *recipe_error_lines(const char *log, int max_lines);

#endif
