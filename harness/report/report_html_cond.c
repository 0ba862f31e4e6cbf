/* The page's conditions summary: what ran where, how often, for how long. */
#include <string.h>

#include "analysis/html.h"
#include "report/report_html.h"

static void term(FILE *out, const char *dt)
{
	fputs("<dt>", out);
	html_text(out, dt);
	fputs("</dt><dd>", out);
}

static void item(FILE *out, const char *dt, const char *dd)
{
	term(out, dt);
	html_text(out, dd ? dd : "not recorded");
	fputs("</dd>\n", out);
}

static void host_item(FILE *out, const struct report_conditions *c)
{
	term(out, "host");
	html_text(out, c->cpu ? c->cpu : "CPU not recorded");
	if (c->cores >= 0)
		fprintf(out, ", %ld cores", c->cores);
	if (c->threads >= 0)
		fprintf(out, ", %ld threads", c->threads);
	if (c->numa_nodes >= 0)
		fprintf(out, ", %ld NUMA node%s", c->numa_nodes, c->numa_nodes == 1 ? "" : "s");
	if (c->hostname) {
		fputs(" (", out);
		html_text(out, c->hostname);
		fputc(')', out);
	}
	fputs("</dd>\n", out);
}

static void accel_item(FILE *out, const struct report_conditions *c)
{
	term(out, "accel");
	html_text(out, c->accel ? c->accel : "not recorded");
	if (c->accel_reason)
		html_textf(out, " (%s)", c->accel_reason);
	if (c->accel && !strcmp(c->accel, "tcg"))
		fputs(". <strong>Guests ran under TCG (an emulated CPU): absolute times are emulated, "
		      "only ratios between variants mean anything.</strong>", out);
	fputs("</dd>\n", out);
}

static void clock_item(FILE *out, const struct report_conditions *c)
{
	term(out, "clock");
	html_text(out, c->clock);
	if (!strcmp(c->clock, "icount"))
		fputs(": a time is a count of guest instructions (1 ns each at shift 0), not cycles; "
		      "cache and TLB misses cost nothing, rep-string clearing counts every iteration: "
		      "biased upwards, but it repeats from boot to boot and host to host", out);
	else if (!strcmp(c->clock, "host"))
		fputs(": guest time is host time, so host load lands in every sample", out);
	else if (!strcmp(c->clock, "model"))
		fputs(": <strong>modelled</strong> times, not measured ones: the guest ran under icount "
		      "and each time is its section's counts priced by the pre-registered model of "
		      "docs/model.md", out);
	fputs("</dd>\n", out);
	if (c->qemu) {
		term(out, "QEMU");
		html_text(out, c->qemu);
		if (!strcmp(c->clock, "icount"))
			fputs(" (an instruction count is this QEMU's: sets of another version do not "
			      "compare)", out);
		fputs("</dd>\n", out);
	}
}

static void lines_item(FILE *out, const struct report_conditions *c)
{
	term(out, c->nlines == 1 ? "kernel line" : "kernel lines");
	for (size_t i = 0; i < c->nlines; i++) {
		fputs(i ? "<br>" : "", out);
		html_text(out, c->lines[i].line);
		if (c->lines[i].release)
			html_textf(out, " (%s)", c->lines[i].release);
		if (c->lines[i].kernels)
			html_textf(out, ": %s", c->lines[i].kernels);
	}
	fputs("</dd>\n", out);
}

static void variants_item(FILE *out, const struct report_conditions *c)
{
	term(out, "variants");
	fputs("<table class=\"variants\"><thead><tr><th scope=\"col\">variant</th><th scope=\"col\">"
	      "build</th><th scope=\"col\">kernel command line</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < c->nvariants; i++) {
		fputs("<tr><td>", out);
		html_text(out, c->variants[i].name);
		fputs("</td><td>", out);
		html_text(out, c->variants[i].build ? c->variants[i].build : "-");
		fputs("</td><td><code>", out);
		html_text(out, c->variants[i].cmdline ? c->variants[i].cmdline : "-");
		fputs("</code></td></tr>\n", out);
	}
	fputs("</tbody></table></dd>\n", out);
}

static void rounds_item(FILE *out, const struct report_conditions *c)
{
	char d[32], *rounds = conditions_rounds(c);

	term(out, "rounds and reps");
	if (rounds && c->reps >= 0)
		html_textf(out, "%s, %s, %ld rep%s per boot", rounds,
			   c->order ? c->order : "interleaved", c->reps, c->reps == 1 ? "" : "s");
	else
		fputs("not recorded", out);
	free(rounds);
	if (c->params)
		html_textf(out, "; parameters %s", c->params);
	fputs("</dd>\n", out);
	term(out, "duration");
	if (c->cells)
		fprintf(out, "%zu cells, %s of guest time (kernel builds not counted)", c->cells,
			conditions_duration(d, c->guest_seconds));
	else
		fputs("not recorded", out);
	if (c->created)
		html_textf(out, "; started %s", c->created);
	fputs("</dd>\n", out);
	item(out, "host load", c->host_load);
}

void report_html_conditions(const struct report_ctx *ctx, const struct report_conditions *c)
{
	FILE *out = ctx->out;

	fputs("<section id=\"conditions\"><h2>Conditions</h2>\n<dl class=\"cond\">\n", out);
	term(out, "samples");
	fprintf(out, "%ld (baseline: ", ctx->ds.samples);
	html_text(out, ctx->ds.variants[ctx->baseline]);
	fputs(ctx->ds.skipped ? "; corrupt lines skipped)</dd>\n" : ")</dd>\n", out);
	if (c->imported)
		item(out, "imported from", c->imported);
	host_item(out, c);
	accel_item(out, c);
	clock_item(out, c);
	lines_item(out, c);
	variants_item(out, c);
	rounds_item(out, c);
	item(out, "headline", report_headline_rule(ctx));
	item(out, "95% CI, MDE", "the slowdown's 95% confidence interval; the minimum detectable "
	     "effect: the smallest slowdown this n and spread detect (80% power, alpha 0.05)");
	if (c->rerun) {
		term(out, "rerun with");
		fputs("<code>", out);
		html_text(out, c->rerun);
		fputs("</code></dd>\n", out);
	}
	fputs("</dl>\n</section>\n", out);
}
