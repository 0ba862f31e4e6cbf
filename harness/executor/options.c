/* What the executor options change before the plan is set up: the kernel cache every
 * later lookup sees, and the executor a resumed run keeps. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/paths.h"
#include "common/xalloc.h"
#include "executor/executor.h"
#include "results/store.h"
#include "run/run.h"

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
