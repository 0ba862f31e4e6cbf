/* --kernels PATH@A..B: a series of commits measured step by step. A is step 0 (the kernel
 * every later step is compared with in all), and each commit of A..B, oldest first, is a
 * step of its own: each a kernel line (gitref.h), so they all run in the same interleaved
 * rounds, and the report gives each commit's own cost against the one before it.
 *
 * The range must be a line of single commits on top of A: A an ancestor of B, no merge in
 * it (a merge brings a whole branch in one step; its own cost would be the branch's), at
 * most GITRANGE_MAX_STEPS commits (each is a kernel build and a boot per round). */
#ifndef HB_ADHOC_GITRANGE_H
#define HB_ADHOC_GITRANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "adhoc/gitref.h"

/* More commits than this is a bisection, not a series: each step is a kernel build. */
#define GITRANGE_MAX_STEPS 50

struct gitrange {
	char *item;            /* as given */
	struct gitref base;    /* A: its line is named as --kernels PATH@A names it */
	struct gitref *steps;  /* A..B oldest first; lines <B>.<k>-<7 hex> */
	char **subjects;       /* each step's subject line */
	size_t n;
};

/* Does a --kernels item name a range (PATH@A..B)? */
bool gitrange_is_spec(const char *item);
/* 0; or -1 with *why, one line: what gitref_resolve refuses (not a work tree, a dirty
 * tree, an unknown ref), "A..." or an end missing, an empty range, A not an ancestor of
 * B, a merge in the range (named with its subject), too many commits. */
int gitrange_resolve(const char *item, struct gitrange *out, char **why);
void gitrange_free(struct gitrange *r);

#endif
