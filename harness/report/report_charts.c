/* Charts for the page (report_charts.h). */
#include "report/report_charts.h"

#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/spawn.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"

#define TMP_PREFIX "hardbench-report-"

void report_charts_draw(const struct report_ctx *ctx, struct report_charts *rc)
{
	*rc = (struct report_charts){ 0 };
	if (!hb_have_program("gnuplot")) {
		rc->none_why = "gnuplot is not installed (Debian: gnuplot-nox), so this page has no charts";
		return;
	}
	rc->dir = hb_mkdtemp_owned(TMP_PREFIX);
	if (!rc->dir) {
		rc->none_why = "no temporary folder for the charts could be made";
		return;
	}
	struct plot_opts po = { .out_dir = rc->dir, .format = "svg", .baseline = ctx->opts->baseline,
				.quiet = true, .index = &rc->ix };
	if (plot_run(ctx->dir, &po) != 0)
		rc->none_why = "gnuplot failed on some charts (named on stderr)";
}

/* gnuplot's SVG is static drawing; anything else in it did not come from gnuplot. */
static bool is_inert(const char *svg)
{
	static const char *const active[] = { "<script", "<foreignobject", "javascript:", " on", "<iframe",
					      "<!entity", NULL };
	char *lower = xstrdup(svg);
	bool inert = true;

	for (char *p = lower; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	/* " on" would match text; only an attribute (" onload=") counts. */
	for (size_t i = 0; active[i] && inert; i++) {
		for (const char *hit = strstr(lower, active[i]); hit && inert; hit = strstr(hit + 1, active[i])) {
			if (strcmp(active[i], " on"))
				inert = false;
			else
				inert = strspn(hit + 3, "abcdefghijklmnopqrstuvwxyz") == 0 ||
					hit[3 + strspn(hit + 3, "abcdefghijklmnopqrstuvwxyz")] != '=';
		}
	}
	free(lower);
	return inert;
}

char *report_chart_svg(const struct report_charts *rc, const struct plot_chart *ch)
{
	char *path = xasprintf("%s/%s.svg", rc->dir, ch->base);
	char *text = hb_read_file(path, NULL);
	char *start = text ? strstr(text, "<svg") : NULL;
	char *svg = NULL;

	if (start && is_inert(start))
		svg = xstrdup(start); /* the XML prolog and DOCTYPE do not belong inside HTML */
	else if (text)
		hb_warn("%s: not inlined (not a plain gnuplot SVG)", path);
	free(text);
	free(path);
	return svg;
}

void report_charts_free(struct report_charts *rc)
{
	if (rc->dir)
		hb_remove_tree(rc->dir);
	free(rc->dir);
	plot_index_free(&rc->ix);
	*rc = (struct report_charts){ 0 };
}
