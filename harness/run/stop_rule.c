#include "run/stop_rule.h"

#include <math.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernel_line.h"
#include "common/xalloc.h"
#include "results/store.h"
#include "run/run.h"
#include "stats/paired.h"
#include "workload/meta.h"

/* One (kernel line, variant, sample workload, cores, round) of a primary metric: the
 * round's mean. A variant is paired with its own line's baseline only. */
struct round_mean {
	char *key;
	double sum;
	long n;
	bool lower_is_better;
};

struct collect {
	const struct run *r;
	int rounds;
	void *tree;  /* tsearch of round_mean by key: rounds x variants x workloads x cores */
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct round_mean *)a)->key, ((const struct round_mean *)b)->key);
}

static char *round_key(const char *line, const char *variant, const char *workload, int cores,
		       int round)
{
	return xasprintf("%s\x1f%s\x1f%s\x1f%d\x1f%d", line, variant, workload, cores, round);
}

/* The run's workload that owns a sample's workload (itself or one of its sections). */
static const struct workload *owner(const struct run *r, const char *sample_workload)
{
	for (size_t i = 0; i < r->nworkloads; i++) {
		size_t n = strlen(r->workloads[i]->name);
		if (!strncmp(sample_workload, r->workloads[i]->name, n) &&
		    (sample_workload[n] == '\0' || sample_workload[n] == '-'))
			return r->workloads[i];
	}
	return NULL;
}

static int collect_sample(const struct sample *s, void *ctx)
{
	struct collect *c = ctx;
	const struct workload *w = owner(c->r, s->workload);
	struct round_mean probe, *m, **slot;

	if (!w || strcmp(s->metric, w->primary) || s->boot < 0 || s->boot >= c->rounds)
		return 0;
	probe.key = round_key(sample_line(s), s->variant, s->workload, s->cores, s->boot);
	slot = tfind(&probe, &c->tree, by_key);
	if (slot) {
		free(probe.key);
		m = *slot;
	} else {
		m = xcalloc(1, sizeof(*m));
		*m = (struct round_mean){ .key = probe.key, .lower_is_better = s->lower_is_better };
		tsearch(m, &c->tree, by_key);
	}
	m->sum += s->value;
	m->n++;
	return 0;
}

static const struct round_mean *find(const struct collect *c, const char *line, const char *variant,
				     const char *workload, int cores, int round)
{
	struct round_mean probe = { .key = round_key(line, variant, workload, cores, round) };
	struct round_mean **slot = tfind(&probe, &c->tree, by_key);

	free(probe.key);
	return slot ? *slot : NULL;
}

/* The half-width of one variant's paired estimate on one (sample workload, cores), in
 * points of cost, scaled down by the ratio when the variant is slower: a 194x cost known
 * to +-2% is precise, though +-2% of 19300% is 390 points. For costs at or below zero it is
 * the plain half-width in points. */
static double halfwidth(const struct collect *c, const char *line, const char *variant,
			const char *workload, int cores)
{
	struct welford logs;
	struct paired_estimate e;
	bool lower = true;

	welford_init(&logs);
	for (int b = 0; b < c->rounds; b++) {
		const struct round_mean *v = find(c, line, variant, workload, cores, b);
		const struct round_mean *base = find(c, line, "baseline", workload, cores, b);
		if (v && base) {
			paired_add(&logs, v->sum / (double)v->n, base->sum / (double)base->n);
			lower = v->lower_is_better;
		}
	}
	paired_estimate(&logs, lower, &e);
	return paired_ci_halfwidth(&e) / fmax(1.0, 1.0 + e.slowdown_pct / 100.0);
}

/* Whether any round of (variant, workload, cores) has samples. */
static bool ran(const struct collect *c, const char *line, const char *variant,
		const char *workload, int cores)
{
	for (int b = 0; b < c->rounds; b++)
		if (find(c, line, variant, workload, cores, b))
			return true;
	return false;
}

/* Keeps the widest half-width; an estimate with fewer than 2 rounds counts as infinite. */
static void judge(const struct collect *c, struct stop_verdict *v, const char *line,
		  const char *variant, const char *workload, int cores)
{
	bool other = !hb_is_default_line(line);
	double h;

	if (!ran(c, line, "baseline", workload, cores) && !ran(c, line, variant, workload, cores))
		return; /* a section this run did not ask for */
	h = halfwidth(c, line, variant, workload, cores);
	if (isnan(h))
		h = INFINITY;
	if (v->widest_what && h <= v->widest)
		return;
	v->widest = h;
	free(v->widest_what);
	v->widest_what = xasprintf("%s%s%s %s %d vCPU%s", other ? line : "", other ? " " : "", variant,
				   workload, cores, cores == 1 ? "" : "s");
}

/* Every (variant but baseline, sample workload, cores) of the plan on one line. */
static void judge_line(const struct collect *c, struct stop_verdict *v, const char *line)
{
	const struct plan *p = &c->r->plan;

	for (size_t i = 0; p->variants[i]; i++) {
		if (!strcmp(p->variants[i], "baseline"))
			continue;
		for (size_t w = 0; w < c->r->nworkloads; w++) {
			const struct workload *wl = c->r->workloads[w];
			for (size_t k = 0; k < p->ncores; k++) {
				judge(c, v, line, p->variants[i], wl->name, (int)p->cores[k]);
				for (size_t s = 0; wl->sections && wl->sections[s]; s++) {
					char *name = xasprintf("%s-%s", wl->name, wl->sections[s]);
					judge(c, v, line, p->variants[i], name, (int)p->cores[k]);
					free(name);
				}
			}
		}
	}
}

static void judge_plan(const struct collect *c, struct stop_verdict *v)
{
	char *const *lines = c->r->plan.lines;

	if (!lines)
		judge_line(c, v, HB_DEFAULT_LINE);
	for (size_t l = 0; lines && lines[l]; l++)
		judge_line(c, v, lines[l]);
}

static void free_mean(void *p)
{
	struct round_mean *m = p;
	free(m->key);
	free(m);
}

int stop_rule_check(const struct run *r, int rounds, struct stop_verdict *v)
{
	struct collect c = { .r = r, .rounds = rounds };

	*v = (struct stop_verdict){ .widest = NAN };
	if (rs_read_samples(r->dir, collect_sample, &c, NULL) < 0)
		return -1;
	judge_plan(&c, v);
	tdestroy(c.tree, free_mean);
	v->precise = v->widest_what && v->widest <= r->opts->until_ci;
	if (isinf(v->widest))
		v->widest = NAN;
	return 0;
}

void stop_verdict_free(struct stop_verdict *v)
{
	free(v->widest_what);
	v->widest_what = NULL;
}
