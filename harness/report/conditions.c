/* The run's conditions (conditions.h), from meta.json (keys: results/store.h, run/meta.c)
 * and cells.jsonl. */
#include "report/conditions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "results/provenance.h"
#include "results/store.h"

#define AT(...) report_meta_at(ctx, (const char *[]){ __VA_ARGS__, NULL })

json_object *report_meta_at(const struct report_ctx *ctx, const char *const *keys)
{
	return hb_json_at(ctx->meta, keys);
}

static char *str_of(json_object *o)
{
	return json_object_is_type(o, json_type_string) ? xstrdup(json_object_get_string(o)) : NULL;
}

static long long_of(json_object *o)
{
	return json_object_is_type(o, json_type_int) ? (long)json_object_get_int64(o) : -1;
}

static char *cpu_of(const struct report_ctx *ctx)
{
	char *brand = str_of(AT(RS_META_HOST, "cpu", "brand"));
	char *vendor = str_of(AT(RS_META_HOST, "cpu", "vendor"));
	long family = long_of(AT(RS_META_HOST, "cpu", "family"));
	long model = long_of(AT(RS_META_HOST, "cpu", "model"));
	char *out;

	if (!brand && !vendor)
		return NULL;
	if (family >= 0 && model >= 0)
		out = xasprintf("%s (%s family %ld model %ld)", brand ? brand : "unknown",
				vendor ? vendor : "unknown vendor", family, model);
	else
		out = xstrdup(brand ? brand : vendor);
	free(brand);
	free(vendor);
	return out;
}

/* Appends ", " and s to *list (which may be NULL). */
static void append(char **list, const char *s)
{
	char *next = *list ? xasprintf("%s, %s", *list, s) : xstrdup(s);

	free(*list);
	*list = next;
}

/* Per line: its release and each build's kernel key (or the commit a line came from). */
static void read_line(const struct report_ctx *ctx, const char *line, struct cond_line *out)
{
	json_object *builds = AT("kernels_by_line", line);

	/* Sets from before kernel lines list one line's kernels as "kernels". */
	if (!builds && ctx->ds.nlines == 1)
		builds = AT("kernels");

	*out = (struct cond_line){ .line = xstrdup(line) };
	if (!json_object_is_type(builds, json_type_object))
		return;
	json_object_object_foreach(builds, build, k) {
		char *commit = str_of(json_object_object_get(k, "commit"));
		char *key = str_of(json_object_object_get(k, "key"));
		char *what = commit ? xasprintf("%s commit %.12s", build, commit)
				    : key ? xasprintf("%s %.12s", build, key) : xstrdup(build);
		if (!out->release)
			out->release = str_of(json_object_object_get(k, "release"));
		append(&out->kernels, what);
		free(what);
		free(commit);
		free(key);
	}
}

static void read_lines(const struct report_ctx *ctx, struct report_conditions *c)
{
	c->lines = xcalloc(ctx->ds.nlines ? ctx->ds.nlines : 1, sizeof(*c->lines));
	for (size_t i = 0; i < ctx->ds.nlines; i++)
		read_line(ctx, ctx->ds.lines[i], &c->lines[c->nlines++]);
}

static void read_variants(const struct report_ctx *ctx, struct report_conditions *c)
{
	c->variants = xcalloc(ctx->ds.nvariants ? ctx->ds.nvariants : 1, sizeof(*c->variants));
	for (size_t i = 0; i < ctx->ds.nvariants; i++) {
		const char *name = ctx->ds.variants[i];
		c->variants[c->nvariants++] = (struct cond_variant){ .name = name,
			.build = str_of(AT("variants", name, "build")),
			.cmdline = str_of(AT("variants", name, "cmdline")) };
	}
}

