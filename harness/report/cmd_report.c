/* harness report RUN [--baseline V] [--format F] [--metric M] [--workload W]
 *                    [--ratio-to V] [--paired] [--layout auto|long|wide] [--against-seeds[=PATH]]
 * harness report RUN1 RUN2 ... --compare [--max-slowdown PCT] [--alpha A] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "report/compare.h"
#include "report/report.h"

struct report_args {
	struct report_opts opts;
	bool layout_given;
	char *seeds;           /* --against-seeds, resolved to a path */
	bool compare;
	double max_slowdown_pct, alpha; /* --compare: the gate's thresholds */
};

static int layout_given(void *base, const char *value, char **why)
{
	(void)value, (void)why;
	((struct report_args *)base)->layout_given = true;
	return 0;
}

/* --against-seeds[=PATH]; the default data: every workloads/<name>/published.json. */
static int set_seeds(void *base, const char *value, char **why)
{
	struct report_args *a = base;

	if (value && !*value) {
		*why = xasprintf("report: --against-seeds= needs a PATH (accepted: a published.json or "
				 "a folder of <workload>/published.json)");
		return -1;
	}
	free(a->seeds);
	a->seeds = value ? xstrdup(value) : hb_path_join(hb_source_dir(), "workloads");
	return 0;
}

static const char *const layouts[] = { "auto", "long", "wide", NULL };

#define REP(f) offsetof(struct report_args, f)

static const struct hb_option report_options[] = {
	{ "baseline", 0, HB_OPT_STRING, "VARIANT", "compare with this variant (default: 'baseline',\n"
	  "else the first)", .off = REP(opts.baseline),
	  .group = HB_OG_WHAT, .complete = HB_CMP_VARIANTS },
	{ "format", 0, HB_OPT_CHOICE, "FORMAT", "text, markdown, csv, json, html (one\n"
	  "self-contained page) or mail (72 columns, for\na list reply)", .choices = report_format_names,
	  .off = REP(opts.format), .def = "text", .group = HB_OG_WHERE },
	{ "metric", 0, HB_OPT_STRING, "METRIC", "only this metric", .off = REP(opts.metric),
	  .group = HB_OG_WHAT, .complete = HB_CMP_NONE },
	{ "workload", 0, HB_OPT_STRING, "WORKLOAD", "only this workload", .off = REP(opts.workload),
	  .group = HB_OG_WHAT, .complete = HB_CMP_WORKLOADS },
	{ "ratio-to", 0, HB_OPT_STRING, "VARIANT", "add an 'x VARIANT' ratio column (seed 004's\n"
	  "'x KASAN')", .off = REP(opts.ratio_to),
	  .group = HB_OG_WHAT, .complete = HB_CMP_VARIANTS },
	{ "paired", 0, HB_OPT_FLAG, NULL, "pair an imported set's rounds by its CSV's boot\n"
	  "column (runs always pair)", .off = REP(opts.paired), .group = HB_OG_HOW },
	{ "layout", 0, HB_OPT_CHOICE, "LAYOUT", "auto (per-test tables when a workload has >= 5\n"
	  "metrics in one unit), long, or wide", .choices = layouts, .off = REP(opts.layout),
	  .set = layout_given, .group = HB_OG_WHERE },
	{ "against-seeds", 0, HB_OPT_CUSTOM, "PATH", "instead: the seeds' published figures vs\n"
	  "this run, with the conditions of both sides; PATH is a published.json or a folder of\n"
	  "<workload>/published.json (default: workloads/ of the source tree); --workload and\n"
	  "--metric select figures", .optional_value = true, .set = set_seeds,
	  .group = HB_OG_WHAT, .complete = HB_CMP_FILE },
	{ "compare", 0, HB_OPT_FLAG, NULL, "RUN1 RUN2 ...: each run's cost per metric and\n"
	  "variant side by side, and the change between\nconsecutive runs flagged as `harness gate "
	  "--relative`\nflags it (text, markdown, json, html; runs of one\nclock)", .off = REP(compare),
	  .group = HB_OG_WHAT },
	{ "max-slowdown", 0, HB_OPT_DOUBLE, "PCT", "--compare: a change worse than this (and\n"
	  "significant) is a regression", 0, 1000, .off = REP(max_slowdown_pct), .def = "2",
	  .group = HB_OG_HOW },
	{ "alpha", 0, HB_OPT_DOUBLE, "A", "--compare: significance level", 0, 1, .off = REP(alpha),
	  .def = "0.05", .group = HB_OG_HOW },
	{ NULL },
};

