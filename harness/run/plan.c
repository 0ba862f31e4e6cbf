#include "run/plan.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/xalloc.h"
#include "configs/kline.h"

static void add_cell(struct plan *p, size_t *cap, size_t lv, const char *w, int cores, int boot)
{
	size_t nv = hb_strv_len(p->variants);
	const char *line = p->lines ? p->lines[lv / nv] : HB_DEFAULT_LINE;

	if (p->keep) {
		char *group = plan_group_key(line, p->variants[lv % nv], w, cores);
		bool kept = hb_strv_contains(p->keep, group);
		free(group);
		if (!kept)
			return;
	}
	p->cells = xgrow(p->cells, cap, p->ncells + 1, sizeof(*p->cells));
	p->cells[p->ncells++] = (struct plan_cell){ .line = line, .variant = p->variants[lv % nv],
						    .workload = w, .cores = cores, .boot = boot,
						    .rep_done = xcalloc((size_t)p->reps, sizeof(bool)) };
}

static size_t nlines(const struct plan *p)
{
	return p->lines ? hb_strv_len(p->lines) : 1;
}

/* One round: every (line, variant) once for (workload, cores, boot), optionally shuffled. */
static void add_round(struct plan *p, size_t *cap, gsl_rng *rng, const char *w, int cores, int boot)
{
	size_t nv = hb_strv_len(p->variants) * nlines(p);
	size_t *idx = xcalloc(nv, sizeof(*idx));

	for (size_t i = 0; i < nv; i++)
		idx[i] = i;
	if (rng)
		gsl_ran_shuffle(rng, idx, nv, sizeof(*idx));
	for (size_t i = 0; i < nv; i++)
		add_cell(p, cap, idx[i], w, cores, boot);
	free(idx);
}

int plan_workload_boots(const struct plan *p, const char *w)
{
	size_t n = strlen(w);

	for (size_t i = 0; p->workload_boots && p->workload_boots[i]; i++)
		if (!strncmp(p->workload_boots[i], w, n) && p->workload_boots[i][n] == '=')
			return atoi(p->workload_boots[i] + n + 1);
	return p->boots;
}

const char *plan_bad_workload_boots(char *const *workload_boots, char *const *workloads)
{
	for (size_t i = 0; workload_boots && workload_boots[i]; i++) {
		const char *item = workload_boots[i], *eq = strchr(item, '=');
		char *name = eq ? xstrndup(item, (size_t)(eq - item)) : NULL, *end = NULL;
		long n = eq ? strtol(eq + 1, &end, 10) : 0;
		bool ok = name && hb_strv_contains(workloads, name) && end != eq + 1 && !*end &&
			  n >= 1 && n <= 1000;

		for (size_t j = 0; ok && j < i; j++)
			ok = strncmp(workload_boots[j], item, (size_t)(eq - item) + 1) != 0;
		free(name);
		if (!ok)
			return item;
	}
	return NULL;
}

int plan_max_boots(const struct plan *p)
{
	int most = p->boots;

	for (size_t w = 0; p->workloads[w]; w++)
		if (plan_workload_boots(p, p->workloads[w]) > most)
			most = plan_workload_boots(p, p->workloads[w]);
	return most;
}

void plan_build(struct plan *p)
{
	int rounds = plan_max_boots(p);

	size_t cap = 0;
	gsl_rng *rng = NULL;

	p->cells = NULL;
	p->ncells = 0;
	if (p->order == ORDER_GROUPED) {
		for (size_t v = 0; v < hb_strv_len(p->variants) * nlines(p); v++)
			for (size_t w = 0; p->workloads[w]; w++)
				for (size_t c = 0; c < p->ncores; c++)
					for (int b = 0; b < plan_workload_boots(p, p->workloads[w]); b++)
						add_cell(p, &cap, v, p->workloads[w], (int)p->cores[c], b);
		return;
	}
	if (p->seed) {
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(rng, p->seed);
	}
	for (int b = 0; b < rounds; b++)
		for (size_t c = 0; c < p->ncores; c++)
			for (size_t w = 0; p->workloads[w]; w++)
				if (b < plan_workload_boots(p, p->workloads[w]))
					add_round(p, &cap, rng, p->workloads[w], (int)p->cores[c], b);
	if (rng)
		gsl_rng_free(rng);
}

char *plan_cell_key(const struct plan_cell *c)
{
	if (hb_is_default_line(c->line))
		return xasprintf("%s/%s/%d/%d", c->variant, c->workload, c->cores, c->boot);
	return xasprintf("%s:%s/%s/%d/%d", c->line, c->variant, c->workload, c->cores, c->boot);
}

json_object *plan_cell_rep_json(const struct plan_cell *c, int rep)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "variant", json_object_new_string(c->variant));
	json_object_object_add(o, "workload", json_object_new_string(c->workload));
	json_object_object_add(o, "kernel_line", json_object_new_string(c->line));
	json_object_object_add(o, "cores", json_object_new_int(c->cores));
	json_object_object_add(o, "boot", json_object_new_int(c->boot));
	json_object_object_add(o, "rep", json_object_new_int(rep));
	return o;
}

char *plan_group_key(const char *line, const char *variant, const char *workload, int cores)
{
	return xasprintf("%s:%s/%s/%d", line, variant, workload, cores);
}

int plan_cell_missing(const struct plan *p, const struct plan_cell *c)
{
	int n = 0;
	for (int r = 0; r < p->reps; r++)
		n += !c->rep_done[r];
	return n;
}

size_t plan_count_pending(const struct plan *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->ncells; i++)
		n += plan_cell_missing(p, &p->cells[i]) > 0;
	return n;
}

struct plan_cell *plan_find_cell(const struct plan *p, const char *key)
{
	for (size_t i = 0; i < p->ncells; i++) {
		char *k = plan_cell_key(&p->cells[i]);
		bool same = !strcmp(k, key);
		free(k);
		if (same)
			return &p->cells[i];
	}
	return NULL;
}

void plan_free(struct plan *p)
{
	hb_free_strv(p->lines);
	hb_free_strv(p->variants);
	hb_free_strv(p->workloads);
	hb_free_strv(p->workload_boots);
	hb_free_strv(p->keep);
	free(p->cores);
	for (size_t i = 0; i < p->ncells; i++)
		free(p->cells[i].rep_done);
	free(p->cells);
	*p = (struct plan){ 0 };
}