static void read_params(const struct report_ctx *ctx, struct report_conditions *c)
{
	json_object *params = AT("plan", "params");

	for (size_t i = 0; json_object_is_type(params, json_type_array) &&
			   i < json_object_array_length(params); i++)
		append(&c->params, json_object_get_string(json_object_array_get_idx(params, i)));
}

/* The guests' time: the sum of cells.jsonl's "seconds" (what each cell's boots took). */
static void read_cells(const struct report_ctx *ctx, struct report_conditions *c)
{
	char *path = hb_path_join(ctx->dir, "cells.jsonl");
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	free(path);
	while (f && getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line), *s = NULL;
		if (json_object_object_get_ex(o, "seconds", &s) && json_object_is_type(s, json_type_double)) {
			c->guest_seconds += json_object_get_double(s);
			c->cells++;
		}
		json_object_put(o);
	}
	free(line);
	if (f)
		fclose(f);
}

/* meta.json "host_load" (run/meta.c: readings of the 1-minute load average as boots
 * ended) in words; NULL for sets that did not record it. */
static char *host_load_of(const struct report_ctx *ctx)
{
	json_object *n = AT("host_load", "readings"), *mean = AT("host_load", "mean"), *max = AT("host_load", "max");

	if (!json_object_is_type(n, json_type_int) || !mean || !max)
		return NULL;
	return xasprintf("1-minute load average %.2f on average, %.2f at most, over %d boots (the guests' "
			 "own QEMU included)", json_object_get_double(mean), json_object_get_double(max),
			 json_object_get_int(n));
}

/* A word as a POSIX shell reads it back: bare when it is plain, else single-quoted. */
static char *shell_word(const char *w)
{
	size_t n = strlen(w);
	char *out, *p;

	if (n && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			   "-_=.,/:+@%") == n)
		return xstrdup(w);
	p = out = xmalloc(4 * n + 3);
	*p++ = '\'';
	for (; *w; w++) {
		if (*w == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *w;
		}
	}
	*p++ = '\'';
	*p = 0;
	return out;
}

/* The recorded `harness run` argv without --out (a rerun writes a set of its own);
 * NULL for sets not made by `harness run` or made by --resume (whose argv is not the plan). */
static char *read_rerun(const struct report_ctx *ctx)
{
	json_object *argv = AT(RS_META_COMMAND);
	size_t n = json_object_is_type(argv, json_type_array) ? json_object_array_length(argv) : 0;
	char *out = NULL;

	if (n < 2 || strcmp(json_object_get_string(json_object_array_get_idx(argv, 1)), "run"))
		return NULL;
	out = xstrdup("harness");
	for (size_t i = 1; i < n; i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(argv, i));
		if (!strcmp(w, "--resume") || !strncmp(w, "--resume=", 9)) {
			free(out);
			return NULL;
		}
		if (!strcmp(w, "--out")) {
			i++;
			continue;
		}
		if (!strncmp(w, "--out=", 6))
			continue;
		char *word = shell_word(w), *next = xasprintf("%s %s", out, word);
		free(word);
		free(out);
		out = next;
	}
	return out;
}

/* workload_boots' "name=N" for w, or dflt. */
static long own_rounds(json_object *own, const char *w, long dflt)
{
	size_t n = strlen(w);

	for (size_t i = 0; i < json_object_array_length(own); i++) {
		const char *item = json_object_get_string(json_object_array_get_idx(own, i));
		if (item && !strncmp(item, w, n) && item[n] == '=')
			return atol(item + n + 1);
	}
	return dflt;
}

/* Each workload's rounds: the plan's boots, or its own (plan.workload_boots: the main
 * job's workload.ini icount_boots, e.g. hackbench's 8). */
