#include "run/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/xalloc.h"

enum {
	OPT_VARIANTS = 256, OPT_WORKLOADS, OPT_CORES, OPT_REPS, OPT_BOOTS, OPT_PARAM, OPT_MEM,
	OPT_TIMEOUT, OPT_ORDER, OPT_SEED, OPT_OUT, OPT_RESUME, OPT_DRY_RUN, OPT_ACCEL,
	OPT_MACHINE, OPT_ROOTFS, OPT_NO_PIN, OPT_OVERCOMMIT, OPT_MAX_FAILURES, OPT_SOURCE,
	OPT_JOBS, OPT_NO_REPORT, OPT_HELP,
};

static const struct option long_options[] = {
	{ "variants", required_argument, NULL, OPT_VARIANTS },
	{ "workloads", required_argument, NULL, OPT_WORKLOADS },
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "boots", required_argument, NULL, OPT_BOOTS },
	{ "param", required_argument, NULL, OPT_PARAM },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "accel", required_argument, NULL, OPT_ACCEL },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "rootfs", required_argument, NULL, OPT_ROOTFS },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "overcommit", no_argument, NULL, OPT_OVERCOMMIT },
	{ "max-failures", required_argument, NULL, OPT_MAX_FAILURES },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "no-report", no_argument, NULL, OPT_NO_REPORT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ 0 },
};

static const char usage_text[] =
	"usage: harness run [options]\n"
	"\n"
	"Builds what is missing, then boots every variant x workload x cores x boot and runs the\n"
	"workload --reps times per boot. Samples are fsync'd as they arrive; ^C stops cleanly and\n"
	"--resume runs exactly the missing repetitions. Ends with the report and the plots.\n"
	"With no options: the seeds' matrix scaled to this host (see README).\n"
	"\n"
	"  --variants LIST       comma-separated variants (harness list)\n"
	"  --workloads LIST      comma-separated workloads (harness list)\n"
	"  --cores LIST          vCPU counts, e.g. 2,6,12,24 (must fit the host unless --overcommit)\n"
	"  --reps N              repetitions per boot (default 1)\n"
	"  --boots M             boots per variant, workload and cores (default 3; each boot is\n"
	"                        a round in which every variant runs once, in shuffled order)\n"
	"  --param W.KEY=VALUE   workload parameter (repeatable; harness list shows them)\n"
	"  --mem SIZE            guest memory, e.g. 2G (default 2G, raised when a workload needs more)\n"
	"  --timeout S           seconds per boot (default: from the workload's estimate)\n"
	"  --order interleaved|grouped   cell order (default interleaved: ABAB per round)\n"
	"  --seed N              seed of the per-round shuffle (default 1; kept in meta.json)\n"
	"  --out DIR             result set directory (default results/<date>-<time>)\n"
	"  --resume DIR          continue an interrupted or partly failed run\n"
	"  --dry-run             print the plan and the time estimate, run nothing\n"
	"  --accel auto|kvm|tcg  (default auto: KVM when a probe boot works)\n"
	"  --machine q35|microvm QEMU machine (default: the guest path's measured choice)\n"
	"  --rootfs auto|virtiofs|9p   how the guest sees the host root\n"
	"  --no-pin              do not pin vCPU threads or bind memory\n"
	"  --overcommit          allow more vCPUs than host cores (the report says so)\n"
	"  --max-failures N      failed cells tolerated before stopping (default 3)\n"
	"  --source DIR|TARBALL  kernel source for builds (default Debian's linux-source-6.1)\n"
	"  --jobs N              kernel build jobs (default: host cores)\n"
	"  --no-report           do not print the report or draw plots at the end\n";

static void parse_one(int c, const char *arg, struct run_opts *o, size_t *nparams)
{
	static const char *const orders[] = { "interleaved", "grouped", NULL };
	static const char *const accels[] = { "auto", "kvm", "tcg", NULL };
	static const char *const machines[] = { "q35", "microvm", NULL };
	static const char *const rootfses[] = { "auto", "virtiofs", "9p", NULL };

	switch (c) {
	case OPT_VARIANTS: hb_free_strv(o->variants); o->variants = hb_split_list("--variants", arg, NULL); break;
	case OPT_WORKLOADS: hb_free_strv(o->workloads); o->workloads = hb_split_list("--workloads", arg, NULL); break;
	case OPT_CORES: free(o->cores); o->cores = hb_parse_long_list("--cores", arg, 1, 1024, &o->ncores); break;
	case OPT_REPS: o->reps = (int)hb_parse_long("--reps", arg, 1, 1000); break;
	case OPT_BOOTS: o->boots = (int)hb_parse_long("--boots", arg, 1, 1000); break;
	case OPT_PARAM:
		o->params = xrealloc(o->params, (*nparams + 2) * sizeof(char *));
		o->params[(*nparams)++] = xstrdup(arg);
		o->params[*nparams] = NULL;
		break;
	case OPT_MEM: o->mem_mib = hb_parse_size_mib("--mem", arg, 256, 1L << 22); break;
	case OPT_TIMEOUT: o->timeout_s = hb_parse_double("--timeout", arg, 1, 7 * 86400); break;
	case OPT_ORDER: o->order = (enum plan_order)hb_parse_choice("--order", arg, orders); o->order_given = true; break;
	case OPT_SEED: o->seed = (unsigned long)hb_parse_long("--seed", arg, 1, 0x7fffffffL); o->seed_given = true; break;
	case OPT_OUT: o->out = arg; break;
	case OPT_RESUME: o->resume = arg; break;
	case OPT_DRY_RUN: o->dry_run = true; break;
	case OPT_ACCEL: o->accel = (enum accel_kind)hb_parse_choice("--accel", arg, accels); break;
	case OPT_MACHINE: o->machine = machines[hb_parse_choice("--machine", arg, machines)]; break;
	case OPT_ROOTFS: o->rootfs = rootfses[hb_parse_choice("--rootfs", arg, rootfses)]; break;
	case OPT_NO_PIN: o->no_pin = true; break;
	case OPT_OVERCOMMIT: o->overcommit = true; break;
	case OPT_MAX_FAILURES: o->max_failures = (int)hb_parse_long("--max-failures", arg, 0, 1000000); break;
	case OPT_SOURCE: o->source = arg; break;
	case OPT_JOBS: o->jobs = (int)hb_parse_long("--jobs", arg, 1, 4096); break;
	case OPT_NO_REPORT: o->no_report = true; break;
	default: hb_usage_error("run: unknown option (see 'harness run --help')");
	}
}

int run_opts_parse(int argc, char **argv, struct run_opts *o)
{
	size_t nparams = 0;
	int c;

	*o = (struct run_opts){ .order = ORDER_INTERLEAVED, .accel = ACCEL_AUTO, .max_failures = 3,
				.params = xcalloc(1, sizeof(char *)) };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		if (c == OPT_HELP) {
			fputs(usage_text, stdout);
			return -1;
		}
		if (c == '?' || c == ':')
			hb_usage_error("run: bad option '%s' (see 'harness run --help')", argv[optind - 1]);
		parse_one(c, optarg, o, &nparams);
	}
	if (optind < argc)
		hb_usage_error("run: unexpected argument '%s' (run takes only options; see 'harness run --help')",
			       argv[optind]);
	return 0;
}

void run_opts_free(struct run_opts *o)
{
	hb_free_strv(o->variants);
	hb_free_strv(o->workloads);
	hb_free_strv(o->params);
	free(o->cores);
}
