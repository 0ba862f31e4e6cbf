/* harness gate RUN --against REF [--max-slowdown PCT] [--alpha A] [--junit FILE] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "gate/gate.h"
#include "report/cliopt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: harness gate RUN --against REF [options]\n"
		"Compares result set RUN with REF (a result set, or a `harness report --format json`\n"
		"file) per workload, metric, cores and variant. Exit 0: nothing regressed;\n"
		"1: a regression (worse by more than --max-slowdown and Welch p < --alpha); 2: bad input.\n"
		"  --against REF        the reference (required)\n"
		"  --max-slowdown PCT   tolerated slowdown in percent (default 2)\n"
		"  --alpha A            significance level (default 0.05)\n"
		"  --junit FILE         also write JUnit XML, one testcase per comparison\n"
		"  --relative VARIANT   compare each variant's cost (ratio to VARIANT) instead of\n"
		"                       absolute means: for references from another host or TCG\n");
}

int cmd_gate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "against", required_argument, NULL, 'a' },
		{ "max-slowdown", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'p' },
		{ "junit", required_argument, NULL, 'j' },
		{ "relative", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gate_opts opts = { .max_slowdown_pct = 2, .alpha = 0.05 };
	const char *against = NULL;
	char *run, *ref;
	int c, rc;

	hb_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': against = optarg; break;
		case 'm': opts.max_slowdown_pct = hb_parse_double("--max-slowdown", optarg, 0, 1000); break;
		case 'p': opts.alpha = hb_parse_double("--alpha", optarg, 0, 1); break;
		case 'j': opts.junit = optarg; break;
		case 'r': opts.relative_to = optarg; break;
		case 'h': usage(stdout); return HB_EXIT_OK;
		default: hb_option_error("gate", c, argv, "--against, --max-slowdown, --alpha, --junit, --relative, --help");
		}
	}
	if (optind >= argc)
		hb_usage_error("gate: missing RUN (accepted: a result set directory or run name)");
	if (optind + 1 < argc)
		hb_usage_error("gate: unexpected argument '%s' (accepted: one RUN)", argv[optind + 1]);
	if (!against)
		hb_usage_error("gate: missing --against REF (accepted: a result set or a JSON report)");
	run = hb_resolve_run_dir(argv[optind]);
	ref = hb_is_file(against) ? xstrdup(against) : hb_resolve_run_dir(against);
	if (!hb_is_dir(run))
		hb_usage_error("gate: result set '%s' not found (accepted: a directory holding "
			       "samples.jsonl)", argv[optind]);
	if (!hb_is_dir(ref) && !hb_is_file(ref))
		hb_usage_error("gate: --against: '%s' not found (accepted: a result set or a JSON "
			       "report file)", against);
	rc = gate_run(run, ref, &opts, stdout);
	free(run);
	free(ref);
	return rc;
}
