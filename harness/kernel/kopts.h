/* Kconfig option sets: fragments and .config files as (CONFIG_NAME, value) pairs, and the
 * check that a built .config holds what the fragments asked for.
 *
 * A "# CONFIG_X is not set" line is stored with the value "n": Kconfig never writes a
 * literal n, so the two cannot be confused. */
#ifndef HB_KERNEL_KOPTS_H
#define HB_KERNEL_KOPTS_H

#include <stddef.h>

struct kopt {
	char *name;   /* CONFIG_X */
	char *value;  /* y, m, n (not set), 64, "string" with its quotes */
};

struct kopt_list {
	struct kopt *v;
	size_t n, cap;
};

/* Adds the options of a fragment or .config text; a later line for the same option
 * replaces the earlier value (merge_config.sh's rule: later fragments win). Returns 0, or
 * -1 after printing "<origin>:<line>: ..." for a line that is neither an option, an
 * "is not set" line, a comment nor blank. */
int kopts_parse(struct kopt_list *into, const char *text, const char *origin);
/* kopts_parse of a file; -1 after printing why. */
int kopts_load(struct kopt_list *into, const char *path);
/* The value of name, "n" when the .config says not set, NULL when absent. */
const char *kopts_get(const struct kopt_list *l, const char *name);
void kopts_free(struct kopt_list *l);

/* Every option of want whose value does not hold in have, one line each, e.g.
 * "CONFIG_KASAN_VMALLOC: asked y, got absent (a dependency is off)". An asked "n" holds
 * when have says not set or lacks the option. NULL-terminated (hb_free_strv); an empty
 * list when all hold. */
char **kopts_verify(const struct kopt_list *want, const struct kopt_list *have);

#endif
