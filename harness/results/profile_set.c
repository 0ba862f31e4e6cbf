#include "results/profile_set.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

static char *str_of(json_object *o, const char *key)
{
	json_object *v = hb_json_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? xstrdup(json_object_get_string(v)) : NULL;
}

static double num_of(json_object *o, const char *key)
{
	json_object *v = hb_json_get(o, key);
	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		? json_object_get_double(v) : NAN;
}

static int counts_of(json_object *o, const char *key, struct profile_count **out, size_t *n)
{
	json_object *m = hb_json_get(o, key);
	size_t i = 0;

	*out = NULL;
	*n = 0;
	if (!m || !json_object_is_type(m, json_type_object))
		return -1;
	*out = xcalloc((size_t)json_object_object_length(m) + 1, sizeof(**out));
	json_object_object_foreach(m, name, v) {
		if (!json_object_is_type(v, json_type_int))
			return -1;
		(*out)[i++] = (struct profile_count){ .name = xstrdup(name),
						      .count = json_object_get_double(v) };
		*n = i;
	}
	return 0;
}

static void rec_free(struct profile_rec *r)
{
	free(r->variant);
	free(r->workload);
	free(r->line);
	free(r->metric);
	for (size_t i = 0; i < r->nfn; i++)
		free(r->fn[i].name);
	for (size_t i = 0; i < r->nrep_strings; i++)
		free(r->rep_strings[i].name);
	free(r->fn);
	free(r->rep_strings);
}

static int rec_of(json_object *o, struct profile_rec *r)
{
	json_object *sym = hb_json_get(o, "symbols");

	*r = (struct profile_rec){ .variant = str_of(o, "variant"), .workload = str_of(o, "workload"),
				   .line = str_of(o, "kernel_line"), .metric = str_of(o, "metric"),
				   .cores = (int)num_of(o, "cores"), .boot = (int)num_of(o, "boot"),
				   .rep = (int)num_of(o, "rep"), .marker = (int)num_of(o, "marker"),
				   .insns = num_of(o, "insns"), .halts = num_of(o, "halts"),
				   .sample_ns = num_of(o, "sample_ns"), .idle_ns = num_of(o, "idle_ns"),
				   .symbols = sym && json_object_get_boolean(sym) };
	if (!r->variant || !r->workload || !r->line || !r->metric || !isfinite(r->insns) ||
	    isnan(num_of(o, "boot")) || isnan(num_of(o, "cores")) ||
	    counts_of(o, "functions", &r->fn, &r->nfn) < 0 ||
	    counts_of(o, "rep_strings", &r->rep_strings, &r->nrep_strings) < 0)
		return -1;
	return 0;
}

int profile_set_read(const char *dir, struct profile_set *out)
{
	char *path = hb_path_join(dir, PROFILE_SET_FILE), *line = NULL;
	FILE *f = fopen(path, "re");
	size_t cap = 0, rcap = 0;
	long lineno = 0;

	*out = (struct profile_set){ 0 };
	if (!f) {
		int e = errno;
		free(path);
		if (e == ENOENT)
			return 0;
		hb_error("cannot read %s/%s: %s", dir, PROFILE_SET_FILE, strerror(e));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);
		struct profile_rec r;
		lineno++;
		if (!o || rec_of(o, &r) < 0) {
			if (!out->skipped)
				hb_warn("%s line %ld is not a profile record: skipped", path, lineno);
			out->skipped++;
			if (o)
				rec_free(&r);
		} else {
			out->rec = xgrow(out->rec, &rcap, out->n + 1, sizeof(*out->rec));
			out->rec[out->n++] = r;
		}
		json_object_put(o);
	}
	free(line);
	fclose(f);
	free(path);
	return out->n ? 1 : 0;
}

void profile_set_free(struct profile_set *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		rec_free(&ps->rec[i]);
	free(ps->rec);
	*ps = (struct profile_set){ 0 };
}

double profile_check_pct(const struct profile_rec *r)
{
	double idle = 0;

	if (!isfinite(r->sample_ns) || r->sample_ns <= 0)
		return NAN;
	if (r->halts > 0) {
		if (!isfinite(r->idle_ns) || r->cores > 1)
			return NAN;
		idle = r->idle_ns;
	}
	return (r->sample_ns - r->insns - idle) / r->sample_ns * 100;
}
