#include "analysis/profile_view.h"

#include <fnmatch.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/profile_set.h"

/* Records of one (line, workload, cores, metric, variant), in set order. */
struct key_group {
	const struct profile_rec *first;
	const struct profile_rec **rec;
	size_t n, cap;
};

static bool same_place(const struct profile_rec *a, const struct profile_rec *b)
{
	return !strcmp(a->line, b->line) && !strcmp(a->workload, b->workload) &&
	       a->cores == b->cores && !strcmp(a->metric, b->metric);
}

/* Names of every function in the place's records, each given an index (glibc's hsearch_r:
 * a table sized for every distinct name, which vmlinux bounds). */
struct names {
	struct hsearch_data h;
	char **name;
	size_t n, cap;
};

static size_t name_index(struct names *t, const char *name)
{
	ENTRY e = { .key = (char *)name }, *found;

	if (hsearch_r(e, FIND, &found, &t->h) && found)
		return (size_t)(uintptr_t)found->data;
	t->name = xgrow(t->name, &t->cap, t->n + 1, sizeof(*t->name));
	t->name[t->n] = xstrdup(name);
	e = (ENTRY){ .key = t->name[t->n], .data = (void *)(uintptr_t)t->n };
	if (!hsearch_r(e, ENTER, &found, &t->h))
		abort(); /* the table is sized for every name of the set */
	return t->n++;
}

/* Per round (boot) of one variant: the sums over repetitions of each function's count. */
struct rounds {
	int nboots;
	double **per;        /* [boot][name index] */
	size_t *width;       /* [boot]: entries of per[boot] */
	int *reps;           /* repetitions seen per boot */
	double *insns, *idle;
};

static void rounds_grow(struct rounds *r, int b)
{
	size_t n = (size_t)(b + 1);

	r->per = xrealloc(r->per, n * sizeof(*r->per));
	r->width = xrealloc(r->width, n * sizeof(*r->width));
	r->reps = xrealloc(r->reps, n * sizeof(*r->reps));
	r->insns = xrealloc(r->insns, n * sizeof(*r->insns));
	r->idle = xrealloc(r->idle, n * sizeof(*r->idle));
	for (int i = r->nboots; i <= b; i++) {
		r->per[i] = NULL;
		r->width[i] = 0;
		r->reps[i] = 0;
		r->insns[i] = r->idle[i] = 0;
	}
	r->nboots = b + 1;
}

static void rounds_add(struct rounds *r, const struct profile_rec *rec, struct names *t)
{
	int b = rec->boot;

	if (b < 0 || b > 100000)
		return;
	if (b >= r->nboots)
		rounds_grow(r, b);
	r->reps[b]++;
	r->insns[b] += rec->insns;
	r->idle[b] += isfinite(rec->idle_ns) ? rec->idle_ns : NAN;
	/* Functions and rep string sites in one table: a site's name has a space in it
	 * ("clear_page_erms stosb"), a function's never. */
	for (size_t i = 0; i < rec->nfn + rec->nrep_strings; i++) {
		const struct profile_count *c = i < rec->nfn ? &rec->fn[i] : &rec->rep_strings[i - rec->nfn];
		size_t k = name_index(t, c->name);
		if (k >= r->width[b]) {
			size_t w = (k + 1) * 2;
			r->per[b] = xrealloc(r->per[b], w * sizeof(double));
			for (size_t y = r->width[b]; y < w; y++)
				r->per[b][y] = 0;
			r->width[b] = w;
		}
		r->per[b][k] += c->count;
	}
}

static double at(const struct rounds *r, int b, size_t k)
{
	return k < r->width[b] ? r->per[b][k] / r->reps[b] : 0;
}

static void rounds_free(struct rounds *r)
{
	for (int b = 0; b < r->nboots; b++)
		free(r->per[b]);
	free(r->per);
	free(r->width);
	free(r->reps);
	free(r->insns);
	free(r->idle);
}

static double t95(long n)
{
	return n >= 2 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) : NAN;
}

