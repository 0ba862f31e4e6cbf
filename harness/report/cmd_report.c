/* harness report RUN [--baseline V] [--format F] [--metric M] [--workload W]
 *                    [--ratio-to V] [--layout auto|long|wide] [--against-seeds[=PATH]] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "report/cliopt.h"
#include "report/report.h"

#define REPORT_OPTIONS "--baseline, --format, --metric, --workload, --ratio-to, --layout, " \
	"--against-seeds, --help"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: harness report RUN [options]\n"
		"Statistics and slowdowns of result set RUN (a directory, or a name under results/).\n"
		"  --baseline VARIANT   compare with this variant (default: 'baseline', else the first)\n"
		"  --format FORMAT      text (default), markdown, csv or json\n"
		"  --metric METRIC      only this metric\n"
		"  --workload WORKLOAD  only this workload\n"
		"  --ratio-to VARIANT   add an 'x VARIANT' ratio column (seed 004's 'x KASAN')\n"
		"  --layout LAYOUT      auto (default: per-test tables when a workload has >= 5\n"
		"                       metrics in one unit), long, or wide\n"
		"  --against-seeds[=PATH]  instead: the seeds' published figures vs this run, with\n"
		"                       the conditions of both sides; PATH is a published.json or a\n"
		"                       folder of <workload>/published.json (default: workloads/ of\n"
		"                       the source tree); --workload and --metric select figures\n");
}

/* The default --against-seeds data: every workloads/<name>/published.json. */
static char *default_seeds_path(void)
{
	return hb_path_join(hb_source_dir(), "workloads");
}

/* Options that choose what the ordinary report compares mean nothing to the seeds'
 * figures, which name their own baselines: say so rather than ignore them. */
static void check_seeds_options(const char *conflict)
{
	if (conflict)
		hb_usage_error("report: %s does not apply with --against-seeds (each published figure "
			       "names its baseline; accepted with it: --format, --metric, --workload)",
			       conflict);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "metric", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "ratio-to", required_argument, NULL, 'r' },
		{ "layout", required_argument, NULL, 'l' },
		{ "against-seeds", optional_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "markdown", "csv", "json", NULL };
	static const char *const layouts[] = { "auto", "long", "wide", NULL };
	struct report_opts opts = { 0 };
	const char *conflict = NULL; /* the last option --against-seeds cannot go with */
	char *dir, *seeds = NULL;
	int c, rc;

	hb_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': opts.baseline = optarg; conflict = "--baseline"; break;
		case 'f': opts.format = (enum report_format)hb_parse_choice("--format", optarg, formats); break;
		case 'm': opts.metric = optarg; break;
		case 'w': opts.workload = optarg; break;
		case 'r': opts.ratio_to = optarg; conflict = "--ratio-to"; break;
		case 'l':
			opts.layout = (enum report_layout)hb_parse_choice("--layout", optarg, layouts);
			conflict = "--layout";
			break;
		case 's':
			free(seeds);
			seeds = optarg ? xstrdup(optarg) : default_seeds_path();
			if (!*seeds)
				hb_usage_error("report: --against-seeds= needs a PATH (accepted: a "
					       "published.json or a folder of <workload>/published.json)");
			break;
		case 'h': usage(stdout); return HB_EXIT_OK;
		default: hb_option_error("report", c, argv, REPORT_OPTIONS);
		}
	}
	if (optind >= argc)
		hb_usage_error("report: missing RUN (accepted: a result set directory or run name)");
	if (optind + 1 < argc)
		hb_usage_error("report: unexpected argument '%s' (accepted: one RUN%s)", argv[optind + 1],
			       seeds ? "; a PATH goes as --against-seeds=PATH" : "");
	if (seeds)
		check_seeds_options(conflict);
	opts.seeds = seeds;
	dir = hb_resolve_run_dir(argv[optind]);
	if (!hb_is_dir(dir))
		hb_usage_error("report: result set '%s' not found (accepted: a directory holding %s)",
			       argv[optind], "samples.jsonl");
	rc = report_run_dir(dir, &opts, stdout);
	free(dir);
	free(seeds);
	return rc;
}
