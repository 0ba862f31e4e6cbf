/* Which charts a result set gets, and their data files. Groups of different clocks never
 * share a chart: a chart of a non-host clock has the clock in its file name and title
 * ("slowdown-hackbench-time-icount"). Bars show the headline estimate (analysis/rows.h:
 * paired when the rounds allow, else Welch's) and its standard error. */
#include "plot/plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rows.h"
#include "common/kernel_line.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "plot/chart.h"
#include "results/dataset.h"
#include "results/store.h"

struct plot_ctx {
	struct dataset ds;
	int baseline;
	const char *out_dir;
	const char *formats;
	bool *wide; /* per group (display order): part of a per-test section */
	struct rows_opts rows; /* imported sets are not paired (as in the report) */
	int drawn, failed, empty;
};

static const char *base_name(const struct plot_ctx *p)
{
	return p->ds.variants[p->baseline];
}

/* The row of variant v in g, or NULL. rows has room for ds.nvariants. */
static const struct group_row *row_of(const struct plot_ctx *p, const struct ds_group *g, int v,
				      struct group_row *rows)
{
	size_t n = group_rows_opts(&p->ds, g, p->baseline, -1, &p->rows, rows);

	for (size_t i = 0; i < n; i++)
		if (rows[i].variant == v && rows[i].status == ROW_OK)
			return &rows[i];
	return NULL;
}

static void finish(struct plot_ctx *p, struct chart *c)
{
	/* A metric whose baseline mean is 0 (no TLB shootdowns at all, say) has no finite
	 * slowdown: gnuplot would fail on the empty data, and there is nothing to show. */
	if (!c->points) {
		hb_info("%s: no finite value to draw (a baseline mean of 0?): no chart", c->base);
		p->empty++;
	} else if (chart_render(c, p->out_dir, p->formats) == 0) {
		char *fmts = xstrdup(p->formats), *save = NULL;
		for (char *f = strtok_r(fmts, " ", &save); f; f = strtok_r(NULL, " ", &save))
			printf("%s/%s.%s\n", p->out_dir, c->base, f);
		free(fmts);
		p->drawn++;
	} else {
		p->failed++;
	}
	chart_free(c);
}

/* A bar or point reaching below 0 (value minus its error bar) needs the axis below 0. */
static void note_sign(struct chart *c, const struct group_row *r)
{
	double se = r && isfinite(r->head.se_pct) ? r->head.se_pct : 0;

	if (r && r->head.slowdown_pct - se < 0)
		c->all_positive = false;
}

static char *ylabel(const struct ds_group *g)
{
	return xasprintf("%s of %s vs baseline [%%] (bars: 1 st.err)",
			 g->lower_is_better ? "slowdown" : "drop", g->metric);
}

/* "" for the host clock and the default line, else "-icount", "-6.12", "-icount-6.12":
 * file names and titles of other clocks' and lines' charts. */
static char *clock_tag(const struct ds_group *g, char sep)
{
	char *clock = strcmp(g->clock, "host") ? xasprintf("%c%s", sep, g->clock) : xstrdup("");
	char *tag = !hb_is_default_line(g->line) ? xasprintf("%s%c%s", clock, sep, g->line)
						      : xstrdup(clock);
	free(clock);
	return tag;
}

static char *unit_suffix(const struct ds_group *g)
{
	return *g->unit ? xasprintf(" [%s]", g->unit) : xstrdup("");
}

/* Groups of one (workload, metric), cores ascending (display order keeps cores sorted). */
static size_t same_metric(const struct plot_ctx *p, const struct ds_group *g, const struct ds_group **out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ds.ngroups; i++)
		if (!p->wide[i] && !strcmp(p->ds.groups[i]->workload, g->workload) &&
		    !strcmp(p->ds.groups[i]->metric, g->metric) && !strcmp(p->ds.groups[i]->clock, g->clock) &&
		    !strcmp(p->ds.groups[i]->line, g->line))
			out[n++] = p->ds.groups[i];
	return n;
}

