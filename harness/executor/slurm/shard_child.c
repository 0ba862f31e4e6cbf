/* The job side of a shard: `harness run --shard-of RUN --shard ID` runs the cells of one
 * shard of RUN's plan into RUN/shards/ID/, with the kernels RUN's harness built. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "kernel/manifest.h"
#include "executor/slurm/slurm.h"
#include "run/run.h"
#include "executor/slurm/shard.h"

/* The job gets the submitting command line (so options that do not define the plan,
 * like --accel or --timeout, are the same); what defines the plan comes from RUN. */
static void drop_plan_options(struct run_opts *o)
{
	hb_free_strv(o->lines);
	hb_free_strv(o->variants);
	hb_free_strv(o->workloads);
	hb_free_strv(o->params);
	hb_free_strv(o->workload_boots);
	free(o->vm.cores);
	o->lines = o->variants = o->workloads = o->workload_boots = NULL;
	o->params = xcalloc(1, sizeof(char *));
	o->vm.cores = NULL;
	o->vm.ncores = 0;
	o->reps = o->boots = 0;
	o->reps_given = o->boots_given = o->order_given = o->seed_given = false;
	o->vm.mem_mib = 0;
	o->out = o->resume = NULL;
	o->dry_run = false;
}

int shard_child_prepare(struct run_opts *o, char **why)
{
	if (!o->exec.shard_of && o->exec.shard) {
		*why = xasprintf("--shard: needs --shard-of RUN (both are set by the slurm executor)");
		return -1;
	}
	if (!o->exec.shard_of)
		return 0;
	if (!o->exec.shard) {
		*why = xasprintf("--shard-of: needs --shard ID (both are set by the slurm executor)");
		return -1;
	}
	drop_plan_options(o);
	if (resume_read_plan(o->exec.shard_of, o, why) < 0)
		return -1;
	o->out = xasprintf("%s/shards/%s", o->exec.shard_of, o->exec.shard); /* lives as long as the run */
	o->no_report = true;
	o->exec.executor = EXECUTOR_LOCAL;
	return 0;
}

/* The kernel of build k exactly as RUN recorded it (its cache entry, by path and key):
 * a node never builds, and needs neither the kernel source nor the same compiler. */
static int adopt_kernel(struct run *r, size_t k, json_object *kernels, char **why)
{
	const char *build = r->kernel_builds[k];
	json_object *e, *img, *key;
	struct manifest_info m;
	char *entry;

	if (!json_object_object_get_ex(kernels, build, &e) || !json_object_object_get_ex(e, "image", &img) ||
	    !json_object_object_get_ex(e, "key", &key)) {
		*why = xasprintf("%s/meta.json records no kernel for build '%s'", r->opts->exec.shard_of, build);
		return -1;
	}
	entry = xstrdup(json_object_get_string(img));
	entry = dirname(entry);
	if (!hb_is_file(json_object_get_string(img)) || manifest_read(entry, &m) != 0) {
		*why = xasprintf("kernel '%s' is not at %s on this node: the kernel cache (--cache) must "
				 "be on a filesystem every node mounts at the same path", build,
				 json_object_get_string(img));
		return -1;
	}
	if (strcmp(m.key, json_object_get_string(key))) {
		*why = xasprintf("kernel '%s' in %s has cache key %.12s, the run was planned with %.12s",
				 build, entry, m.key, json_object_get_string(key));
		manifest_info_free(&m);
		return -1;
	}
	r->kernels[k] = (struct kernel_image){
		.build = xstrdup(build), .entry_dir = xstrdup(entry),
		.bzimage = xstrdup(json_object_get_string(img)), .release = xstrdup(m.release),
		.config = hb_path_join(entry, "config"), .key = xstrdup(m.key),
		.vmlinux = hb_path_join(entry, "vmlinux"), .modules_root = hb_path_join(entry, "modules"),
	};
	if (!hb_is_file(r->kernels[k].vmlinux))
		free(r->kernels[k].vmlinux), r->kernels[k].vmlinux = NULL;
	if (!hb_is_dir(r->kernels[k].modules_root))
		free(r->kernels[k].modules_root), r->kernels[k].modules_root = NULL;
	manifest_info_free(&m);
	return 0;
}

static int adopt_kernels(struct run *r, char **why)
{
	json_object *meta = rs_read_meta(r->opts->exec.shard_of), *kernels = NULL, *by_line = NULL;
	int rc = 0;

	if (!meta || !json_object_object_get_ex(meta, "kernels", &kernels)) {
		*why = xasprintf("%s/meta.json lists no kernels", r->opts->exec.shard_of);
		rc = -1;
	}
	json_object_object_get_ex(meta, "kernels_by_line", &by_line);
	for (size_t k = 0; rc == 0 && k < r->nkernels; k++) {
		/* Each line's kernels; sets from before lines list only 6.1's, in "kernels". */
		json_object *of_line = kernels;
		if (by_line)
			json_object_object_get_ex(by_line, r->kernel_lines[k], &of_line);
		rc = adopt_kernel(r, k, of_line, why);
	}
	json_object_put(meta);
	return rc;
}

int shard_child_select(struct run *r, char **why)
{
	struct shard_plan sp;
	const struct shard *s;
	bool *mine;

	if (!r->opts->exec.shard_of)
		return 0;
	shard_plan_build(&r->plan, &sp);
	s = shard_find(&sp, r->opts->exec.shard);
	if (!s) {
		*why = xasprintf("--shard: no shard '%s' in the plan of %s (accepted: "
				 "<workload>-c<cores>-b<boot>, e.g. %s)", r->opts->exec.shard,
				 r->opts->exec.shard_of, sp.n ? sp.shards[0].id : "none");
		shard_plan_free(&sp);
		return HB_EXIT_USAGE;
	}
	mine = xcalloc(r->plan.ncells, sizeof(bool));
	for (size_t i = 0; i < s->ncells; i++)
		mine[s->cells[i]] = true;
	for (size_t i = 0; i < r->plan.ncells; i++)
		for (int rep = 0; !mine[i] && rep < r->plan.reps; rep++)
			r->plan.cells[i].rep_done[rep] = true;
	free(mine);
	shard_plan_free(&sp);
	return adopt_kernels(r, why) == 0 ? 0 : HB_EXIT_FAIL;
}