static const struct hb_example report_examples[] = {
	{ "harness report results/RUN",
	  "Tables and one-line costs of a run, per workload and metric." },
	{ "harness report results/RUN --against-seeds",
	  "Each published figure beside the run's, with the agreement." },
	{ "harness report results/RUN --format mail",
	  "Plain text, 72 columns, for a reply to the list." },
	{ NULL },
};

const struct hb_cmdspec report_spec = {
	.cmd = "report",
	.usage = "usage: harness report RUN [options]\n"
		 "       harness report RUN1 RUN2 ... --compare [options]\n"
		 "Statistics and slowdowns of result set RUN (a directory, or a name under results/);\n"
		 "with --compare, the costs of several runs side by side.\n",
	.groups = { { report_options, 0 }, { NULL, 0 } },
	.examples = report_examples,
	.group_titles = { [HB_OG_WHAT] = "what is reported",
			  [HB_OG_HOW] = "how runs are compared",
			  [HB_OG_WHERE] = "output" },
	.operand_complete = HB_CMP_DIR,
};

/* Options that choose what the ordinary report compares mean nothing to the seeds'
 * figures, which name their own baselines: say so rather than ignore them. */
static const char *seeds_conflict(const struct report_args *a)
{
	return a->opts.baseline ? "--baseline" : a->opts.ratio_to ? "--ratio-to"
		: a->layout_given ? "--layout" : a->opts.paired ? "--paired" : NULL;
}

/* What --compare cannot take: options of one run's report. */
static const char *compare_conflict(const struct report_args *a)
{
	return a->seeds ? "--against-seeds" : a->opts.ratio_to ? "--ratio-to" : a->layout_given ? "--layout"
		: a->opts.paired ? "--paired" : NULL;
}

static int check_operands(const struct report_args *a, int argc, char **argv, int first)
{
	if (first >= argc)
		return hb_usage("report: missing RUN (accepted: a result set directory or run name)");
	if (a->compare && first + 2 > argc)
		return hb_usage("report: --compare needs at least two runs, got '%s' alone (accepted: "
				"RUN1 RUN2 ...)", argv[first]);
	if (a->compare && compare_conflict(a))
		return hb_usage("report: %s does not apply with --compare (accepted with it: --format, "
				"--baseline, --metric, --workload, --max-slowdown, --alpha)", compare_conflict(a));
	if (a->compare)
		return HB_EXIT_OK;
	if (first + 1 < argc)
		return hb_usage("report: unexpected argument '%s' (accepted: one RUN%s)", argv[first + 1],
				a->seeds ? "; a PATH goes as --against-seeds=PATH" : "");
	if (a->seeds && seeds_conflict(a))
		return hb_usage("report: %s does not apply with --against-seeds (each published figure "
				"names its baseline; accepted with it: --format, --metric, --workload)",
				seeds_conflict(a));
	return HB_EXIT_OK;
}

static int run_compare(const struct report_args *a, int argc, char **argv, int first)
{
	size_t n = (size_t)(argc - first);
	char **dirs = xcalloc(n, sizeof(*dirs));
	struct compare_opts co = { .report = &a->opts, .max_slowdown_pct = a->max_slowdown_pct,
				   .alpha = a->alpha };
	int rc = HB_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		dirs[i] = hb_resolve_run_dir(argv[first + (int)i]);
		if (rc == HB_EXIT_OK && !hb_is_dir(dirs[i]))
			rc = hb_usage("report: result set '%s' not found (accepted: a directory holding %s)",
				      argv[first + (int)i], "samples.jsonl");
	}
	if (rc == HB_EXIT_OK)
		rc = report_compare(dirs, argv + first, n, &co, stdout);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	char *dir;
	int first, rc;

	if (!hb_opts_cmd(&report_spec, argc, argv, &a, &first, &rc) ||
	    (rc = check_operands(&a, argc, argv, first)) != HB_EXIT_OK) {
		free(a.seeds);
		return rc;
	}
	a.opts.seeds = a.seeds;
	if (a.compare)
		return run_compare(&a, argc, argv, first);
	dir = hb_resolve_run_dir(argv[first]);
	if (!hb_is_dir(dir))
		rc = hb_usage("report: result set '%s' not found (accepted: a directory holding %s)",
			      argv[first], "samples.jsonl");
	else
		rc = report_run_dir(dir, &a.opts, stdout);
	free(dir);
	free(a.seeds);
	return rc;
}
