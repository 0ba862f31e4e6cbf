/* Which charts a result set gets, and their data files. Groups of different clocks never
 * share a chart: a chart of a non-host clock has the clock in its file name and title
 * ("slowdown-hackbench-time-icount"). Bars show the headline estimate (analysis/rows.h:
 * paired when the rounds allow, else Welch's) and its 95% CI, the y label naming which. */
#include "plot/plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/rows.h"
#include "analysis/variant_order.h"
#include "common/kernel_line.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/safepath.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "plot/chart.h"
#include "results/dataset.h"
#include "results/store.h"

struct plot_ctx {
	struct dataset ds;
	int baseline;
	const char *out_dir;
	struct chart_dir out; /* out_dir, walked and opened once */
	const char *formats;
	bool *wide; /* per group (display order): part of a per-test section */
	const struct plot_opts *opts;
	struct rows_opts rows; /* imported sets are not paired (as in the report) */
	int drawn, failed, empty;
};

static const char *base_name(const struct plot_ctx *p)
{
	return p->ds.variants[p->baseline];
}

/* Each variant's row in one group (NULL: none, or not comparable), computed once per
 * chart: per variant it cost O(variants^2), minutes with 30,000 variants. On the heap: so
 * many rows do not fit on the stack. */
struct variant_rows {
	struct group_row *rows;
	const struct group_row **by_variant;
};

static struct variant_rows *variant_rows_make(const struct plot_ctx *p, const struct ds_group *const *gs,
					      size_t ng)
{
	struct variant_rows *vr = xcalloc(ng, sizeof(*vr));

	for (size_t g = 0; g < ng; g++) {
		size_t n;
		vr[g].rows = xcalloc(p->ds.nvariants + 1, sizeof(*vr[g].rows));
		vr[g].by_variant = xcalloc(p->ds.nvariants + 1, sizeof(*vr[g].by_variant));
		n = group_rows_opts(&p->ds, gs[g], p->baseline, -1, &p->rows, vr[g].rows);
		for (size_t i = 0; i < n; i++) {
			const struct group_row *r = &vr[g].rows[i];
			if (r->status == ROW_OK && r->variant >= 0 && (size_t)r->variant < p->ds.nvariants)
				vr[g].by_variant[r->variant] = r;
		}
	}
	return vr;
}

static void variant_rows_free(struct variant_rows *vr, size_t ng)
{
	for (size_t g = 0; g < ng; g++) {
		free(vr[g].rows);
		free(vr[g].by_variant);
	}
	free(vr);
}

/* Records a drawn chart of group g (its metric unless a per-test chart) in the index. */
static void index_chart(struct plot_ctx *p, const struct chart *c, const struct ds_group *g, bool metric)
{
	struct plot_index *ix = p->opts->index;

	if (!ix)
		return;
	ix->charts = xgrow(ix->charts, &ix->cap, ix->n + 1, sizeof(*ix->charts));
	ix->charts[ix->n++] = (struct plot_chart){ .base = xstrdup(c->base), .kind = c->template,
		.clock = xstrdup(g->clock), .line = xstrdup(g->line), .workload = xstrdup(g->workload),
		.metric = metric ? xstrdup(g->metric) : NULL, .cores = metric ? -1 : g->cores };
}

void plot_index_free(struct plot_index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		free(ix->charts[i].base);
		free(ix->charts[i].clock);
		free(ix->charts[i].line);
		free(ix->charts[i].workload);
		free(ix->charts[i].metric);
	}
	free(ix->charts);
	*ix = (struct plot_index){ 0 };
}

static void finish(struct plot_ctx *p, struct chart *c, const struct ds_group *g, bool metric)
{
	/* A metric whose baseline mean is 0 (no TLB shootdowns at all, say) has no finite
	 * slowdown: gnuplot would fail on the empty data, and there is nothing to show. */
	if (!c->points) {
		if (!p->opts->quiet)
			hb_info("%s: no finite value to draw (a baseline mean of 0?): no chart", c->base);
		p->empty++;
	} else if (chart_render(c, &p->out, p->formats) == 0) {
		char *fmts = xstrdup(p->formats), *save = NULL;
		for (char *f = strtok_r(fmts, " ", &save); f && !p->opts->quiet; f = strtok_r(NULL, " ", &save))
			printf("%s/%s.%s\n", p->out_dir, c->base, f);
		free(fmts);
		index_chart(p, c, g, metric);
		p->drawn++;
	} else {
		p->failed++;
	}
	chart_free(c);
}

/* A bar or point whose interval reaches below 0 needs the axis below 0; the chart's
 * estimates, for the axis label. */
