/* harness report RUN [--baseline V] [--format F] [--metric M] [--workload W]
 *                    [--ratio-to V] [--layout auto|long|wide] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "report/cliopt.h"
#include "report/report.h"

#define REPORT_OPTIONS "--baseline, --format, --metric, --workload, --ratio-to, --layout, --help"

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
		"                       metrics in one unit), long, or wide\n");
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "markdown", "csv", "json", NULL };
	static const char *const layouts[] = { "auto", "long", "wide", NULL };
	struct report_opts opts = { 0 };
	char *dir;
	int c, rc;

	hb_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': opts.baseline = optarg; break;
		case 'f': opts.format = (enum report_format)hb_parse_choice("--format", optarg, formats); break;
		case 'm': opts.metric = optarg; break;
		case 'w': opts.workload = optarg; break;
		case 'r': opts.ratio_to = optarg; break;
		case 'l': opts.layout = (enum report_layout)hb_parse_choice("--layout", optarg, layouts); break;
		case 'h': usage(stdout); return HB_EXIT_OK;
		default: hb_option_error("report", c, argv, REPORT_OPTIONS);
		}
	}
	if (optind >= argc)
		hb_usage_error("report: missing RUN (accepted: a result set directory or run name)");
	if (optind + 1 < argc)
		hb_usage_error("report: unexpected argument '%s' (accepted: one RUN)", argv[optind + 1]);
	dir = hb_resolve_run_dir(argv[optind]);
	if (!hb_is_dir(dir))
		hb_usage_error("report: result set '%s' not found (accepted: a directory holding %s)",
			       argv[optind], "samples.jsonl");
	rc = report_run_dir(dir, &opts, stdout);
	free(dir);
	return rc;
}
