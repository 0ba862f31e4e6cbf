/* The one-line forms of --against-seeds' text: a published source with nothing measured
 * for one reason, and a workload the run did not measure at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "seeds/seeds_report.h"

/* Adds name to the comma list *list unless it is there. */
void seeds_add_unique(char **list, const char *name)
{
	char *next;
	size_t len = strlen(name);

	for (const char *p = strstr(*list, name); p; p = strstr(p + 1, name))
		if ((p == *list || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0'))
			return;
	next = xasprintf("%s%s%s", *list, **list ? ", " : "", name);
	free(*list);
	*list = next;
}

/* "line 12", "lines 380-397", or for a one-line mail the published cores and machine. */
static char *line_range(const struct seed_match *rows, size_t n)
{
	long lo = rows[0].f->line, hi = lo;
	const struct seed_conditions *c = &rows[0].f->cond;

	for (size_t i = 1; i < n; i++) {
		lo = rows[i].f->line < lo ? rows[i].f->line : lo;
		hi = rows[i].f->line > hi ? rows[i].f->line : hi;
	}
	if (hi == 1 && c->cores >= 0)
		return xasprintf("cores %d, %s", c->cores, c->machine);
	if (hi == 1)
		return xasprintf("%s", c->machine);
	return lo == hi ? xasprintf("line %ld", lo) : xasprintf("lines %ld-%ld", lo, hi);
}

/* All rows not measured for one reason: the same status, and the same text unless the
 * reason names each figure's metric (then the first is shown, the others said alike). */
static bool one_reason(const struct seed_match *rows, size_t n, bool *alike)
{
	*alike = false;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].status == MATCH_OK || rows[i].status != rows[0].status)
			return false;
		if (strcmp(rows[i].why, rows[0].why) && rows[i].status != MATCH_NO_METRIC)
			return false;
		*alike = *alike || strcmp(rows[i].why, rows[0].why);
	}
	return true;
}

bool seeds_one_reason_line(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	char *wl, *variants, *lines;
	bool alike;

	if (!one_reason(rows, n, &alike))
		return false;
	wl = seed_sample_workload(rows[0].f);
	variants = xstrdup("");
	lines = line_range(rows, n);
	for (size_t i = 0; i < n; i++)
		seeds_add_unique(&variants, rows[i].f->variant);
	fprintf(sr->ctx->out, "%s%s, seed %s, %s: %zu figure%s (%s): not measured: %s%s\n\n",
		md ? "- " : "== ", wl, rows[0].f->seed, lines, n, n == 1 ? "" : "s", variants, rows[0].why,
		alike ? ", nor the other figures' metrics" : "");
	free(lines);
	free(variants);
	free(wl);
	return true;
}

/* A workload the run did not measure at all: one line for all its figures, printed at
 * the first of them. True when rows[i] is such a figure (printed now or before). */
bool seeds_absent_workload_line(struct seeds_report *sr, size_t i, bool md)
{
	char *wl, *variants, *seeds;
	size_t n = 0;
	bool first = true;

	if (sr->rows[i].status != MATCH_NO_WORKLOAD)
		return false;
	wl = seed_sample_workload(sr->rows[i].f);
	variants = xstrdup("");
	seeds = xstrdup("");
	for (size_t j = 0; j < sr->nrows; j++) {
		char *other = seed_sample_workload(sr->rows[j].f);
		if (!strcmp(other, wl)) {
			first = first && j >= i;
			n++;
			seeds_add_unique(&variants, sr->rows[j].f->variant);
			seeds_add_unique(&seeds, sr->rows[j].f->seed);
		}
		free(other);
	}
	if (first)
		fprintf(sr->ctx->out, "%s%s, seed %s: %zu figure%s (%s): not measured: %s\n\n",
			md ? "- " : "== ", wl, seeds, n, n == 1 ? "" : "s", variants, sr->rows[i].why);
	free(variants);
	free(seeds);
	free(wl);
	return true;
}
