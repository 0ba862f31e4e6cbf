/* From options to a ready struct run: defaults, name and count checks, workloads with
 * their --param overrides, variants with their builds, the plan and the guest memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"
#include "run/exec_options.h"
#include "run/main_job.h"
#include "run/matrix.h"
#include "run/run.h"
#include "run/vcpus.h"
#include "workload/workload.h"

/* Guest memory unless --mem or a workload asks for more: room for a kernel build in
 * tmpfs and for hugetlb's pool at 2/3 of it. */
static const long default_mem_mib = 2048;

/* Each step below: 0, or the exit status (HB_EXIT_USAGE, HB_EXIT_FAIL) with *why. */
static int usage(char **why, char *reason)
{
	*why = reason;
	return HB_EXIT_USAGE;
}

/* --until-ci needs two rounds for an interval and a baseline to pair with. */
static int check_until_ci(struct run_opts *o, char **why)
{
	if (!o->max_boots_given && o->max_boots < o->boots)
		o->max_boots = o->boots; /* the table's default, raised to the minimum */
	if (o->boots < 2)
		*why = xasprintf("--until-ci: --boots %d rounds cannot give an interval (accepted: "
				 "--boots 2 or more as the minimum)", o->boots);
	else if (o->max_boots < o->boots)
		*why = xasprintf("--max-boots %d: fewer than the minimum --boots %d (accepted: %d or "
				 "more)", o->max_boots, o->boots, o->boots);
	else if (o->order == ORDER_GROUPED)
		*why = xstrdup("--until-ci: needs --order interleaved (it judges complete rounds)");
	else if (o->exec.executor == EXECUTOR_SLURM)
		*why = xstrdup("--until-ci: not with --executor slurm (each job runs one round; the "
			       "rule needs them all: run more --boots instead)");
	else if (!hb_strv_contains(o->variants, "baseline") || hb_strv_len(o->variants) < 2)
		*why = xasprintf("--until-ci: needs the variant 'baseline' and at least one other in "
				 "--variants (each variant's cost is its paired ratio to baseline)");
	return *why ? -1 : 0;
}

/* --kernels: known lines, each once (default: the default line alone). */
static int check_lines(struct run_opts *o, char **why)
{
	if (!o->lines) {
		o->lines = xcalloc(2, sizeof(char *));
		o->lines[0] = xstrdup(HB_DEFAULT_LINE);
	}
	if (kline_check_sources_used(o->sources, o->lines, why) < 0)
		return -1;
	for (size_t i = 0; o->lines[i]; i++) {
		if (config_check_line(o->lines[i], "--kernels", why) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(o->lines[i], o->lines[j])) {
				*why = xasprintf("--kernels: '%s' appears twice (accepted: distinct lines)",
						 o->lines[i]);
				return -1;
			}
	}
	return 0;
}

/* --variants (or the default set) checked, then the variants of --patch, --variant and
 * --kernel NAME=IMAGE after them: they join whatever the list holds. */
static int check_variants(struct run *r, char **why)
{
	struct run_opts *o = r->opts;
	char **files = xcalloc(hb_strv_len(o->variants) + 1, sizeof(char *));
	size_t n = 0;
	int rc;

	for (size_t i = 0; o->variants[i]; i++) /* a resumed plan lists prebuilt names too */
		if (!run_prebuilt_find(r, o->variants[i]))
			files[n++] = o->variants[i];
	rc = matrix_check_variants(files, why);
	free(files);
	for (size_t i = 0; rc == 0 && r->adhoc.variants && r->adhoc.variants[i]; i++)
		hb_strv_append_once(&o->variants, r->adhoc.variants[i]);
	for (size_t i = 0; rc == 0 && i < r->nprebuilt; i++)
		hb_strv_append_once(&o->variants, r->prebuilt[i].name);
	return rc;
}

static int fill_defaults(struct run *r, bool *main_job, bool *cores_given, char **why)
{
	struct run_opts *o = r->opts;

	*main_job = main_job_asked(r);
	*cores_given = o->vm.cores != NULL;
	r->host_cores = matrix_host_cores();
	if (!o->vm.cores)
		o->vm.cores = matrix_default_cores(r->host_cores, &o->vm.ncores);
	if (run_check_cores(r, o->vm.cores, o->vm.ncores, why) < 0 ||
	    clock_accel_want(o->vm.clock, o->vm.accel, &(enum accel_kind){ 0 }, NULL, why) < 0)
		return HB_EXIT_USAGE;
	if (check_lines(o, why) < 0 || vm_check_shares((const char *const *)o->vm.shares, why) < 0)
		return HB_EXIT_USAGE;
	if (r->nprebuilt && hb_strv_len(o->lines) > 1)
		return usage(why, xasprintf("--kernel %s: a kernel built elsewhere is on no kernel line "
					    "(accepted: --kernel with one line in --kernels)", o->prebuilt[0]));
	if (!o->variants)
		o->variants = matrix_default_variants();
	if (check_variants(r, why) < 0)
		return HB_EXIT_USAGE;
	if (!o->workloads)
		o->workloads = matrix_default_workloads();
	if (o->max_boots_given && !o->until_ci)
		return usage(why, xasprintf("--max-boots %d: goes with --until-ci (accepted: both, or "
					    "--boots alone)", o->max_boots));
	if (o->until_ci && check_until_ci(o, why) < 0)
		return HB_EXIT_USAGE;
	/* A grouped run is not shuffled: it records no seed unless one was given. */
	if (!o->seed_given && o->order == ORDER_GROUPED)
		o->seed = 0;
	return 0;
}