static void slowdown_chart(struct plot_ctx *p, const struct ds_group **gs, size_t ng)
{
	struct chart c = { .template = "slowdown" };
	struct group_row rows[p->ds.nvariants];
	char *unit = unit_suffix(gs[0]), *tag = clock_tag(gs[0], '-'), *ctag = clock_tag(gs[0], ' ');
	FILE *f;

	c.base = chart_file_name("slowdown-%s-%s%s", gs[0]->workload, gs[0]->metric, tag);
	c.title = xasprintf("%s: %s%s, slowdown vs %s%s", gs[0]->workload, gs[0]->metric, unit,
			    base_name(p), ctag);
	free(tag);
	free(ctag);
	c.xlabel = xstrdup("variant");
	c.ylabel = ylabel(gs[0]);
	c.series = xcalloc(ng, sizeof(char *));
	for (size_t i = 0; i < ng; i++)
		c.series[c.nseries++] = gs[i]->cores >= 0 ? xasprintf("%d vCPUs", gs[i]->cores)
							  : xstrdup("slowdown");
	free(unit);
	if (!(f = chart_open_data(p->out_dir, &c))) {
		p->failed++;
		chart_free(&c);
		return;
	}
	c.all_positive = true;
	fprintf(f, "# variant\tthen per series: slowdown %%\tstandard error %%\n");
	int nclusters = 0;
	for (size_t v = 0; v < p->ds.nvariants; v++) {
		bool any = false;
		if ((int)v == p->baseline)
			continue;
		for (size_t i = 0; i < ng; i++)
			any |= row_of(p, gs[i], (int)v, rows) != NULL;
		if (!any)
			continue;
		nclusters++;
		fprintf(f, "%s", p->ds.variants[v]);
		for (size_t i = 0; i < ng; i++) {
			const struct group_row *r = row_of(p, gs[i], (int)v, rows);
			note_sign(&c, r);
			c.points += r && isfinite(r->head.slowdown_pct);
			fprintf(f, "\t%.6g\t%.6g", r ? r->head.slowdown_pct : NAN,
				r && isfinite(r->head.se_pct) ? r->head.se_pct : 0);
		}
		fputc('\n', f);
	}
	fclose(f);
	/* Room for names like "kasan-vmalloc" under each cluster of bars: they ran into each
	 * other at 900 px with seven variants. */
	int wide = 160 + nclusters * (90 + 40 * (int)ng);
	c.width = wide > 900 ? wide : 0;
	finish(p, &c);
}

static void cores_chart(struct plot_ctx *p, const struct ds_group **gs, size_t ng)
{
	struct chart c = { .template = "cores" };
	struct group_row rows[p->ds.nvariants];
	char *unit = unit_suffix(gs[0]), *tics = xstrdup("(");
	char *tag = clock_tag(gs[0], '-'), *ctag = clock_tag(gs[0], ' ');
	FILE *f;

	c.base = chart_file_name("cores-%s-%s%s", gs[0]->workload, gs[0]->metric, tag);
	c.title = xasprintf("%s: %s%s, slowdown vs %s by vCPU count%s", gs[0]->workload,
			    gs[0]->metric, unit, base_name(p), ctag);
	free(tag);
	free(ctag);
	c.xlabel = xstrdup("guest vCPUs");
	c.ylabel = ylabel(gs[0]);
	for (size_t i = 0; i < ng; i++) {
		char *next = xasprintf("%s%s%d", tics, i ? ", " : "", gs[i]->cores);
		free(tics);
		tics = next;
	}
	c.xtics = xasprintf("%s)", tics);
	free(tics);
	free(unit);
	c.series = xcalloc(p->ds.nvariants, sizeof(char *));
	c.all_positive = true;
	if (!(f = chart_open_data(p->out_dir, &c))) {
		p->failed++;
		chart_free(&c);
		return;
	}
	for (size_t v = 0; v < p->ds.nvariants; v++) {
		if ((int)v == p->baseline)
			continue;
		fprintf(f, "%s# %s: vCPUs\tslowdown %%\tstandard error %%\n", c.nseries ? "\n\n" : "",
			p->ds.variants[v]);
		c.series[c.nseries++] = xstrdup(p->ds.variants[v]);
		for (size_t i = 0; i < ng; i++) {
			const struct group_row *r = row_of(p, gs[i], (int)v, rows);
			note_sign(&c, r);
			c.points += r && isfinite(r->head.slowdown_pct);
			if (r)
				fprintf(f, "%d\t%.6g\t%.6g\n", gs[i]->cores, r->head.slowdown_pct,
					isfinite(r->head.se_pct) ? r->head.se_pct : 0);
		}
	}
	fclose(f);
	finish(p, &c);
}

static size_t longest_metric(struct ds_group *const *gs, size_t ng)
{
	size_t longest = 0;

	for (size_t i = 0; i < ng; i++)
		if (strlen(gs[i]->metric) > longest)
			longest = strlen(gs[i]->metric);
	return longest;
}