static void note_row(struct chart *c, const struct group_row *r, unsigned *kinds)
{
	if (!r)
		return;
	if (r->head.slowdown_pct < 0 || r->head.ci95_low_pct < 0)
		c->all_positive = false;
	*kinds |= r->paired ? 1u : 2u;
}

/* The error bar of a row: the headline's 95% CI (asymmetric for a paired estimate, a
 * geometric mean); the point itself when the interval is unknown (one round). */
static void write_interval(FILE *f, const struct group_row *r)
{
	bool known = r && isfinite(r->head.ci95_low_pct) && isfinite(r->head.ci95_high_pct);
	double y = r ? r->head.slowdown_pct : NAN;

	fprintf(f, "\t%.6g\t%.6g\t%.6g", y, known ? r->head.ci95_low_pct : y,
		known ? r->head.ci95_high_pct : y);
}

/* The y label names what the bars are: the headline's 95% CI and its estimate, as the
 * report's "est" column does (kinds: 1 paired, 2 Welch). */
static char *ylabel(const struct ds_group *g, unsigned kinds)
{
	const char *est = kinds == 1 ? "paired" : kinds == 2 ? "Welch" : "paired or Welch, see the table";

	return xasprintf("%s of %s vs baseline [%%] (bars: 95%% CI, %s)",
			 g->lower_is_better ? "slowdown" : "drop", g->metric, est);
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
	struct variant_rows *vr = variant_rows_make(p, (const struct ds_group *const *)gs, ng);
	char *unit = unit_suffix(gs[0]), *tag = clock_tag(gs[0], '-'), *ctag = clock_tag(gs[0], ' ');
	FILE *f;

	c.base = chart_file_name("slowdown-%s-%s%s", gs[0]->workload, gs[0]->metric, tag);
	c.title = xasprintf("%s: %s%s, slowdown vs %s%s", gs[0]->workload, gs[0]->metric, unit,
			    base_name(p), ctag);
	free(tag);
	free(ctag);
	c.xlabel = xstrdup("variant");
	c.series = xcalloc(ng, sizeof(char *));
	for (size_t i = 0; i < ng; i++)
		c.series[c.nseries++] = gs[i]->cores >= 0 ? xasprintf("%d vCPUs", gs[i]->cores)
							  : xstrdup("slowdown");
	free(unit);
	if (!(f = chart_open_data(&p->out, &c))) {
		p->failed++;
		chart_free(&c);
		variant_rows_free(vr, ng);
		return;
	}
	c.all_positive = true;
	fprintf(f, "# variant\tthen per series: slowdown %%\t95%% CI low %%\t95%% CI high %%\n");
	int nclusters = 0;
	unsigned kinds = 0;
	for (size_t v = 0; v < p->ds.nvariants; v++) {
		bool any = false;
		if ((int)v == p->baseline)
			continue;
		for (size_t i = 0; i < ng; i++)
			any |= vr[i].by_variant[v] != NULL;
		if (!any)
			continue;
		nclusters++;
		fprintf(f, "%s", p->ds.variants[v]);
		for (size_t i = 0; i < ng; i++) {
			const struct group_row *r = vr[i].by_variant[v];
			note_row(&c, r, &kinds);
			c.points += r && isfinite(r->head.slowdown_pct);
			write_interval(f, r);
		}
		fputc('\n', f);
	}
	fclose(f);
	c.ylabel = ylabel(gs[0], kinds);
	/* Room for names like "kasan-vmalloc" under each cluster of bars: they ran into each
	 * other at 900 px with seven variants. */
	int wide = 160 + nclusters * (90 + 40 * (int)ng);
	c.width = wide > 900 ? wide : 0;
	finish(p, &c, gs[0], true);
	variant_rows_free(vr, ng);
}

