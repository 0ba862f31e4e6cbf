/* `harness report RUN --format mail`: a reply to paste into a list thread, wrapped at 72
 * columns. The seeds' one-line form per metric that matters (each workload's primary
 * metric, workloads/<name>/workload.ini), with the 95% CI, or "within noise" with the
 * interval and the MDE; a compact table per workload; one paragraph of conditions; under
 * TCG one sentence on what the clock measures; and the `harness run` line that reproduces
 * the run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "report/conditions.h"
#include "report/render.h"
#include "report/report_per_patch.h"
#include "report/report_primary.h"
#include "analysis/table.h"
#include "report/report_profile.h"
#include "report/wrap.h"

/* Does the block gs[0..n) (one workload), as --metric leaves it, hold its primary metric?
 * Else every metric of the block matters (imported sets, workloads the harness does not
 * know, --metric naming another). */
static bool matters(const struct report_ctx *ctx, struct ds_group *const *gs, size_t n, const char *primary,
		    const struct ds_group *g)
{
	bool has_primary = false;

	for (size_t i = 0; primary && i < n; i++)
		has_primary |= report_wants(ctx, gs[i]) && !strcmp(gs[i]->metric, primary);
	return !has_primary || !strcmp(g->metric, primary);
}

/* Does the set hold this workload at several vCPU counts? Then the mail names them. */
static bool several_cores(const struct report_ctx *ctx, const char *workload)
{
	int seen = -2;

	for (size_t i = 0; i < ctx->ds.ngroups; i++) {
		const struct ds_group *g = ctx->ds.groups[i];
		if (strcmp(g->workload, workload))
			continue;
		if (seen != -2 && g->cores != seen)
			return true;
		seen = g->cores;
	}
	return false;
}

/* "hackbench", with ", 4 vCPUs", ", kernel 6.12" or ", icount" only where the set has
 * several of them (the conditions paragraph names the one of each). Caller frees. */
static char *mail_place(const struct report_ctx *ctx, const struct ds_group *g)
{
	char *cores = several_cores(ctx, g->workload) && g->cores >= 0 ? xasprintf(" %d vCPUs", g->cores)
									: xstrdup("");
	char *line = ctx->ds.nlines > 1 ? xasprintf(" kernel %s", g->line) : xstrdup("");
	char *clock = ctx->ds.nclocks > 1 ? xasprintf(" %s", g->clock) : xstrdup("");
	char *place = xasprintf("%s%s%s%s", g->workload, cores, line, clock);

	free(cores);
	free(line);
	free(clock);
	return place;
}

/* "hackbench, init_on_free: +7.71% time (st.err 0.45%, 95% CI [+6.80%, +8.62%]; paired,
 * 3 rounds)" or "hackbench, init_on_alloc: time within noise (95% CI [-0.80%, +0.60%],
 * MDE 1.10%)". Caller frees. */
static char *one_line(const struct report_ctx *ctx, const struct group_row *r)
{
	char *place = mail_place(ctx, r->g), *out;
	const char *variant = ctx->ds.variants[r->variant], *problem = group_row_problem(r);
	const struct row_estimate *e = &r->head;
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
	char *est = r->paired ? xasprintf("paired, %ld rounds", r->pe.n_pairs) : xstrdup("Welch");

	if (problem)
		out = xasprintf("%s, %s: %s: %s", place, variant, r->g->metric, problem);
	else if (!isfinite(e->ci95_low_pct))
		out = xasprintf("%s, %s: %s %s (n=%ld, no interval)", place, variant,
				fmt_cost(a, e->slowdown_pct), r->g->metric, r->s.n);
	else if (e->ci95_low_pct <= 0 && e->ci95_high_pct >= 0)
		out = xasprintf("%s, %s: %s within noise (95%% CI %s, MDE %s; %s)", place, variant,
				r->g->metric, fmt_ci(a, e->ci95_low_pct, e->ci95_high_pct),
				fmt_pct_plain(b, e->mde_pct), est);
	else
		out = xasprintf("%s, %s: %s %s (st.err %s, 95%% CI %s; %s)", place, variant,
				fmt_cost(a, e->slowdown_pct), r->g->metric,
				fmt_cost_se(b, e->slowdown_pct, e->se_pct),
				fmt_cost_ci(c, e->slowdown_pct, e->ci95_low_pct, e->ci95_high_pct), est);
	free(est);
	free(place);
	return out;
}

