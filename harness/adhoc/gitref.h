/* --kernels PATH@REF: a commit of a git work tree as a kernel line. The commit is exported
 * with `git archive` into the source cache (<cache>/src/git/<commit id>.tar, so one commit
 * is exported once whatever the ref was called) and becomes a line of the generated
 * kernel-configs folder: base.config and --line-fragment FILE, no line fragments of the
 * project's. git runs from an argv, never a shell; a ref is handed to it after
 * --end-of-options, so none is read as an option. */
#ifndef HB_ADHOC_GITREF_H
#define HB_ADHOC_GITREF_H

#include <stdbool.h>

struct gitref {
	char *top;      /* the work tree's top folder */
	char *ref;      /* as given */
	char *commit;   /* full id */
	char *line;     /* the line's name: <ref, sanitised>-<7 hex of the commit> */
};

/* Does a --kernels item name a commit (PATH@REF) rather than a line? */
bool gitref_is_spec(const char *item);
/* 0; or -1 with *why, one line: not a git work tree, a dirty tree (tracked files changed),
 * an unknown ref. */
int gitref_resolve(const char *item, struct gitref *out, char **why);
/* The commit's tarball in cache, made when missing (newly allocated); NULL with *why. */
char *gitref_export(const struct gitref *g, const char *cache, char **why);
void gitref_free(struct gitref *g);
/* git --no-optional-locks -C tree ARGS... (at most 11): its output (the first line, trimmed,
 * when one_line); NULL when git fails. */
char *gitref_git(const char *tree, char *const *args, bool one_line);

#endif