static void ratios_chart(struct plot_ctx *p, struct ds_group *const *gs, size_t ng)
{
	struct chart c = { .template = "ratios" };
	struct group_row rows[p->ds.nvariants];
	FILE *f;

	char *tag = clock_tag(gs[0], '-'), *ctag = clock_tag(gs[0], ' ');

	c.base = gs[0]->cores >= 0 ? chart_file_name("ratios-%s-c%d%s", gs[0]->workload, gs[0]->cores, tag)
				   : chart_file_name("ratios-%s%s", gs[0]->workload, tag);
	c.title = gs[0]->cores >= 0 ? xasprintf("%s, %d vCPUs: per-test ratio to %s%s", gs[0]->workload,
						gs[0]->cores, base_name(p), ctag)
				    : xasprintf("%s: per-test ratio to %s%s", gs[0]->workload, base_name(p), ctag);
	free(tag);
	free(ctag);
	c.xlabel = xstrdup("test (metric)");
	/* Tics are rotated 45 degrees: room below for the longest name, width for many tests. */
	c.bmargin = (int)(0.36 * (double)longest_metric(gs, ng)) + 3;
	c.height = 420 + 18 * c.bmargin;
	c.width = 200 + 60 * (int)ng > 900 ? 200 + 60 * (int)ng : 900;
	c.ylabel = xasprintf("mean / %s mean (x, log scale)", base_name(p));
	c.series = xcalloc(p->ds.nvariants, sizeof(char *));
	for (size_t v = 0; v < p->ds.nvariants; v++)
		if ((int)v != p->baseline)
			c.series[c.nseries++] = xstrdup(p->ds.variants[v]);
	if (!(f = chart_open_data(p->out_dir, &c))) {
		p->failed++;
		chart_free(&c);
		return;
	}
	fprintf(f, "# metric\tthen per variant: mean / baseline mean\n");
	for (size_t i = 0; i < ng; i++) {
		fprintf(f, "%s", gs[i]->metric);
		for (size_t v = 0; v < p->ds.nvariants; v++) {
			const struct group_row *r;
			if ((int)v == p->baseline)
				continue;
			r = row_of(p, gs[i], (int)v, rows);
			c.points += r && isfinite(r->c.ratio);
			fprintf(f, "\t%.6g", r ? r->c.ratio : NAN);
		}
		fputc('\n', f);
	}
	fclose(f);
	finish(p, &c);
}

/* Per-test sections get a ratio chart; their groups get no slowdown charts. */
static void draw_wide_sections(struct plot_ctx *p)
{
	for (size_t from = 0, to; from < p->ds.ngroups; from = to) {
		to = ds_section_end(&p->ds, from);
		if (!ds_section_is_wide(p->ds.groups, from, to))
			continue;
		for (size_t i = from; i < to; i++)
			p->wide[i] = true;
		ratios_chart(p, p->ds.groups + from, to - from);
	}
}

static void draw_metric_charts(struct plot_ctx *p)
{
	const struct ds_group **gs = xcalloc(p->ds.ngroups, sizeof(*gs));

	for (size_t i = 0; i < p->ds.ngroups; i++) {
		size_t n;
		if (p->wide[i])
			continue;
		n = same_metric(p, p->ds.groups[i], gs);
		if (gs[0] != p->ds.groups[i])
			continue; /* drawn with the first group of this workload and metric */
		slowdown_chart(p, gs, n);
		if (n >= 2 && gs[0]->cores >= 0)
			cores_chart(p, gs, n);
	}
	free(gs);
}

/* Imported sets are not paired (a CSV's boot column may number each variant's runs on
 * its own), as in `harness report` without --paired. */
static bool is_imported(const char *dir)
{
	json_object *meta = rs_read_meta(dir);
	bool imported = meta && json_object_object_get_ex(meta, RS_META_IMPORTED, NULL);

	json_object_put(meta);
	return imported;
}

static const char *formats_of(const char *format)
{
	if (!format || !strcmp(format, "both"))
		return "png svg";
	return format;
}

int plot_run(const char *dir, const struct plot_opts *opts)
{
	struct plot_ctx p = { .formats = formats_of(opts->format) };
	char *out = opts->out_dir ? xstrdup(opts->out_dir) : hb_path_join(dir, "plots");
	int rc = HB_EXIT_OK;

	if (!hb_have_program("gnuplot")) {
		hb_error("gnuplot not found on PATH (Debian: apt-get install gnuplot-nox)");
		free(out);
		return HB_EXIT_FAIL;
	}
	if (dataset_load(&p.ds, dir) < 0) {
		free(out);
		return HB_EXIT_FAIL;
	}
	p.baseline = dataset_pick_baseline(&p.ds, opts->baseline);
	p.rows.no_pairing = is_imported(dir);
	if (!p.ds.samples) {
		hb_error("%s holds no samples to plot", dir);
		rc = HB_EXIT_FAIL;
	} else if (p.baseline < 0) {
		char *list = dataset_variant_list(&p.ds);
		hb_error("plot: --baseline: no '%s' in this result set (accepted: %s)", opts->baseline, list);
		free(list);
		rc = HB_EXIT_USAGE;
	} else if (hb_mkdir_p(out, 0755) < 0) {
		hb_error("cannot create %s: %s", out, strerror(errno));
		rc = HB_EXIT_FAIL;
	} else {
		p.out_dir = out;
		p.wide = xcalloc(p.ds.ngroups, sizeof(*p.wide));
		draw_wide_sections(&p);
		draw_metric_charts(&p);
		hb_info("%d charts in %s (scripts and data beside them)%s%s", p.drawn, out,
			p.empty ? "; metrics with nothing to draw named above" : "",
			p.failed ? "; some failed, see above" : "");
		rc = p.failed ? HB_EXIT_FAIL : HB_EXIT_OK;
		free(p.wide);
	}
	dataset_free(&p.ds);
	free(out);
	return rc;
}

int plot_run_dir(const char *dir, const char *out_dir, const char *fmt)
{
	struct plot_opts opts = { .out_dir = out_dir, .format = fmt };
	return plot_run(dir, &opts);
}