static void one_liners(struct report_ctx *ctx, struct ds_group *const *gs, size_t n, const char *primary,
		       struct group_row *rows)
{
	for (size_t i = 0; i < n; i++) {
		if (!report_wants(ctx, gs[i]) || !matters(ctx, gs, n, primary, gs[i]))
			continue;
		size_t nr = group_rows_opts(&ctx->ds, gs[i], ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
		for (size_t k = 0; k < nr; k++) {
			if (rows[k].status == ROW_IS_BASELINE)
				continue;
			char *line = one_line(ctx, &rows[k]);
			wrap_paragraph(ctx->out, line, "", "  ", MAIL_WIDTH);
			free(line);
			if (primary && !strcmp(gs[i]->metric, primary)) /* --profile: its lines */
				report_profile_mail(ctx, gs[i]->line, gs[i]->workload, gs[i]->cores,
						    ctx->ds.variants[rows[k].variant], primary);
		}
	}
}

/* The block's metrics that matter, each a compact table: variant, mean, cost and 95% CI
 * (the MDE is in the one-liners, where it says what "within noise" could have seen). */
static void compact_tables(struct report_ctx *ctx, struct ds_group *const *gs, size_t n,
			   const char *primary, struct group_row *rows)
{
	static const char *const heads[] = { "variant", "mean", "cost", "95% CI" };
	char b[NUMFMT_SIZE];

	for (size_t i = 0; i < n; i++) {
		struct table t;
		if (!report_wants(ctx, gs[i]) || !matters(ctx, gs, n, primary, gs[i]))
			continue;
		char *place = mail_place(ctx, gs[i]);
		fprintf(ctx->out, "\n%s, %s%s%s%s (%s is better):\n", place, gs[i]->metric,
			*gs[i]->unit ? " [" : "", gs[i]->unit, *gs[i]->unit ? "]" : "",
			gs[i]->lower_is_better ? "lower" : "higher");
		free(place);
		table_init(&t, 4, heads);
		size_t nr = group_rows_opts(&ctx->ds, gs[i], ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
		for (size_t k = 0; k < nr; k++) {
			const struct group_row *r = &rows[k];
			bool ok = r->status == ROW_OK;
			table_cell(&t, "%s", ctx->ds.variants[r->variant]);
			table_cell(&t, "%s", fmt_value(b, r->s.mean));
			table_cell(&t, "%s", r->status == ROW_IS_BASELINE ? "-"
				   : r->status == ROW_BELOW_RESOLUTION ? "below resolution"
				   : r->status == ROW_TOO_FEW_EVENTS ? "too few events"
				   : ok ? fmt_cost(b, r->head.slowdown_pct) : "?");
			table_cell(&t, "%s", ok ? fmt_cost_ci(b, r->head.slowdown_pct, r->head.ci95_low_pct,
							      r->head.ci95_high_pct) : "-");
		}
		table_print_text(&t, ctx->out, "  ");
		table_free(&t);
	}
}

/* One paragraph: CPU and cores, accel, clock, lines and kernels, variants and their
 * command lines, rounds and reps, guest time, host load. */
static char *conditions_paragraph(const struct report_ctx *ctx, const struct report_conditions *c)
{
	char *p = xasprintf("Conditions: %s", c->cpu ? c->cpu : "CPU not recorded"), *next;
	char d[32];

#define ADD(...) (next = xasprintf(__VA_ARGS__), free(p), p = next)
	if (c->cores >= 0)
		ADD("%s, %ld cores", p, c->cores);
	if (c->threads >= 0)
		ADD("%s (%ld threads)", p, c->threads);
	char *guest = conditions_guest(ctx);
	if (guest)
		ADD("%s; %s", p, guest);
	free(guest);
	ADD("%s; accel %s", p, c->accel ? c->accel : "not recorded");
	ADD("%s; clock %s", p, c->clock);
	if (c->qemu) /* under icount a time is this QEMU's count */
		ADD("%s; QEMU %s", p, c->qemu);
	for (size_t i = 0; i < c->nlines; i++)
		ADD("%s; kernel %s%s%s%s%s%s", p, c->lines[i].line, c->lines[i].release ? " (" : "",
		    c->lines[i].release ? c->lines[i].release : "", c->lines[i].release ? ")" : "",
		    c->lines[i].kernels ? ", kernels " : "", c->lines[i].kernels ? c->lines[i].kernels : "");
	ADD("%s; variants", p);
	for (size_t i = 0; i < c->nvariants; i++)
		ADD("%s%s %s (%s)", p, i ? "," : "", c->variants[i].name,
		    c->variants[i].cmdline ? c->variants[i].cmdline : "command line not recorded");
	char *rounds = conditions_rounds(c);
	if (rounds && c->reps >= 0)
		ADD("%s; %s, %s, %ld rep%s per boot", p, rounds, c->order ? c->order : "interleaved",
		    c->reps, c->reps == 1 ? "" : "s");
	free(rounds);
	if (c->params)
		ADD("%s; parameters %s", p, c->params);
	if (c->cells)
		ADD("%s; %zu boots, %s of guest time", p, c->cells, conditions_duration(d, c->guest_seconds));
	ADD("%s; host load during the run: %s.", p, c->host_load ? c->host_load : "not recorded");
#undef ADD
	return p;
}

/* What the clock measures, in one sentence, when the guests ran under TCG. */
static const char *tcg_sentence(const struct report_conditions *c)
{
	if (!c->accel || strcmp(c->accel, "tcg"))
		return NULL;
	if (!strcmp(c->clock, "model"))
		return "The guests ran under TCG with QEMU's instruction counter, and every time here "
		       "is MODELLED, not measured: each timed section's instructions, rep-string bytes "
		       "and cache-model misses priced by a pre-registered model (hardbench's "
		       "docs/model.md).";
	if (!strcmp(c->clock, "icount"))
		return "The guests ran under TCG with QEMU's instruction counter as their clock, "
		       "so a time is a count of guest instructions (1 ns each), not cycles: cache "
		       "and TLB misses cost nothing and rep-string clearing counts every iteration, "
		       "so costs lean high, but they repeat from boot to boot and host to host.";
	return "The guests ran under TCG, an emulated CPU on the host's clock: absolute times "
	       "are emulated and carry host load, and only the ratios between variants mean "
	       "anything.";
}

void report_render_mail(struct report_ctx *ctx)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants ? ctx->ds.nvariants : 1, sizeof(*rows));
	struct report_conditions c;
	char *para;