/* Mean and 95% half-width of xs[0..n). */
static void mean_ci(const double *xs, int n, double *mean, double *ci)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++)
		s += xs[i];
	*mean = n ? s / n : NAN;
	for (int i = 0; i < n; i++)
		ss += (xs[i] - *mean) * (xs[i] - *mean);
	*ci = n >= 2 ? t95(n) * sqrt(ss / (n - 1)) / sqrt(n) : NAN;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct pv_fn *x = a, *y = b;
	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void fill_row(struct pv_row *row, const struct rounds *base, const struct rounds *var,
		     const struct names *t)
{
	int *both = xcalloc((size_t)(var->nboots + 1), sizeof(int)), n = 0;
	double *d = xcalloc((size_t)(var->nboots + 1), sizeof(double));
	double bi = 0, vi = 0, bidle = 0, vidle = 0;

	for (int b = 0; b < var->nboots && b < base->nboots; b++)
		if (var->reps[b] && base->reps[b])
			both[n++] = b;
	row->rounds = n;
	for (int i = 0; i < n; i++) {
		bi += base->insns[both[i]] / base->reps[both[i]];
		vi += var->insns[both[i]] / var->reps[both[i]];
		bidle += base->idle[both[i]] / base->reps[both[i]];
		vidle += var->idle[both[i]] / var->reps[both[i]];
		d[i] = var->insns[both[i]] / var->reps[both[i]] - base->insns[both[i]] / base->reps[both[i]];
	}
	row->base_insns = n ? bi / n : NAN;
	row->var_insns = n ? vi / n : NAN;
	row->base_idle_ns = n ? bidle / n : NAN;
	row->var_idle_ns = n ? vidle / n : NAN;
	mean_ci(d, n, &row->delta, &row->delta_ci);
	row->fn = xcalloc(t->n + 1, sizeof(*row->fn));
	row->rep = xcalloc(t->n + 1, sizeof(*row->rep));
	for (size_t k = 0; k < t->n && n; k++) {
		bool site = strchr(t->name[k], ' ') != NULL;
		double sb = 0, sv = 0;
		for (int i = 0; i < n; i++) {
			d[i] = at(var, both[i], k) - at(base, both[i], k);
			sb += at(base, both[i], k);
			sv += at(var, both[i], k);
		}
		if (sb == sv && sb == 0)
			continue;
		struct pv_fn *f = site ? &row->rep[row->nrep] : &row->fn[row->nfn];
		mean_ci(d, n, &f->delta, &f->ci);
		if (f->delta == 0 && sb == sv)
			continue;
		f->name = xstrdup(t->name[k]);
		f->base = sb / n;
		f->var = sv / n;
		f->share = row->delta != 0 ? f->delta / row->delta : NAN;
		if (site)
			row->nrep++;
		else
			row->nfn++;
	}
	qsort(row->fn, row->nfn, sizeof(*row->fn), cmp_fn);
	qsort(row->rep, row->nrep, sizeof(*row->rep), cmp_fn);
	free(both);
	free(d);
}

static void check_row(struct pv_row *row, const struct key_group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		double pct = profile_check_pct(g->rec[i]);
		if (isnan(pct)) {
			row->unchecked++;
			continue;
		}
		row->checked++;
		if (fabs(pct) > fabs(row->worst_pct))
			row->worst_pct = pct;
	}
}

/* Rows of one place (line, workload, cores, metric): each variant against the baseline. */
static void place_rows(struct profile_view *pv, size_t *cap, struct key_group *gs, size_t ng,
		       const char *baseline)
{
	struct names t = { 0 };
	struct rounds *r = xcalloc(ng, sizeof(*r));
	size_t total = 0;
	long b = -1;

	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < gs[i].n; j++)
			total += gs[i].rec[j]->nfn + gs[i].rec[j]->nrep_strings;
	if (!hcreate_r(total * 2 + 64, &t.h))
		abort();
	for (size_t i = 0; i < ng; i++) {
		for (size_t j = 0; j < gs[i].n; j++)
			rounds_add(&r[i], gs[i].rec[j], &t);
		if (!strcmp(gs[i].first->variant, baseline))
			b = (long)i;
	}
	for (size_t i = 0; b >= 0 && i < ng; i++) {
		struct pv_row *row;
		if ((long)i == b)
			continue;
		pv->rows = xgrow(pv->rows, cap, pv->n + 1, sizeof(*pv->rows));
		row = &pv->rows[pv->n++];
		*row = (struct pv_row){ .line = xstrdup(gs[i].first->line),
					.workload = xstrdup(gs[i].first->workload),
					.metric = xstrdup(gs[i].first->metric),
					.variant = xstrdup(gs[i].first->variant),
					.cores = gs[i].first->cores, .marker = gs[i].first->marker };
		fill_row(row, &r[b], &r[i], &t);
		check_row(row, &gs[i]);
		check_row(row, &gs[b]);
	}
	for (size_t i = 0; i < ng; i++)
		rounds_free(&r[i]);
	free(r);
	hdestroy_r(&t.h);
	for (size_t i = 0; i < t.n; i++)
		free(t.name[i]);
	free(t.name);
}

