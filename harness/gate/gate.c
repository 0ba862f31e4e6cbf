#include "gate/gate.h"
#include "stats/paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/kernel_line.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "results/provenance.h"
#include "results/store.h"

static const char *const outcome_names[] = { "ok", "regression", "improvement", "not comparable" };

char *gate_entry_name(const struct gate_entry *e)
{
	char *cores = e->cores >= 0 ? xasprintf(" cores=%d", e->cores) : xstrdup("");
	char *clock = strcmp(e->clock, "host") ? xasprintf(" clock=%s", e->clock) : xstrdup("");
	char *line = !hb_is_default_line(e->line) ? xasprintf(" kernel=%s", e->line) : xstrdup("");
	char *name = xasprintf("%s %s%s%s%s %s", e->workload, e->metric, cores, clock, line, e->variant);

	free(cores);
	free(clock);
	free(line);
	return name;
}

static bool same_key(const struct gate_entry *a, const struct gate_entry *b)
{
	return a->cores == b->cores && !strcmp(a->clock, b->clock) && !strcmp(a->line, b->line) &&
	       !strcmp(a->workload, b->workload) && !strcmp(a->metric, b->metric) &&
	       !strcmp(a->variant, b->variant);
}

void gate_judge(const struct gate_entry *run, const struct gate_entry *ref,
		const struct gate_opts *opts, struct gate_result *out)
{
	struct comparison c;
	double mde;

	*out = (struct gate_result){ .run = run, .ref = ref, .outcome = GATE_NOT_COMPARABLE,
				     .slowdown_pct = NAN, .p_value = NAN, .ci95_low_pct = NAN,
				     .ci95_high_pct = NAN };
	if (strcmp(run->unit, ref->unit) || run->lower_is_better != ref->lower_is_better) {
		out->why = "unit or direction differs from the reference";
		return;
	}
	if (stats_compare(&run->s, &ref->s, run->lower_is_better, &c) < 0) {
		out->why = "reference mean is 0: no relative change";
		return;
	}
	out->slowdown_pct = c.slowdown_pct;
	out->p_value = c.p_value;
	stats_unpaired_interval(&run->s, &ref->s, &c, &out->ci95_low_pct, &out->ci95_high_pct, &mde);
	if (isnan(out->p_value)) {
		out->why = "needs n >= 2 on both sides for a significance test";
		return;
	}
	out->outcome = GATE_OK;
	if (out->p_value < opts->alpha && out->slowdown_pct > opts->max_slowdown_pct)
		out->outcome = GATE_REGRESSION;
	else if (out->p_value < opts->alpha && out->slowdown_pct < -opts->max_slowdown_pct)
		out->outcome = GATE_IMPROVEMENT;
}

/* "n=6", or "4 paired rounds" where the cost is the paired estimate. */
static const char *side_n(char *buf, const struct gate_entry *e)
{
	if (e->cost_paired)
		snprintf(buf, NUMFMT_SIZE, "%ld paired rounds", e->cost_pairs);
	else
		snprintf(buf, NUMFMT_SIZE, "n=%ld", e->s.n);
	return buf;
}

static void print_result(FILE *out, const struct gate_result *r)
{
	char *name = gate_entry_name(r->run);
	char pct[NUMFMT_SIZE], p[NUMFMT_SIZE], m1[NUMFMT_SIZE], m2[NUMFMT_SIZE], ci[NUMFMT_SIZE];

	fprintf(out, "%-15s%s: ", outcome_names[r->outcome], name);
	if (isfinite(r->slowdown_pct))
		fprintf(out, "%s", fmt_pct(pct, r->slowdown_pct));
	fmt_ci(ci, r->ci95_low_pct, r->ci95_high_pct);
	if (r->outcome == GATE_NOT_COMPARABLE)
		fprintf(out, "%s(%s)\n", isfinite(r->slowdown_pct) ? " " : "", r->why);
	else if (r->run_ratio > 0)
		fprintf(out, " cost (%s; %.4gx baseline vs %.4gx in the reference, %s vs %s; "
			"95%% CI %s)\n", fmt_p_eq(p, r->p_value), r->run_ratio, r->ref_ratio,
			side_n(m1, r->run), side_n(m2, r->ref), ci);
	else
		fprintf(out, " (%s; mean %s vs %s, n=%ld vs %ld; 95%% CI %s)\n", fmt_p_eq(p, r->p_value),
			fmt_value(m1, r->run->s.mean), fmt_value(m2, r->ref->s.mean), r->run->s.n,
			r->ref->s.n, ci);
	free(name);
}

