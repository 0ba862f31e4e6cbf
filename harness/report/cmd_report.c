/* harness report RUN [--baseline V] [--format F] [--metric M] [--workload W]
 *                    [--ratio-to V] [--paired] [--layout auto|long|wide] [--against-seeds[=PATH]] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "report/report.h"

struct report_args {
	struct report_opts opts;
	bool layout_given;
	char *seeds;           /* --against-seeds, resolved to a path */
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
	  "else the first)", .off = REP(opts.baseline) },
	{ "format", 0, HB_OPT_CHOICE, "FORMAT", "text, markdown, csv or json", .choices = report_format_names,
	  .off = REP(opts.format), .def = "text" },
	{ "metric", 0, HB_OPT_STRING, "METRIC", "only this metric", .off = REP(opts.metric) },
	{ "workload", 0, HB_OPT_STRING, "WORKLOAD", "only this workload", .off = REP(opts.workload) },
	{ "ratio-to", 0, HB_OPT_STRING, "VARIANT", "add an 'x VARIANT' ratio column (seed 004's\n"
	  "'x KASAN')", .off = REP(opts.ratio_to) },
	{ "paired", 0, HB_OPT_FLAG, NULL, "pair an imported set's rounds by its CSV's boot\n"
	  "column (runs always pair)", .off = REP(opts.paired) },
	{ "layout", 0, HB_OPT_CHOICE, "LAYOUT", "auto (per-test tables when a workload has >= 5\n"
	  "metrics in one unit), long, or wide", .choices = layouts, .off = REP(opts.layout),
	  .set = layout_given },
	{ "against-seeds", 0, HB_OPT_CUSTOM, "PATH", "instead: the seeds' published figures vs\n"
	  "this run, with the conditions of both sides; PATH is a published.json or a folder of\n"
	  "<workload>/published.json (default: workloads/ of the source tree); --workload and\n"
	  "--metric select figures", .optional_value = true, .set = set_seeds },
	{ NULL },
};

static const struct hb_cmdspec report_spec = {
	.cmd = "report",
	.usage = "usage: harness report RUN [options]\n"
		 "Statistics and slowdowns of result set RUN (a directory, or a name under results/).\n",
	.groups = { { report_options, 0 }, { NULL, 0 } },
};

/* Options that choose what the ordinary report compares mean nothing to the seeds'
 * figures, which name their own baselines: say so rather than ignore them. */
static const char *seeds_conflict(const struct report_args *a)
{
	return a->opts.baseline ? "--baseline" : a->opts.ratio_to ? "--ratio-to"
		: a->layout_given ? "--layout" : a->opts.paired ? "--paired" : NULL;
}

static int check_operands(const struct report_args *a, int argc, char **argv, int first)
{
	if (first >= argc)
		return hb_usage("report: missing RUN (accepted: a result set directory or run name)");
	if (first + 1 < argc)
		return hb_usage("report: unexpected argument '%s' (accepted: one RUN%s)", argv[first + 1],
				a->seeds ? "; a PATH goes as --against-seeds=PATH" : "");
	if (a->seeds && seeds_conflict(a))
		return hb_usage("report: %s does not apply with --against-seeds (each published figure "
				"names its baseline; accepted with it: --format, --metric, --workload)",
				seeds_conflict(a));
	return HB_EXIT_OK;
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