int profile_view_load(const char *dir, const char *baseline, struct profile_view *out)
{
	struct profile_set ps;
	int rc = profile_set_read(dir, &ps);
	bool *done;
	size_t cap = 0;

	*out = (struct profile_view){ .baseline = xstrdup(baseline ? baseline : "baseline") };
	if (rc <= 0)
		return rc;
	out->records = (long)ps.n;
	done = xcalloc(ps.n, sizeof(bool));
	for (size_t i = 0; i < ps.n; i++) {
		struct key_group *gs = NULL;
		size_t ng = 0, gcap = 0;
		if (done[i])
			continue;
		for (size_t j = i; j < ps.n; j++) {
			size_t g;
			if (done[j] || !same_place(&ps.rec[i], &ps.rec[j]))
				continue;
			done[j] = true;
			for (g = 0; g < ng && strcmp(gs[g].first->variant, ps.rec[j].variant); g++)
				;
			if (g == ng) {
				gs = xgrow(gs, &gcap, ng + 1, sizeof(*gs));
				gs[ng++] = (struct key_group){ .first = &ps.rec[j] };
			}
			gs[g].rec = xgrow(gs[g].rec, &gs[g].cap, gs[g].n + 1, sizeof(*gs[g].rec));
			gs[g].rec[gs[g].n++] = &ps.rec[j];
		}
		place_rows(out, &cap, gs, ng, out->baseline);
		for (size_t g = 0; g < ng; g++)
			free(gs[g].rec);
		free(gs);
	}
	free(done);
	profile_set_free(&ps);
	return 1;
}

void profile_view_free(struct profile_view *pv)
{
	for (size_t i = 0; i < pv->n; i++) {
		struct pv_row *r = &pv->rows[i];
		for (size_t k = 0; k < r->nfn; k++)
			free(r->fn[k].name);
		for (size_t k = 0; k < r->nrep; k++)
			free(r->rep[k].name);
		free(r->fn);
		free(r->rep);
		free(r->line);
		free(r->workload);
		free(r->metric);
		free(r->variant);
	}
	free(pv->rows);
	free(pv->baseline);
	*pv = (struct profile_view){ 0 };
}

const struct pv_row *profile_view_find(const struct profile_view *pv, const char *line,
				       const char *workload, int cores, const char *variant,
				       const char *metric)
{
	const struct pv_row *best = NULL;

	for (size_t i = 0; pv && i < pv->n; i++) {
		const struct pv_row *r = &pv->rows[i];
		if (strcmp(r->line, line) || strcmp(r->workload, workload) || r->cores != cores ||
		    strcmp(r->variant, variant))
			continue;
		if (metric && !strcmp(r->metric, metric))
			return r;
		/* else: the workload's own step (lowest marker above 0), then the init's */
		if (!best || (r->marker > 0 && (best->marker == 0 || r->marker < best->marker)))
			best = r;
	}
	return best;
}

char *profile_view_cite(const struct pv_row *row, int top)
{
	char *list = xstrdup(""), *out;

	/* The first always; the next ones while they carry at least 1% each. */
	for (size_t k = 0; k < row->nfn && (int)k < top && row->fn[k].delta > 0 &&
			   (k == 0 || row->fn[k].share >= 0.01); k++) {
		char *more = xasprintf("%s%s%s %.1f%%", list, k ? ", " : "", row->fn[k].name,
				       row->fn[k].share * 100);
		free(list);
		list = more;
	}
	out = xasprintf("%s of %+.2f M guest instructions per repetition (%s, %d round%s)", list,
			row->delta / 1e6, row->metric, row->rounds, row->rounds == 1 ? "" : "s");
	free(list);
	return out;
}

double profile_view_share(const struct pv_row *row, const char *const *patterns)
{
	double s = 0;

	for (size_t k = 0; k < row->nfn; k++)
		for (const char *const *p = patterns; *p; p++)
			if (!fnmatch(*p, row->fn[k].name, 0)) {
				s += row->fn[k].share;
				break;
			}
	return s;
}
