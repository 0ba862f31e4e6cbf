/* The header of the text and markdown reports: the set, its accel, QEMU and clock (what its
 * numbers are), and which estimate the headline figures use. meta.json keys read here:
 * see results/store.h (RS_META_*). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/report_ctx.h"
#include "results/provenance.h"
#include "results/store.h"

static json_object *meta_get(const struct report_ctx *ctx, const char *key)
{
	json_object *v = NULL;
	return ctx->meta && json_object_object_get_ex(ctx->meta, key, &v) ? v : NULL;
}

__attribute__((format(printf, 3, 4))) static void line(const struct report_ctx *ctx, bool md,
						       const char *fmt, ...)
{
	va_list ap;

	fputs(md ? "- " : "", ctx->out);
	va_start(ap, fmt);
	vfprintf(ctx->out, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->out);
}

static void accel_lines(const struct report_ctx *ctx, bool md)
{
	json_object *accel = meta_get(ctx, RS_META_ACCEL), *why = meta_get(ctx, RS_META_ACCEL_REASON);

	if (!accel)
		return;
	line(ctx, md, "accel: %s%s%s%s", json_object_get_string(accel), why ? " (" : "",
	     why ? json_object_get_string(why) : "", why ? ")" : "");
	if (!strcmp(json_object_get_string(accel), "tcg"))
		line(ctx, md, "WARNING: guests ran under TCG (emulated CPU): absolute times are "
		     "emulated; only ratios between variants mean anything");
}

/* "2^0 ns" from meta.json's clock.shift; "2^shift ns" when the set does not say. */
static char *icount_tick(const struct report_ctx *ctx)
{
	json_object *shift = NULL;

	if (json_object_object_get_ex(meta_get(ctx, RS_META_CLOCK), "shift", &shift) &&
	    json_object_is_type(shift, json_type_int))
		return xasprintf("2^%d ns", json_object_get_int(shift));
	return xstrdup("2^shift ns");
}

/* What a number of this set is: instruction counts are not times, and say how they lean. */
static void clock_lines(const struct report_ctx *ctx, bool md)
{
	const char *clock = report_clock(ctx);
	bool icount = !strcmp(clock, "icount"), model = !strcmp(clock, "model");
	char *tick;

	if (!strcmp(clock, "mixed")) {
		char *list = xstrdup("");
		for (size_t i = 0; i < ctx->ds.nclocks; i++) {
			char *next = xasprintf("%s%s%s", list, i ? ", " : "", ctx->ds.clocks[i]);
			free(list);
			list = next;
			icount |= !strcmp(ctx->ds.clocks[i], "icount");
			model |= !strcmp(ctx->ds.clocks[i], "model");
		}
		line(ctx, md, "clocks: %s: their groups are shown apart and never compared", list);
		free(list);
	} else if (!icount && !model) {
		line(ctx, md, "clock: %s (guest time is host time: host load lands in every sample)", clock);
	}
	if (model)
		line(ctx, md, "clock: model: MODELLED times, not measured ones: the guest ran under icount "
		     "and each time is its section's instructions, rep-string bytes and cache-model "
		     "misses priced by the pre-registered model of docs/model.md (constants in meta.json)");
	if (!icount)
		return;
	tick = icount_tick(ctx);
	line(ctx, md, "clock: icount: a time is a count of guest instructions (%s each), not cycles; "
	     "rep-string clearing counts every iteration: biased, but reproducible", tick);
	free(tick);
}

static const char *member_string(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		? json_object_get_string(v) : NULL;
}

/* Which QEMU ran the guests (results/provenance.h); sets from before the record say
 * nothing. Under icount it is part of what a number means. */
static void qemu_lines(const struct report_ctx *ctx, bool md)
{
	json_object *q = meta_get(ctx, RS_META_QEMU), *plugins = NULL;
	const char *v = rs_qemu_version(ctx->meta), *cpu = member_string(q, "cpu");
	char *list = xstrdup("");

	if (!v)
		goto out;
	if (json_object_object_get_ex(q, "plugins", &plugins) && json_object_is_type(plugins, json_type_array))
		for (size_t i = 0; i < json_object_array_length(plugins); i++) {
			char *next = xasprintf("%s%s%s", list, i ? ", " : "",
					       json_object_get_string(json_object_array_get_idx(plugins, i)));
			free(list);
			list = next;
		}
	line(ctx, md, "qemu: %s, -cpu %s, TCG plugins: %s", v, cpu ? cpu : "?", *list ? list : "none");
out:
	free(list);
}

/* How the clock was chosen (meta.json clock.asked, .why, .workloads; sets from before
 * --clock auto say nothing): the run's answer, then each workload that differs. */
static void choice_lines(const struct report_ctx *ctx, bool md)
{
	json_object *clock = meta_get(ctx, RS_META_CLOCK), *ws = NULL;
	const char *asked = member_string(clock, "asked"), *why = member_string(clock, "why");

	if (!asked || !why)
		return;
	line(ctx, md, "clock chosen: --clock %s: %s", asked, why);
	if (!json_object_object_get_ex(clock, "workloads", &ws) || !json_object_is_type(ws, json_type_object))
		return;
	json_object_object_foreach(ws, name, w) {
		const char *its = member_string(w, "why"), *its_clock = member_string(w, "name");
		if (its && its_clock && strcmp(its, why))
			line(ctx, md, "clock chosen for %s: %s (%s)", name, its_clock, its);
	}
}

/* Every workload of the set measured under icount (meta.json "clock"). */
static bool all_icount(const struct report_ctx *ctx)
{
	const char *name = member_string(meta_get(ctx, RS_META_CLOCK), "name");
	return name && !strcmp(name, "icount");
}

void report_text_header(const struct report_ctx *ctx, bool md)
{
	json_object *imported = meta_get(ctx, RS_META_IMPORTED);

	fprintf(ctx->out, md ? "## hardbench report: %s\n\n" : "hardbench report: %s\n", ctx->dir);
	fprintf(ctx->out, "%s%ld samples", md ? "- " : "", ctx->ds.samples);
	if (ctx->ds.skipped)
		fprintf(ctx->out, ", %ld corrupt lines skipped", ctx->ds.skipped);
	fprintf(ctx->out, "; baseline: %s\n", ctx->ds.variants[ctx->baseline]);
	if (imported)
		line(ctx, md, "imported from %s", json_object_get_string(imported));
	accel_lines(ctx, md);
	qemu_lines(ctx, md);
	clock_lines(ctx, md);
	choice_lines(ctx, md);
	/* Under icount every vCPU runs in one host thread: sharing cores adds no noise there. */
	if (json_object_get_boolean(meta_get(ctx, RS_META_OVERCOMMIT)) && !all_icount(ctx))
		line(ctx, md, "NOTE: guests had more vCPUs than free host cores (overcommit): "
		     "expect more noise");
	int shared = json_object_get_int(meta_get(ctx, RS_META_SHARED_CORES));
	if (shared > 0)
		line(ctx, md, "NOTE: %d boots had vCPUs on cores another hardbench guest held: "
		     "expect more noise", shared);
	line(ctx, md, "headline: %s", report_headline_rule(ctx));
	line(ctx, md, "%s", "95% CI: the slowdown's confidence interval; MDE: the smallest slowdown "
	     "this n and spread detect (80% power, alpha 0.05)");
	fputc('\n', ctx->out);
}
