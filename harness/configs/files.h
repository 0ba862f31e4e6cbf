/* Inside harness/configs/: where kernel-configs/ is, the name rules and the keyed INI
 * form its files share (builds, variants, lines, modules). */
#ifndef HB_CONFIGS_FILES_H
#define HB_CONFIGS_FILES_H

#include <stdbool.h>

#include "configs/kconfigs.h" /* config_valid_name */

/* One key of a section and where its value goes. */
struct ini_key {
	const char *name;
	char **value;
};

struct ini_target {
	const char *section;
	struct ini_key *keys;
	char *why; /* first error's reason; the line number comes from inih */
};

/* 0 parsed; -1 no such file; -2 parse error printed (file:line: reason). */
int config_load_ini(const char *path, struct ini_target *t);
/* <kernel-configs>/<folder>/<name><suffix> (newly allocated). */
char *config_def_path(const char *folder, const char *name, const char *suffix);
/* first (copied, may be NULL), then each fragments= word as an absolute path under
 * fragments/. -2 after naming a missing one (file is the file that names it). */
int config_resolve_fragments(const char *file, const char *words, char *const *first, char ***out);
/* The folder path was found in (*from, newly allocated), and whether it may shadow a
 * later folder's file (configs/search_path.h): 0, or -2 after the error. */
int config_check_origin(const char *path, const char *sub, const char *name, const char *suffix,
			const char *overrides, char **from);
/* The kernel-configs/ folder: <hb_source_dir()>/kernel-configs (newly allocated). */
char *config_dir(void);

#endif
