/* harness run: parse, set the plan up (run/), and hand it to its executor. */
#include <stdlib.h>
#include <unistd.h>

#include "boot/accel.h"
#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "executor/executor.h"
#include "kernel/series_check.h"
#include "executor/slurm/slurm.h"
#include "kernel/kernel.h"
#include "run/profile.h"
#include "run/run.h"
#include "workload/meta.h"

/* Everything a run holds, on every way out of cmd_run (LeakSanitizer checks the exits). */
static void run_free(struct run *r)
{
	plan_free(&r->plan);
	for (size_t i = 0; i < r->nworkloads; i++)
		if (r->workloads[i])
			workload_free(r->workloads[i]);
	free(r->workloads);
	for (size_t i = 0; i < r->nvariants; i++) {
		free(r->variants[i].line);
		free(r->variants[i].name);
		free(r->variants[i].build);
		free(r->variants[i].cmdline);
	}
	free(r->variants);
	for (size_t k = 0; r->kernels && k < r->nkernels; k++)
		kernel_image_free(&r->kernels[k]);
	free(r->kernels);
	hb_free_strv(r->kernel_builds);
	hb_free_strv(r->kernel_lines);
	free(r->accel_reason);
	free(r->dir);
	json_object_put(r->meta);
	estimator_free(&r->est);
	run_free_clocks(r);
	adhoc_free(&r->adhoc); /* the generated folder, when the run made one */
	run_prebuilt_free(r);
	if (r->run_lock_fd >= 0)
		close(r->run_lock_fd);
	run_opts_free(r->opts);
}

/* --configs, --patch, --variant, --kernels PATH@REF and PATH@A..B: before anything reads kernel-configs/
 * or builds. The folder they make is in this host's temporary root, which Slurm jobs on other
 * nodes cannot read. */
static int prepare_adhoc(struct run *r, char **why)
{
	const struct adhoc_cli *c = &r->opts->adhoc;

	if (r->opts->exec.executor == EXECUTOR_SLURM && (c->patches || c->variants)) {
		*why = xasprintf("--%s: not with --executor slurm (the kernel-configs folder it makes "
				 "is on this host; accepted: the same files in a --configs DIR on the "
				 "shared file system)", c->patches ? "patch" : "variant");
		return -1;
	}
	return adhoc_prepare_run(c, &r->opts->lines, r->opts->sources, r->opts->dry_run,
				 kernel_series_applies, &r->adhoc, why);
}

/* cmd_run once the options are read: the exit status. */
static int run_with(struct run *r, int argc, char **argv)
{
	struct run_opts *o = r->opts;
	char *why;
	int rc;

	if (exec_apply_cache(&o->exec, &why) < 0 || shard_child_prepare(o, &why) < 0)
		return hb_usage_why(why);
	if (o->resume) {
		r->dir = hb_resolve_run_dir(o->resume);
		if (resume_read_plan(r->dir, o, &why) < 0 || exec_resume_defaults(o, r->dir, &why) < 0)
			return hb_usage_why(why);
	}
	if (prepare_adhoc(r, &why) < 0)
		return hb_usage_why(why);
	if ((rc = run_setup(r, &why)) != 0 || (rc = shard_child_select(r, &why)) != 0)
		return rc == HB_EXIT_USAGE ? hb_usage_why(why) : hb_fail_why(why);
	estimator_init(&r->est, NULL, 0, ACCEL_AUTO, NULL); /* what run_resolve_accel frees */
	if ((rc = run_resolve_accel(r, false)) != 0)
		return rc < 0 ? HB_EXIT_FAIL : rc;
	/* Before anything is built: an explicit --accel kvm, or the cached probe's answer. */
	if (o->profile && run_profile_check(r, &why) != 0)
		return hb_usage_why(why);
	if (o->profile && o->exec.executor == EXECUTOR_SLURM)
		return hb_usage("--profile with --executor slurm: the shards' profiles are not "
				"merged (accepted: --executor local)");
	if (!r->dir) {
		char *id = rs_new_run_id(NULL), *root = hb_results_root();
		r->dir = o->out ? xstrdup(o->out) : hb_path_join(root, id);
		free(id);
		free(root);
	}
	/* Root writes samples and logs there: never in a folder someone else owns or can write. */
	if (hb_check_out_dir(r->dir, "--out", &why) < 0)
		return hb_usage_why(why);
	return executor_of(o->exec.executor)->run(r, argc, argv);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run r = { .opts = &o, .run_lock_fd = -1 };
	char *why;
	int rc = run_opts_parse(argc, argv, &o, &why);

	if (rc != HB_OPTS_OK) {
		run_opts_free(&o);
		return rc == HB_OPTS_HELP ? HB_EXIT_OK : hb_usage_why(why);
	}
	rc = run_with(&r, argc, argv);
	run_free(&r);
	return rc;
}
