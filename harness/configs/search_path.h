/* The kernel-configs folders a definition is looked up in: a user's own first (--configs
 * DIR, HARDBENCH_CONFIGS), the project's kernel-configs/ last. Each folder has the same
 * layout (builds/, variants/, fragments/, patches/, modules/, lines/). A user's build,
 * variant or line with a name the project (or a later folder) has too is refused unless
 * its file says `overrides = yes`, so a typo'd copy never silently replaces the real one. */
#ifndef HB_CONFIGS_SEARCH_PATH_H
#define HB_CONFIGS_SEARCH_PATH_H

#include <stdbool.h>

#include "common/options.h"

/* The colon-separated list of user folders, searched in order before the project's. */
#define CONFIGS_PATH_ENV "HARDBENCH_CONFIGS"

/* The folders in search order, absolute where they exist, the project's last
 * (hb_free_strv). */
char **config_search_path(void);
/* The first <folder>/<sub>/<name><suffix> on the path that exists (file or folder), newly
 * allocated; *from (may be NULL) gets its folder. NULL when none has it. */
char *config_find(const char *sub, const char *name, const char *suffix, char **from);
/* Every <name> with <sub>/<name><suffix> in any folder, sorted, each once (hb_free_strv). */
char **config_list_all(const char *sub, const char *suffix);
/* path was found in folder from: 0 when no later folder has <sub>/<name><suffix> too or
 * overrides is "yes"; else -2 after printing "path: shadows <other> (...)". overrides
 * other than yes/no: -2 too. */
int config_check_shadow(const char *path, const char *from, const char *sub, const char *name,
			const char *suffix, const char *overrides);
/* Where a definition came from, for `harness list`: "project", or the user's folder. */
char *config_origin_label(const char *from);
/* Puts dirs (absolute) in front of HARDBENCH_CONFIGS. The environment carries the path to
 * every reader and to the processes a run starts, as HARDBENCH_CONFIGS given by hand does.
 * 0, or -1 with *why for one that is not a folder. */
int config_search_prepend(char *const *dirs, char **why);

/* --configs DIR (repeatable) for every command that reads kernel-configs/: an option entry
 * storing a char ** at offset; config_search_prepend applies it. */
int config_check_dir_option(void *base, const char *value, char **why);
#define CONFIGS_OPTION(offset)                                                                \
	{ "configs", 0, HB_OPT_STR_REPEAT, "DIR", "a kernel-configs folder of your own,\n"          \
	  "searched before the project's (repeatable; also\n"                                     \
	  "$" CONFIGS_PATH_ENV ", colon-separated)",                                               \
	  .off = (offset), .set = config_check_dir_option, .group = HB_OG_WHAT,                  \
	  .complete = HB_CMP_DIR }

#endif