static const struct gate_entry *find(const struct gate_set *set, const struct gate_entry *e)
{
	for (size_t i = 0; i < set->n; i++)
		if (same_key(&set->e[i], e))
			return &set->e[i];
	return NULL;
}

static void print_missing(FILE *out, const struct gate_set *run, const struct gate_set *ref)
{
	for (size_t i = 0; i < ref->n; i++) {
		char *name;
		if (find(run, &ref->e[i]))
			continue;
		name = gate_entry_name(&ref->e[i]);
		fprintf(out, "%-15s%s: in the reference, not in this run\n", "missing", name);
		free(name);
	}
}

static void print_summary(FILE *out, const struct gate_result *res, size_t n,
			  const struct gate_opts *opts)
{
	size_t count[4] = { 0 };

	for (size_t i = 0; i < n; i++)
		count[res[i].outcome]++;
	fprintf(out, "gate: %zu compared: %zu regression%s, %zu improvement%s, %zu ok, %zu not comparable "
		"(max slowdown %g%%, alpha %g)\n", n, count[GATE_REGRESSION],
		count[GATE_REGRESSION] == 1 ? "" : "s", count[GATE_IMPROVEMENT],
		count[GATE_IMPROVEMENT] == 1 ? "" : "s", count[GATE_OK], count[GATE_NOT_COMPARABLE],
		opts->max_slowdown_pct, opts->alpha);
}

static bool has_variant(const struct gate_set *set, const char *variant)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->e[i].variant, variant))
			return true;
	return false;
}

/* Instruction counts of two QEMU versions do not compare; host times only warn. */
static int check_qemu(const struct gate_set *run, const struct gate_set *ref)
{
	char *why = NULL;
	int rc = rs_qemu_check(run->meta, ref->meta, "the run", "the reference", &why);

	if (rc < 0)
		hb_error("gate: %s", why);
	else if (rc > 0)
		hb_warn("gate: %s", why);
	free(why);
	return rc < 0 ? -1 : 0;
}

static int judge_all(const struct gate_set *run, const struct gate_set *ref,
		     const struct gate_opts *opts, FILE *out)
{
	if (strcmp(run->clock, ref->clock)) {
		hb_error("gate: the run was measured with the %s clock, the reference with the %s clock: "
			 "they do not compare (accepted: a reference measured with the same --clock)",
			 run->clock, ref->clock);
		return HB_EXIT_USAGE;
	}
	if (check_qemu(run, ref) < 0)
		return HB_EXIT_USAGE;
	if (opts->relative_to && (!has_variant(run, opts->relative_to) || !has_variant(ref, opts->relative_to))) {
		hb_error("gate: --relative: no variant '%s' in %s (accepted: a variant both sets hold)",
			 opts->relative_to, has_variant(run, opts->relative_to) ? "the reference" : "the run");
		return HB_EXIT_USAGE;
	}
	struct gate_result *res = xcalloc(run->n, sizeof(*res));
	size_t n = 0;
	bool regressed = false;
	int rc;

	for (size_t i = 0; i < run->n; i++) {
		const struct gate_entry *match = find(ref, &run->e[i]);
		if (!match)
			continue;
		if (opts->relative_to && !strcmp(run->e[i].variant, opts->relative_to))
			continue; /* the baseline is what the others are measured against */
		if (opts->relative_to)
			gate_judge_relative(run, ref, &run->e[i], opts->relative_to, opts, &res[n]);
		else
			gate_judge(&run->e[i], match, opts, &res[n]);
		print_result(out, &res[n]);
		regressed |= res[n++].outcome == GATE_REGRESSION;
	}
	print_missing(out, run, ref);
	if (!n) {
		hb_error("gate: no (workload, metric, cores, variant) in common between the run and the "
			 "reference: nothing to compare");
		free(res);
		return HB_EXIT_USAGE;
	}
	print_summary(out, res, n, opts);
	rc = regressed ? HB_EXIT_FAIL : HB_EXIT_OK;
	if (opts->junit && gate_write_junit(opts->junit, res, n, opts) < 0)
		rc = HB_EXIT_FAIL;
	free(res);
	return rc;
}

int gate_run(const char *run_dir, const char *ref_path, const struct gate_opts *opts, FILE *out)
{
	struct gate_set run, ref;
	int rc;

	if (gate_load(run_dir, opts->relative_to, &run) < 0)
		return HB_EXIT_FAIL;
	if (gate_load(ref_path, opts->relative_to, &ref) < 0) {
		gate_set_free(&run);
		return HB_EXIT_FAIL;
	}
	rc = judge_all(&run, &ref, opts, out);
	gate_set_free(&run);
	gate_set_free(&ref);
	return rc;
}
