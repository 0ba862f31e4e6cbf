/* Does a series apply to a kernel tree? Checked before anything is built, on a scratch
 * copy of only the files the series touches, with the very patch(1) command the build
 * runs (kernel/source.h), so a series that fails here would fail the build too, and one
 * that passes here applies there. */
#ifndef HB_KERNEL_SERIES_CHECK_H
#define HB_KERNEL_SERIES_CHECK_H

#include <stdbool.h>

#include "configs/series.h"

/* 0 when every patch of s applies, in order, to tree; -1 with *why, one line: "<file>: patch
 * 2/3 'subject' does not apply to <tree>: hunk #1 FAILED at 1954 in net/unix/af_unix.c".
 * scratch is an empty folder the caller owns (and removes). */
int series_check_applies(const struct series *s, const char *tree, const char *scratch, char **why);
/* The files a patch names (its "--- a/" and "+++ b/" paths without the first component),
 * NULL-terminated (hb_free_strv); NULL with *why for a path that could leave the tree. */
char **series_patch_files(const char *text, char **why);

/* For --patch (adhoc/adhoc.h's adhoc_apply_check): s applies to the source of each of
 * lines (--source values, else the line's own; extracted into the cache if need be, or,
 * on a dry run, checked only when it is already). -1 with *why "--patch NAME: ...". */
int kernel_series_applies(const struct series *s, const char *name, char *const *lines,
			  char *const *sources, bool dry_run, char **why);

#endif