static int load_workloads(struct run *r, char **why)
{
	char **names = r->opts->workloads;

	r->nworkloads = hb_strv_len(names);
	r->workloads = xcalloc(r->nworkloads, sizeof(*r->workloads));
	for (size_t i = 0; i < r->nworkloads; i++) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				return usage(why, xasprintf("--workloads: '%s' appears twice (accepted: "
							    "distinct workloads)", names[i]));
		r->workloads[i] = workload_require(names[i], why);
		if (!r->workloads[i] && *why)
			return HB_EXIT_USAGE;
		if (!r->workloads[i]) {
			*why = xasprintf("workload '%s' could not be loaded", names[i]);
			return HB_EXIT_FAIL;
		}
	}
	for (size_t i = 0; r->opts->params[i]; i++)
		if (workload_apply_param(r->workloads, r->nworkloads, r->opts->params[i], why) < 0)
			return HB_EXIT_USAGE;
	return 0;
}

/* A variant whose build has no series for the line: refused before anything runs. */
static int check_series(const char *build, const char *line, const char *variant, char **why)
{
	char *reason = NULL;
	int rc = config_require_series(build, line, &reason);

	if (rc < 0)
		*why = xasprintf("variant '%s' on kernel line %s: %s", variant, line, reason);
	free(reason);
	return rc;
}

/* One run_variant per (line, variant), line-major like the plan. */
static int load_variants(struct run *r, char **why)
{
	size_t nv = hb_strv_len(r->opts->variants), nl = hb_strv_len(r->opts->lines);

	r->variants = xcalloc(nv * nl + 1, sizeof(*r->variants));
	r->nvariants = 0;
	for (size_t i = 0; i < nv * nl; i++) {
		const char *line = r->opts->lines[i / nv];
		const struct run_prebuilt *pb = run_prebuilt_find(r, r->opts->variants[i % nv]);
		struct run_variant *rv = &r->variants[r->nvariants];
		struct variant_def v;

		if (!main_job_uses(r->opts->keep, line, r->opts->variants[i % nv]))
			continue; /* no cell of the main job needs it: not built, not checked */
		r->nvariants++;
		if (pb) {
			*rv = (struct run_variant){ .name = xstrdup(pb->name), .build = xstrdup(pb->name),
						    .cmdline = xstrdup(pb->cmdline), .line = xstrdup(line) };
			continue;
		}
		if (config_require_variant(r->opts->variants[i % nv], &v, why) < 0)
			return HB_EXIT_USAGE;
		*rv = (struct run_variant){ .name = xstrdup(v.name), .build = xstrdup(v.build),
					    .cmdline = xstrdup(v.cmdline ? v.cmdline : ""),
					    .line = xstrdup(line) };
		variant_def_free(&v);
		if (check_series(rv->build, line, rv->name, why) < 0)
			return HB_EXIT_USAGE;
	}
	return 0;
}

/* The memory every (workload, cores) needs; --mem below it is a usage error. */
static int choose_memory(struct run *r, char **why)
{
	long need = 0, given = r->opts->vm.mem_mib;

	for (size_t w = 0; w < r->nworkloads; w++)
		for (size_t c = 0; c < r->opts->vm.ncores; c++) {
			struct workload_cell cell;
			int rc = workload_cell_init(r->workloads[w], (int)r->opts->vm.cores[c],
						    default_mem_mib, r->opts->reps, false, &cell);
			if (rc == WORKLOAD_BAD_PARAM)
				return HB_EXIT_USAGE; /* printed, *why NULL */
			if (rc != 0) {
				*why = xasprintf("workload '%s' cannot plan a %ld-vCPU cell",
						 r->workloads[w]->name, r->opts->vm.cores[c]);
				return HB_EXIT_FAIL;
			}
			if (cell.min_mem_mib > need)
				need = cell.min_mem_mib;
			workload_cell_free(&cell);
		}
	if (given && given < need)
		return usage(why, xasprintf("--mem: %ldM is less than the %ldM these workloads need "
					    "(accepted: %ldM or more)", given, need, need));
	r->mem_mib = given ? given : (need > default_mem_mib ? need : default_mem_mib);
	return 0;
}

int run_setup(struct run *r, char **why)
{
	struct run_opts *o = r->opts;
	bool main_job, cores_given;
	int rc;

	*why = NULL;
	if (run_prebuilt_load(r, why) < 0)
		return HB_EXIT_USAGE;
	if ((rc = fill_defaults(r, &main_job, &cores_given, why)) || (rc = load_workloads(r, why)))
		return rc;
	if (main_job && main_job_fill(r, cores_given, why) < 0)
		return HB_EXIT_USAGE;
	if ((rc = load_variants(r, why)) || (rc = choose_memory(r, why)))
		return rc;
	r->plan = (struct plan){ .lines = o->lines, .variants = o->variants, .workloads = o->workloads, .cores = o->vm.cores,
				 .ncores = o->vm.ncores, .boots = o->until_ci ? o->max_boots : o->boots,
				 .workload_boots = o->workload_boots, .reps = o->reps, .order = o->order,
				 .seed = o->seed, .keep = o->keep };
	o->lines = o->variants = o->keep = o->workload_boots = NULL; /* the plan owns the lists now */
	o->workloads = NULL;
	o->vm.cores = NULL;
	plan_build(&r->plan);
	run_collect_builds(r);
	return 0;
}

struct workload *run_workload(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nworkloads; i++)
		if (!strcmp(r->workloads[i]->name, name))
			return r->workloads[i];
	hb_fatal("workload '%s' is not in this run", name); /* the plan holds only its own */
}

struct run_variant *run_variant(const struct run *r, const char *line, const char *name)
{
	for (size_t i = 0; i < r->nvariants; i++)
		if (!strcmp(r->variants[i].name, name) && !strcmp(r->variants[i].line, line))
			return &r->variants[i];
	hb_fatal("variant '%s' on line %s is not in this run", name, line); /* the plan holds only its own */
}