static void read_rounds(const struct report_ctx *ctx, struct report_conditions *c)
{
	json_object *ws = AT("plan", "workloads"), *own = AT("plan", "workload_boots");
	long boots = long_of(AT("plan", "boots")), first = -1;
	bool dflt_used = false, owns_agree = true;

	c->rounds = boots;
	c->order = str_of(AT("plan", "order"));
	c->until_ci = AT("plan", "until_ci") != NULL;
	if (boots < 0 || !json_object_is_type(ws, json_type_array) || !json_object_is_type(own, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(ws); i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(ws, i));
		long r = w ? own_rounds(own, w, boots) : boots;
		char *item;

		if (r == boots) {
			dflt_used = true;
			continue;
		}
		owns_agree &= first < 0 || r == first;
		if (first < 0)
			first = r;
		item = xasprintf("%s %ld", w, r);
		append(&c->rounds_own, item);
		free(item);
	}
	if (!dflt_used && c->rounds_own) { /* every workload has its own */
		c->rounds = owns_agree ? first : -1;
		if (owns_agree) {
			free(c->rounds_own);
			c->rounds_own = NULL;
		}
	}
}

char *conditions_rounds(const struct report_conditions *c)
{
	const char *upto = c->until_ci ? "up to " : "";

	if (c->rounds >= 0 && c->rounds_own)
		return xasprintf("%s%ld round%s of every variant (%s)", upto, c->rounds, c->rounds == 1 ? "" : "s",
				 c->rounds_own);
	if (c->rounds >= 0)
		return xasprintf("%s%ld round%s of every variant", upto, c->rounds, c->rounds == 1 ? "" : "s");
	if (c->rounds_own)
		return xasprintf("%srounds of every variant: %s", upto, c->rounds_own);
	return NULL;
}

void conditions_read(const struct report_ctx *ctx, struct report_conditions *c)
{
	*c = (struct report_conditions){ 0 };
	c->cpu = cpu_of(ctx);
	c->cores = long_of(AT(RS_META_HOST, "topology", "cores"));
	c->threads = long_of(AT(RS_META_HOST, "topology", "pus"));
	c->numa_nodes = long_of(AT(RS_META_HOST, "topology", "numa_nodes"));
	c->hostname = str_of(AT(RS_META_HOST, "hostname"));
	c->accel = str_of(AT(RS_META_ACCEL));
	c->accel_reason = str_of(AT(RS_META_ACCEL_REASON));
	c->clock = xstrdup(report_clock(ctx));
	c->clock_means = str_of(AT(RS_META_CLOCK, "means"));
	c->qemu = str_of(AT(RS_META_QEMU, "version"));
	read_rounds(ctx, c);
	c->reps = long_of(AT("plan", "reps"));
	c->created = str_of(AT(RS_META_CREATED));
	c->imported = str_of(AT(RS_META_IMPORTED));
	c->host_load = host_load_of(ctx);
	c->rerun = read_rerun(ctx);
	read_lines(ctx, c);
	read_variants(ctx, c);
	read_params(ctx, c);
	read_cells(ctx, c);
}

void conditions_free(struct report_conditions *c)
{
	char **strings[] = { &c->cpu, &c->hostname, &c->accel, &c->accel_reason, &c->clock,
			     &c->clock_means, &c->params, &c->created, &c->imported, &c->host_load,
			     &c->rerun, &c->rounds_own, &c->order, &c->qemu };

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		free(*strings[i]);
	for (size_t i = 0; i < c->nlines; i++) {
		free(c->lines[i].line);
		free(c->lines[i].release);
		free(c->lines[i].kernels);
	}
	for (size_t i = 0; i < c->nvariants; i++) {
		free(c->variants[i].build);
		free(c->variants[i].cmdline);
	}
	free(c->lines);
	free(c->variants);
	*c = (struct report_conditions){ 0 };
}

const char *conditions_duration(char *buf, double seconds)
{
	long s = lround(seconds);

	if (!isfinite(seconds) || seconds < 0)
		snprintf(buf, 32, "-");
	else if (s >= 3600)
		snprintf(buf, 32, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		snprintf(buf, 32, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, 32, "%.1fs", seconds);
	return buf;
}
