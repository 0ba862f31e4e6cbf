/* The guests' size for the conditions a reply states: their vCPUs (from the samples'
 * groups, per workload when workloads differ) and memory (meta.json plan.mem_mib). A
 * reader of a list mail compares these first: a cost at 1 vCPU is not one at 24. */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/conditions.h"
#include "report/report_ctx.h"

/* "1", "2,6,12,24": the distinct vCPU counts of workload w (all workloads: NULL), sorted. */
static char *counts_of(const struct dataset *ds, const char *w, int *n)
{
	int seen[64], k = 0;
	char *out = xstrdup("");

	for (size_t i = 0; i < ds->ngroups; i++) {
		int c = ds->groups[i]->cores, j = 0;
		if (c < 0 || (w && strcmp(ds->groups[i]->workload, w)))
			continue;
		while (j < k && seen[j] != c)
			j++;
		if (j == k && k < 64)
			seen[k++] = c;
	}
	for (int i = 1; i < k; i++) /* a few counts: insertion sort */
		for (int j = i; j > 0 && seen[j - 1] > seen[j]; j--) {
			int t = seen[j];
			seen[j] = seen[j - 1];
			seen[j - 1] = t;
		}
	for (int i = 0; i < k; i++) {
		char *next = xasprintf("%s%s%d", out, i ? "," : "", seen[i]);
		free(out);
		out = next;
	}
	*n = k;
	return out;
}

/* "hackbench 2, kbuild 1": per workload, when they differ; NULL when all agree. */
static char *per_workload(const struct dataset *ds, const char *all)
{
	char *out = NULL;

	for (size_t i = 0; i < ds->ngroups; i++) {
		const char *w = ds->groups[i]->workload;
		bool first = true;
		int n;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(ds->groups[j]->workload, w) != 0;
		if (!first)
			continue;
		char *counts = counts_of(ds, w, &n), *next;
		next = xasprintf("%s%s%s %s", out ? out : "", out ? ", " : "", w, counts);
		free(out);
		out = next;
		free(counts);
	}
	if (out && !strchr(out, ',') && strstr(out, all)) { /* one workload: nothing to add */
		free(out);
		return NULL;
	}
	return out;
}

char *conditions_guest(const struct report_ctx *ctx)
{
	const char *const mem_key[] = { "plan", "mem_mib", NULL };
	json_object *mem = report_meta_at(ctx, mem_key);
	int n;
	char *all = counts_of(&ctx->ds, NULL, &n), *each = NULL, *out = NULL, *vcpus;
	bool differ = false;

	for (size_t i = 0; i < ctx->ds.ngroups && !differ; i++) {
		int m;
		char *c = counts_of(&ctx->ds, ctx->ds.groups[i]->workload, &m);
		differ = strcmp(c, all) != 0;
		free(c);
	}
	if (differ)
		each = per_workload(&ctx->ds, all);
	vcpus = !n ? NULL : each ? xasprintf("%s vCPUs (%s)", all, each)
		: xasprintf("%s vCPU%s", all, n == 1 && !strcmp(all, "1") ? "" : "s");
	if (vcpus && mem && json_object_get_int64(mem) > 0)
		out = xasprintf("guests of %s and %lldM of memory", vcpus,
				(long long)json_object_get_int64(mem));
	else if (vcpus)
		out = xasprintf("guests of %s", vcpus);
	else if (mem && json_object_get_int64(mem) > 0)
		out = xasprintf("guests of %lldM of memory", (long long)json_object_get_int64(mem));
	free(vcpus);
	free(each);
	free(all);
	return out;
}
