/* From options to a ready struct run: defaults, name and count checks, workloads with
 * their --param overrides, variants with their builds, the plan and the guest memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "kernel/kconfigs.h"
#include "run/matrix.h"
#include "run/run.h"
#include "workload/workload.h"

/* Guest memory unless --mem or a workload asks for more: room for a kernel build in
 * tmpfs and for hugetlb's pool at 2/3 of it. */
static const long default_mem_mib = 2048;

static void fill_defaults(struct run *r)
{
	struct run_opts *o = r->opts;

	r->host_cores = matrix_host_cores();
	if (!o->vm.cores)
		o->vm.cores = matrix_default_cores(r->host_cores, &o->vm.ncores);
	matrix_check_cores(o->vm.cores, o->vm.ncores, r->host_cores, o->vm.overcommit);
	if (!o->variants)
		o->variants = matrix_default_variants();
	matrix_check_variants(o->variants);
	if (!o->workloads)
		o->workloads = matrix_default_workloads();
	/* Three boots of one repetition rather than one boot of three: the cells of a round
	 * run side by side and each round is shuffled, so drift on the host spreads over all
	 * variants instead of landing on one. Measured here: over one half-hour kbuild round
	 * the guests' user time (which no variant changes) fell 19%, and with the baseline
	 * always first init_on_free came out 13% *faster*; interleaved over 4 boots it did not. */
	if (!o->reps)
		o->reps = 1;
	if (!o->boots)
		o->boots = 3;
	/* A fixed default seed: --dry-run shows the order the run will use; meta.json keeps it. */
	if (!o->seed && o->order == ORDER_INTERLEAVED)
		o->seed = 1;
}

static void load_workloads(struct run *r)
{
	char **names = r->opts->workloads;

	r->nworkloads = hb_strv_len(names);
	r->workloads = xcalloc(r->nworkloads, sizeof(*r->workloads));
	for (size_t i = 0; i < r->nworkloads; i++) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				hb_usage_error("--workloads: '%s' appears twice (accepted: distinct workloads)", names[i]);
		r->workloads[i] = workload_require(names[i]);
		if (!r->workloads[i])
			hb_fatal("workload '%s' could not be loaded", names[i]);
	}
	for (size_t i = 0; r->opts->params[i]; i++)
		workload_apply_param(r->workloads, r->nworkloads, r->opts->params[i]);
}

static void load_variants(struct run *r)
{
	r->nvariants = hb_strv_len(r->opts->variants);
	r->variants = xcalloc(r->nvariants, sizeof(*r->variants));
	for (size_t i = 0; i < r->nvariants; i++) {
		struct variant_def v;
		config_require_variant(r->opts->variants[i], &v);
		r->variants[i] = (struct run_variant){ .name = xstrdup(v.name), .build = xstrdup(v.build),
						       .cmdline = xstrdup(v.cmdline ? v.cmdline : "") };
		variant_def_free(&v);
	}
}

/* The memory every (workload, cores) needs; --mem below it is a usage error. */
static void choose_memory(struct run *r)
{
	long need = 0;

	for (size_t w = 0; w < r->nworkloads; w++)
		for (size_t c = 0; c < r->opts->vm.ncores; c++) {
			struct workload_cell cell;
			if (workload_cell_init(r->workloads[w], (int)r->opts->vm.cores[c], default_mem_mib,
					       r->opts->reps, false, &cell) != 0)
				hb_fatal("workload '%s' cannot plan a %ld-vCPU cell", r->workloads[w]->name,
					 r->opts->vm.cores[c]);
			if (cell.min_mem_mib > need)
				need = cell.min_mem_mib;
			workload_cell_free(&cell);
		}
	if (r->opts->vm.mem_mib && r->opts->vm.mem_mib < need)
		hb_usage_error("--mem: %ldM is less than the %ldM these workloads need (accepted: %ldM or more)",
			       r->opts->vm.mem_mib, need, need);
	r->mem_mib = r->opts->vm.mem_mib ? r->opts->vm.mem_mib : (need > default_mem_mib ? need : default_mem_mib);
}

void run_setup(struct run *r)
{
	struct run_opts *o = r->opts;

	fill_defaults(r);
	load_workloads(r);
	load_variants(r);
	choose_memory(r);
	r->plan = (struct plan){ .variants = o->variants, .workloads = o->workloads, .cores = o->vm.cores,
				 .ncores = o->vm.ncores, .boots = o->boots, .reps = o->reps, .order = o->order,
				 .seed = o->seed };
	o->variants = NULL; /* the plan owns the lists now */
	o->workloads = NULL;
	o->vm.cores = NULL;
	plan_build(&r->plan);
	run_collect_builds(r);
}

struct workload *run_workload(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nworkloads; i++)
		if (!strcmp(r->workloads[i]->name, name))
			return r->workloads[i];
	hb_fatal("workload '%s' is not in this run", name);
}

struct run_variant *run_variant(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nvariants; i++)
		if (!strcmp(r->variants[i].name, name))
			return &r->variants[i];
	hb_fatal("variant '%s' is not in this run", name);
}