static void cores_chart(struct plot_ctx *p, const struct ds_group **gs, size_t ng)
{
	struct chart c = { .template = "cores" };
	struct variant_rows *vr = variant_rows_make(p, (const struct ds_group *const *)gs, ng);
	char *unit = unit_suffix(gs[0]), *tics = xstrdup("(");
	char *tag = clock_tag(gs[0], '-'), *ctag = clock_tag(gs[0], ' ');
	FILE *f;

	c.base = chart_file_name("cores-%s-%s%s", gs[0]->workload, gs[0]->metric, tag);
	c.title = xasprintf("%s: %s%s, slowdown vs %s by vCPU count%s", gs[0]->workload,
			    gs[0]->metric, unit, base_name(p), ctag);
	free(tag);
	free(ctag);
	c.xlabel = xstrdup("guest vCPUs");
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
	unsigned kinds = 0;
	if (!(f = chart_open_data(&p->out, &c))) {
		p->failed++;
		chart_free(&c);
		variant_rows_free(vr, ng);
		return;
	}
	for (size_t v = 0; v < p->ds.nvariants; v++) {
		if ((int)v == p->baseline)
			continue;
		fprintf(f, "%s# %s: vCPUs\tslowdown %%\t95%% CI low %%\t95%% CI high %%\n", c.nseries ? "\n\n" : "",
			p->ds.variants[v]);
		c.series[c.nseries++] = xstrdup(p->ds.variants[v]);
		for (size_t i = 0; i < ng; i++) {
			const struct group_row *r = vr[i].by_variant[v];
			note_row(&c, r, &kinds);
			c.points += r && isfinite(r->head.slowdown_pct);
			if (r) {
				fprintf(f, "%d", gs[i]->cores);
				write_interval(f, r);
				fputc('\n', f);
			}
		}
	}
	fclose(f);
	c.ylabel = ylabel(gs[0], kinds);
	finish(p, &c, gs[0], true);
	variant_rows_free(vr, ng);
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
	struct variant_rows *vr = variant_rows_make(p, (const struct ds_group *const *)gs, ng);
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
	if (!(f = chart_open_data(&p->out, &c))) {
		p->failed++;
		chart_free(&c);
		variant_rows_free(vr, ng);
		return;
	}
	fprintf(f, "# metric\tthen per variant: mean / baseline mean\n");
	for (size_t i = 0; i < ng; i++) {
		fprintf(f, "%s", gs[i]->metric);
		for (size_t v = 0; v < p->ds.nvariants; v++) {
			const struct group_row *r;
			if ((int)v == p->baseline)
				continue;
			r = vr[i].by_variant[v];
			c.points += r && isfinite(r->c.ratio);
			fprintf(f, "\t%.6g", r ? r->c.ratio : NAN);
		}
		fputc('\n', f);
	}
	fclose(f);
	finish(p, &c, gs[0], false);
	variant_rows_free(vr, ng);
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

/* The canonical variant order (analysis/variant_order.h), as in the report. Imported
 * sets are not paired (a CSV's boot column may number each variant's runs on its own),
 * as in `harness report` without --paired. */
static void order_and_pairing(struct plot_ctx *p, const char *dir, const char *baseline)
{
	json_object *meta = rs_read_meta(dir);

	dataset_canonical_order(&p->ds, meta, baseline);
	p->rows.no_pairing = meta && json_object_object_get_ex(meta, RS_META_IMPORTED, NULL);
	json_object_put(meta);
}

static const char *formats_of(const char *format)
{
	if (!format || !strcmp(format, "both"))
		return "png svg";
	return format;
}

int plot_run(const char *dir, const struct plot_opts *opts)
{
	struct plot_ctx p = { .formats = formats_of(opts->format), .opts = opts };
	char *out = opts->out_dir ? xstrdup(opts->out_dir) : hb_path_join(dir, "plots"), *why = NULL;
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
	order_and_pairing(&p, dir, opts->baseline);
	p.baseline = dataset_pick_baseline(&p.ds, opts->baseline);
	if (!p.ds.samples) {
		hb_error("%s holds no samples to plot", dir);
		rc = HB_EXIT_FAIL;
	} else if (p.baseline < 0) {
		char *list = dataset_variant_list(&p.ds);
		hb_error("plot: --baseline: no '%s' in this result set (accepted: %s)", opts->baseline, list);
		free(list);
		rc = HB_EXIT_USAGE;
	} else if ((p.out.fd = hb_open_dir_checked(out, opts->out_dir ? "--out" : "plot: RUN/plots",
						   HB_SAFE_CREATE | HB_SAFE_OWN, &why)) < 0) {
		/* Scripts and images made as root in a folder someone else can change could
		 * be swapped before gnuplot reads them: refused, as a bad --out. */
		hb_error("%s%s", why, opts->out_dir ? "" : " (--out DIR draws elsewhere)");
		free(why);
		rc = HB_EXIT_USAGE;
	} else {
		p.out_dir = out;
		p.out.path = out;
		p.wide = xcalloc(p.ds.ngroups, sizeof(*p.wide));
		draw_wide_sections(&p);
		draw_metric_charts(&p);
		if (!opts->quiet)
			hb_info("%d charts in %s (scripts and data beside them)%s%s", p.drawn, out,
				p.empty ? "; metrics with nothing to draw named above" : "",
				p.failed ? "; some failed, see above" : "");
		rc = p.failed ? HB_EXIT_FAIL : HB_EXIT_OK;
		free(p.wide);
		close(p.out.fd);
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
