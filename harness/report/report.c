/* The report's dispatcher: loads the run, resolves the options against it and hands it
 * to the renderer of the chosen format (render.h) or to the seeds comparison. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/safepath.h"
#include "common/xalloc.h"
#include "analysis/variant_order.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "report/report_profile.h"
#include "analysis/profile_view.h"
#include "seeds/seeds_report.h"
#include "results/store.h"

/* Is some group's field equal to value? For --metric / --workload validation. */
static bool has_name(const struct dataset *ds, const char *value, bool metric)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		if (!strcmp(metric ? ds->groups[i]->metric : ds->groups[i]->workload, value))
			return true;
	return false;
}

static char *name_list(const struct dataset *ds, bool metric)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < ds->ngroups; i++) {
		const char *name = metric ? ds->groups[i]->metric : ds->groups[i]->workload;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(name, metric ? ds->groups[j]->metric : ds->groups[j]->workload);
		if (!seen) {
			char *next = xasprintf("%s%s%s", out, *out ? ", " : "", name);
			free(out);
			out = next;
		}
	}
	return out;
}

static int bad_option(const char *option, const char *value, char *accepted)
{
	hb_error("report: %s: no '%s' in this result set (accepted: %s)", option, value, accepted);
	free(accepted);
	return HB_EXIT_USAGE;
}

/* Runs pair their rounds; an imported set only when asked, and only if it has rounds. */
static int resolve_pairing(struct report_ctx *ctx)
{
	bool imported = ctx->meta && json_object_object_get_ex(ctx->meta, RS_META_IMPORTED, NULL);

	if (ctx->opts->paired && !dataset_has_rounds(&ctx->ds)) {
		hb_error("report: --paired: %s has no boot rounds to pair (accepted: a set whose "
			 "samples carry \"boot\", e.g. an import of a CSV with a boot column)", ctx->dir);
		return HB_EXIT_USAGE;
	}
	ctx->rows.no_pairing = imported && !ctx->opts->paired;
	return HB_EXIT_OK;
}

static int resolve_options(struct report_ctx *ctx)
{
	const struct report_opts *o = ctx->opts;

	ctx->baseline = dataset_pick_baseline(&ctx->ds, o->baseline);
	if (ctx->baseline < 0)
		return bad_option("--baseline", o->baseline, dataset_variant_list(&ctx->ds));
	ctx->ratio_to = o->ratio_to ? dataset_variant(&ctx->ds, o->ratio_to) : -1;
	if (o->ratio_to && ctx->ratio_to < 0)
		return bad_option("--ratio-to", o->ratio_to, dataset_variant_list(&ctx->ds));
	if (o->metric && !has_name(&ctx->ds, o->metric, true))
		return bad_option("--metric", o->metric, name_list(&ctx->ds, true));
	if (o->workload && !has_name(&ctx->ds, o->workload, false))
		return bad_option("--workload", o->workload, name_list(&ctx->ds, false));
	return resolve_pairing(ctx);
}

int report_write_html(const char *dir)
{
	struct report_opts opts = { .format = REPORT_HTML };
	char *page = NULL, *path = hb_path_join(dir, "report.html");
	size_t len = 0;
	FILE *out = open_memstream(&page, &len);
	int rc;

	if (!out)
		hb_fatal("out of memory: open_memstream");
	char *why = NULL;
	int dirfd = -1;

	rc = report_run_dir(dir, &opts, out);
	fclose(out);
	/* The set's folder walked from "/" (common/safepath.h), the page made through it. */
	if (rc == HB_EXIT_OK && (dirfd = hb_open_dir_checked(dir, "result set", HB_SAFE_OWN, &why)) < 0) {
		hb_error("%s", why);
		free(why);
		rc = HB_EXIT_FAIL;
	} else if (rc == HB_EXIT_OK && hb_write_file_at(dirfd, "report.html", page, len) < 0) {
		hb_error("cannot write %s: %s", path, strerror(errno));
		rc = HB_EXIT_FAIL;
	} else if (rc == HB_EXIT_OK) {
		hb_info("report page: %s", path);
	}
	if (dirfd >= 0)
		close(dirfd);
	free(page);
	free(path);
	return rc;
}

int report_run_dir(const char *dir, const struct report_opts *opts, FILE *out)
{
	struct report_ctx ctx = { .opts = opts, .dir = dir, .out = out };
	struct profile_view pv = { 0 };
	int rc;

	if (dataset_load(&ctx.ds, dir) < 0)
		return HB_EXIT_FAIL;
	if (!ctx.ds.samples) {
		hb_error("%s/%s holds no samples%s", dir, RS_SAMPLES_FILE,
			 ctx.ds.skipped ? " (all lines were corrupt)" : "");
		dataset_free(&ctx.ds);
		return HB_EXIT_FAIL;
	}
	ctx.meta = rs_read_meta(dir);
	dataset_canonical_order(&ctx.ds, ctx.meta, opts->baseline);
	if (opts->seeds) {
		/* The figures name their own baselines and workloads: no resolve_options. Their
		 * icount notes cite the set's profile against the baseline where it has one. */
		if (profile_view_load(dir, "baseline", &pv) > 0)
			ctx.profile = &pv;
		rc = seeds_report_run(&ctx, opts->seeds);
		profile_view_free(&pv);
		json_object_put(ctx.meta);
		dataset_free(&ctx.ds);
		return rc;
	}
	rc = resolve_options(&ctx);
	if (rc == HB_EXIT_OK && profile_view_load(dir, ctx.ds.variants[ctx.baseline], &pv) > 0)
		ctx.profile = &pv;
	if (rc == HB_EXIT_OK) {
		report_renderer(opts->format)->report(&ctx);
		if (opts->format == REPORT_TEXT || opts->format == REPORT_MARKDOWN)
			report_hosts(&ctx);
	}
	profile_view_free(&pv);
	json_object_put(ctx.meta);
	dataset_free(&ctx.ds);
	return rc;
}
