/* The executor options of `harness run`: a separate group of its option table. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/paths.h"
#include "common/xalloc.h"
#include "run/executor.h"
#include "run/options.h"
#include "run/run.h"
#include "results/store.h"

static const char *const executors[] = { "local", "slurm", NULL };

static int executor_given(void *base, const char *value, char **why)
{
	(void)value, (void)why;
	((struct exec_cli *)base)->executor_given = true;
	return 0;
}

#define EX(f) offsetof(struct exec_cli, f)

const struct hb_option exec_cli_options[] = {
	{ "executor", 0, HB_OPT_CHOICE, "E", "where cells run: local (default) or slurm (one\n"
	  "--exclusive job per round of a workload and vCPU count; see docs/slurm.md)",
	  .choices = executors, .off = EX(executor), .set = executor_given },
	{ "partition", 0, HB_OPT_STRING, "P", "slurm: the partition to submit to", .off = EX(partition) },
	{ "slurm-opt", 0, HB_OPT_STR_REPEAT, "ARG", "slurm: one more sbatch argument, e.g.\n"
	  "--slurm-opt=--time=2:00:00 (repeatable)", .off = EX(slurm_opts) },
	{ "cache", 0, HB_OPT_STRING, "DIR", "kernel cache (default $HARDBENCH_CACHE or\n"
	  "~/.cache/hardbench); with slurm, on a filesystem every node sees", .off = EX(cache) },
	{ "poll-ms", 0, HB_OPT_INT, "MS", "slurm: scheduler polling interval", 100, 600000,
	  .off = EX(poll_ms), .def = "1000" },
	{ "shard-of", 0, HB_OPT_STRING, "RUN", "internal: set by the slurm executor in its jobs",
	  .off = EX(shard_of) },
	{ "shard", 0, HB_OPT_STRING, "ID", "internal: set by the slurm executor in its jobs",
	  .off = EX(shard) },
	{ NULL },
};

int exec_apply_cache(const struct exec_cli *c, char **why)
{
	char real[PATH_MAX];

	if (!c->cache)
		return 0;
	if (hb_mkdir_p(c->cache, 0755) < 0 || !realpath(c->cache, real)) {
		*why = xasprintf("--cache: cannot use '%s': %s (accepted: a directory that exists "
				 "or can be created)", c->cache, strerror(errno));
		return -1;
	}
	/* The environment, not one field: the accel probe and workload preparation read the
	 * cache too, and Slurm passes the environment on to the jobs. */
	setenv("HARDBENCH_CACHE", real, 1);
	return 0;
}

int exec_resume_defaults(struct run_opts *o, const char *dir, char **why)
{
	json_object *meta = rs_read_meta(dir), *slurm = NULL, *v;
	bool sharded = meta && json_object_object_get_ex(meta, "slurm", &slurm);
	int rc = 0;

	if (sharded && o->exec.executor_given && o->exec.executor == EXECUTOR_LOCAL) {
		*why = xasprintf("--executor local: %s was sharded over Slurm (accepted: slurm, "
				 "or no --executor, to resume it)", dir);
		rc = -1;
	} else if (sharded) {
		o->exec.executor = EXECUTOR_SLURM;
		/* Kept strings live as long as the options: strdup'd into lists the table frees. */
		if (!o->exec.partition && json_object_object_get_ex(slurm, "partition", &v) &&
		    json_object_is_type(v, json_type_string))
			o->exec.partition = xstrdup(json_object_get_string(v)); /* small, kept */
		if ((!o->exec.slurm_opts || !o->exec.slurm_opts[0]) &&
		    json_object_object_get_ex(slurm, "slurm_opts", &v)) {
			free(o->exec.slurm_opts);
			o->exec.slurm_opts = strv_from_json(v);
		}
	}
	json_object_put(meta);
	return rc;
}
