/* A run that spans hosts (merged sets, Slurm shards): a warning when the hosts differ in
 * CPU model or core count, and the mean slowdown per host next to the pooled tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/variant_order.h"
#include "common/json.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "report/report_ctx.h"
#include "results/store.h"

#define MAX_HOSTS 64 /* beyond this the breakdown would not be read anyway */

struct hosts {
	char *name[MAX_HOSTS];
	struct dataset ds[MAX_HOSTS];
	size_t n;
	bool more;      /* hosts beyond MAX_HOSTS were left out */
};

static struct dataset *host_ds(struct hosts *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->name[i], name))
			return &h->ds[i];
	if (h->n == MAX_HOSTS) {
		h->more = true;
		return NULL;
	}
	h->name[h->n] = xstrdup(name);
	h->ds[h->n] = (struct dataset){ 0 };
	return &h->ds[h->n++];
}

static void load_hosts(const char *dir, struct hosts *h)
{
	char *path = hb_path_join(dir, RS_SAMPLES_FILE), *line = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;

	free(path);
	while (f && getline(&line, &cap, f) > 0) {
		json_object *s = json_tokener_parse(line), *host = hb_json_get(s, "host"), *lib = hb_json_get(s, "lower_is_better");
		struct dataset *ds = host ? host_ds(h, json_object_get_string(host)) : NULL;
		if (ds && hb_json_get(s, "workload") && hb_json_get(s, "metric") && hb_json_get(s, "variant") && hb_json_get(s, "value"))
			dataset_add(ds, json_object_get_string(hb_json_get(s, "workload")),
				    json_object_get_string(hb_json_get(s, "metric")), json_object_get_string(hb_json_get(s, "unit")) ?: "",
				    hb_json_get(s, "cores") ? json_object_get_int(hb_json_get(s, "cores")) : -1,
				    json_object_get_string(hb_json_get(s, "variant")), lib ? json_object_get_boolean(lib) : true,
				    json_object_get_double(hb_json_get(s, "value")));
		json_object_put(s);
	}
	free(line);
	if (f)
		fclose(f);
}

/* "AMD EPYC, 2 cores" of a hosts[] entry of meta.json. Caller frees. */
static char *host_kind(json_object *e)
{
	json_object *hi = hb_json_get(e, "hostinfo");
	return xasprintf("%s, %d cores", json_object_get_string(hb_json_get(hb_json_get(hi, "cpu"), "brand")) ?: "unknown CPU",
			 json_object_get_int(hb_json_get(hb_json_get(hi, "topology"), "cores")));
}

static void warn_if_different(const struct report_ctx *ctx)
{
	json_object *hosts = hb_json_get(ctx->meta, "hosts");
	size_t n = hosts ? json_object_array_length(hosts) : 0;
	char *first = n ? host_kind(json_object_array_get_idx(hosts, 0)) : NULL;

	for (size_t i = 1; i < n; i++) {
		char *k = host_kind(json_object_array_get_idx(hosts, i));
		if (strcmp(k, first)) {
			fprintf(ctx->out, "warning: the hosts differ: %s is %s, %s is %s; pooled figures mix "
				"them (per-host figures below)\n",
				json_object_get_string(hb_json_get(json_object_array_get_idx(hosts, 0), "name")), first,
				json_object_get_string(hb_json_get(json_object_array_get_idx(hosts, i), "name")), k);
			free(k);
			break;
		}
		free(k);
	}
	free(first);
}

static void print_host(const struct report_ctx *ctx, const char *name, struct dataset *ds)
{
	int base = dataset_pick_baseline(ds, ctx->ds.variants[ctx->baseline]);

	dataset_sort(ds);
	fprintf(ctx->out, "  host %s\n", name);
	for (size_t g = 0; g < ds->ngroups; g++) {
		const struct ds_group *gr = ds->groups[g];
		const struct ds_cell *b = base >= 0 ? ds_group_cell(gr, base) : NULL;
		if (!report_wants(ctx, gr))
			continue;
		for (size_t c = 0; c < gr->ncells; c++) {
			const struct ds_cell *cell = &gr->cells[c];
			char *place = report_place(ctx, gr);
			fprintf(ctx->out, "    %-24s %-12s %-16s n=%-3ld mean %-10.4g %s", place, gr->metric,
				ds->variants[cell->variant], cell->w.n, cell->w.mean, gr->unit);
			if (b && cell != b && b->w.mean != 0)
				fprintf(ctx->out, "  %+.1f%% vs %s", 100.0 * (cell->w.mean / b->w.mean - 1),
					ds->variants[base]);
			fputc('\n', ctx->out);
			free(place);
		}
	}
}

void report_hosts(const struct report_ctx *ctx)
{
	struct hosts h = { .n = 0 };
	json_object *hosts = hb_json_get(ctx->meta, "hosts");

	/* Only merged sets list hosts: a one-host run costs no second pass over its samples. */
	if (!hosts || !json_object_is_type(hosts, json_type_array) || json_object_array_length(hosts) < 2)
		return;
	warn_if_different(ctx);
	load_hosts(ctx->dir, &h);
	if (h.n > 1) {
		fprintf(ctx->out, "\nPer host (the run spans %zu%s hosts; each round ran on one host):\n", h.n,
			h.more ? "+" : "");
		for (size_t i = 0; i < h.n; i++) {
			dataset_order_like(&h.ds[i], &ctx->ds); /* the pooled tables' variant order */
			print_host(ctx, h.name[i], &h.ds[i]);
		}
	}
	for (size_t i = 0; i < h.n; i++) {
		free(h.name[i]);
		dataset_free(&h.ds[i]);
	}
}
