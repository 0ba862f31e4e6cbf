/* harness plot RUN [--out DIR] [--format png|svg|both] [--baseline VARIANT] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "plot/plot.h"
#include "report/cliopt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: harness plot RUN [--out DIR] [--format png|svg|both] [--baseline VARIANT]\n"
		"gnuplot charts of result set RUN: slowdown per variant (st.err bars), slowdown vs\n"
		"vCPU count, per-test ratios. Scripts (.gp) and data (.dat) stay beside the images.\n"
		"  --out DIR            where to write (default: RUN/plots)\n"
		"  --format FORMAT      png, svg or both (default)\n"
		"  --baseline VARIANT   compare with this variant (default: 'baseline', else the first)\n");
}

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "png", "svg", "both", NULL };
	struct plot_opts opts = { 0 };
	char *dir;
	int c, rc;

	hb_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': opts.out_dir = optarg; break;
		case 'f': opts.format = formats[hb_parse_choice("--format", optarg, formats)]; break;
		case 'b': opts.baseline = optarg; break;
		case 'h': usage(stdout); return HB_EXIT_OK;
		default: hb_option_error("plot", c, argv, "--out, --format, --baseline, --help");
		}
	}
	if (optind >= argc)
		hb_usage_error("plot: missing RUN (accepted: a result set directory or run name)");
	if (optind + 1 < argc)
		hb_usage_error("plot: unexpected argument '%s' (accepted: one RUN)", argv[optind + 1]);
	dir = hb_resolve_run_dir(argv[optind]);
	if (!hb_is_dir(dir))
		hb_usage_error("plot: result set '%s' not found (accepted: a directory holding "
			       "samples.jsonl)", argv[optind]);
	rc = plot_run(dir, &opts);
	free(dir);
	return rc;
}