	conditions_read(ctx, &c);
	fprintf(ctx->out, "hardbench: the cost of each variant against %s\n\n", ctx->ds.variants[ctx->baseline]);
	for (size_t from = 0, to; from < ctx->ds.ngroups; from = to) {
		to = report_block_end(ctx, from);
		char *primary = report_primary_metric(ctx->ds.groups[from]->workload);
		one_liners(ctx, ctx->ds.groups + from, to - from, primary, rows);
		free(primary);
	}
	report_per_patch_mail(ctx);
	for (size_t from = 0, to; from < ctx->ds.ngroups; from = to) {
		to = report_block_end(ctx, from);
		char *primary = report_primary_metric(ctx->ds.groups[from]->workload);
		compact_tables(ctx, ctx->ds.groups + from, to - from, primary, rows);
		free(primary);
	}
	fputc('\n', ctx->out);
	wrap_paragraph(ctx->out, "cost: the slowdown against the baseline (positive is worse), as a "
		       "ratio to the baseline above +100%; 95% CI "
		       "and MDE (the smallest cost this n and spread detect, 80% power) from the paired "
		       "per-round ratios where there are two rounds or more, else from Welch's test.",
		       "", "", MAIL_WIDTH);
	fputc('\n', ctx->out);
	para = conditions_paragraph(ctx, &c);
	wrap_paragraph(ctx->out, para, "", "", MAIL_WIDTH);
	free(para);
	if (tcg_sentence(&c)) {
		fputc('\n', ctx->out);
		wrap_paragraph(ctx->out, tcg_sentence(&c), "", "", MAIL_WIDTH);
	}
	if (c.rerun) {
		fputs("\nTo reproduce it:\n\n", ctx->out);
		wrap_command(ctx->out, c.rerun, "  ", "      ", MAIL_WIDTH);
	} else if (c.imported) {
		fputc('\n', ctx->out);
		wrap_paragraph(ctx->out, "Imported from a CSV; no `harness run` line reproduces it.", "", "", MAIL_WIDTH);
	}
	conditions_free(&c);
	free(rows);
}
