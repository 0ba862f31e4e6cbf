#include "adhoc/gitrange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/xalloc.h"
#include "configs/series.h"

static const char accepted[] = "accepted: PATH@A..B, the commits on top of A up to B, one after "
			       "another, e.g. ~/linux@v6.1..my-series";

bool gitrange_is_spec(const char *item)
{
	const char *at = strrchr(item, '@');
	return at && strstr(at + 1, "..");
}

/* The step's gitref: the commit id as ref, the line named <tip's name>.<k>-<7 hex>. */
static struct gitref step_ref(const struct gitref *tip, const char *commit, size_t k)
{
	char *name = series_name_from_subject(tip->ref);
	struct gitref g = { .top = xstrdup(tip->top), .ref = xstrdup(commit), .commit = xstrdup(commit),
			    .line = xasprintf("%s.%zu-%.7s", name, k, commit) };

	free(name);
	return g;
}

/* One line of `git log --format=%H %P%x09%s`: appended as step n + 1 when its one parent
 * is the step before it; -1 with *why otherwise. */
static int add_step(struct gitrange *r, const struct gitref *tip, char *line, char **why)
{
	char *tab = strchr(line, '\t'), *parents, *subject;
	const char *prev = r->n ? r->steps[r->n - 1].commit : r->base.commit;

	if (!tab || strlen(line) < 41) {
		*why = xasprintf("--kernels %s: git log gave '%s', not a commit line", r->item, line);
		return -1;
	}
	*tab = '\0';
	subject = tab + 1;
	line[40] = '\0';
	parents = line + 41;
	if (strcmp(parents, prev)) {
		*why = xasprintf("--kernels %s: commit %.12s '%s' does not sit on %.12s, the step "
				 "before it (%s)", r->item, line, subject, prev, accepted);
		return -1;
	}
	r->steps = xrealloc(r->steps, (r->n + 1) * sizeof(*r->steps));
	r->subjects = xrealloc(r->subjects, (r->n + 2) * sizeof(*r->subjects));
	r->steps[r->n] = step_ref(tip, line, r->n + 1);
	r->subjects[r->n++] = xstrdup(subject);
	r->subjects[r->n] = NULL;
	return 0;
}

/* A merge anywhere in the log (a line with more than one parent, or none): -1 naming the
 * first, before the order of the others is looked at. */
static int refuse_merges(const struct gitrange *r, const char *log, char **why)
{
	for (const char *line = log; *line; ) {
		size_t n = strcspn(line, "\n");
		char *copy = xstrndup(line, n), *tab = strchr(copy, '\t'), *save = NULL;
		int parents = -1; /* the first word is the commit itself */

		if (tab)
			*tab = '\0';
		for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
			parents++;
		if (tab && parents != 1) {
			*why = xasprintf("--kernels %s: commit %.12s '%s' is a merge (%s; a merge brings a "
					 "whole branch in one step)", r->item, copy, tab + 1, accepted);
			free(copy);
			return -1;
		}
		free(copy);
		line += n + (line[n] == '\n');
	}
	return 0;
}

/* The commits of base..tip, oldest first, each a step; the checks of gitrange.h. */
static int walk(struct gitrange *r, const struct gitref *tip, char **why)
{
	char *range = xasprintf("%s..%s", r->base.commit, tip->commit), *log = NULL;
	char *ancestor = gitref_git(r->base.top, (char *[]){ "merge-base", "--is-ancestor",
							      r->base.commit, tip->commit, NULL }, false);
	int rc = 0;

	if (!ancestor) {
		*why = xasprintf("--kernels %s: %s is not an ancestor of %s (%s)", r->item, r->base.ref,
				 tip->ref, accepted);
		rc = -1;
	}
	/* Ids only (no user text reaches git here); a line per commit, oldest first. */
	if (rc == 0)
		log = gitref_git(r->base.top, (char *[]){ "log", "--no-color", "--topo-order", "--reverse",
							  "--format=%H %P%x09%s", range, NULL }, false);
	if (rc == 0 && !log) {
		*why = xasprintf("--kernels %s: git log %s failed in %s", r->item, range, r->base.top);
		rc = -1;
	}
	if (rc == 0)
		rc = refuse_merges(r, log, why);
	for (char *line = log, *next; rc == 0 && line && *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (r->n == GITRANGE_MAX_STEPS) {
			*why = xasprintf("--kernels %s: more than %d commits (each is a kernel build and "
					 "a boot per round; accepted: a series of at most %d)", r->item,
					 GITRANGE_MAX_STEPS, GITRANGE_MAX_STEPS);
			rc = -1;
		} else {
			rc = add_step(r, tip, line, why);
		}
	}
	if (rc == 0 && r->n == 0) {
		/* A an ancestor of B and nothing between: the same commit. */
		*why = xasprintf("--kernels %s: no commit in %s..%s, both commit %.12s (%s)", r->item,
				 r->base.ref, tip->ref, tip->commit, accepted);
		rc = -1;
	}
	free(ancestor);
	free(log);
	free(range);
	return rc;
}

/* gitref_resolve of one end, its error said of the range as given. */
static int resolve_end(const char *range, const char *end, struct gitref *g, char **why)
{
	char *prefix = xasprintf("--kernels %s: ", end);
	int rc = gitref_resolve(end, g, why);

	if (rc < 0 && !strncmp(*why, prefix, strlen(prefix))) {
		char *said = xasprintf("--kernels %s: %s", range, *why + strlen(prefix));
		free(*why);
		*why = said;
	}
	free(prefix);
	return rc;
}

int gitrange_resolve(const char *item, struct gitrange *out, char **why)
{
	const char *at = strrchr(item, '@'), *dots = strstr(at + 1, "..");
	char *a = xstrndup(at + 1, (size_t)(dots - at - 1)), *b = xstrdup(dots + 2);
	char *item_a = xasprintf("%.*s@%s", (int)(at - item), item, a);
	char *item_b = xasprintf("%.*s@%s", (int)(at - item), item, b);
	struct gitref tip = { 0 };
	int rc = 0;

	*out = (struct gitrange){ .item = xstrdup(item) };
	if (!*a || !*b || *b == '.') {
		*why = xasprintf("--kernels %s: expected both ends of A..B (%s)", item, accepted);
		rc = -1;
	}
	if (rc == 0)
		rc = resolve_end(item, item_a, &out->base, why);
	if (rc == 0)
		rc = resolve_end(item, item_b, &tip, why);
	if (rc == 0)
		rc = walk(out, &tip, why);
	if (rc < 0)
		gitrange_free(out);
	gitref_free(&tip);
	free(item_a);
	free(item_b);
	free(a);
	free(b);
	return rc;
}

void gitrange_free(struct gitrange *r)
{
	free(r->item);
	gitref_free(&r->base);
	for (size_t i = 0; i < r->n; i++)
		gitref_free(&r->steps[i]);
	free(r->steps);
	hb_free_strv(r->subjects);
	*r = (struct gitrange){ 0 };
}
