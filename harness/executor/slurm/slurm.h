/* The Slurm executor's entry points (the executor interface: executor/executor.h). */
#ifndef HB_EXECUTOR_SLURM_SLURM_H
#define HB_EXECUTOR_SLURM_SLURM_H

struct run;
struct run_opts;

/* The whole run through Slurm (slurm.c): exit status of `harness run`. */
int slurm_run(struct run *r, int argc, char **argv);

/* In a shard's job, before run_setup: the plan of RUN (its meta.json), out = the shard's
 * folder, no report, the local executor. 0, or -1 with *why (a usage error). */
int shard_child_prepare(struct run_opts *o, char **why);
/* After run_setup: every cell outside the shard is marked measured, and the kernels
 * must be in the shared cache with the keys RUN recorded (a node never builds).
 * 0; or HB_EXIT_USAGE / HB_EXIT_FAIL with *why. */
int shard_child_select(struct run *r, char **why);

/* cache_fs.c: says when the kernel cache is local to this host, or on a shared
 * filesystem whose flock does not reach other hosts. */
void slurm_check_cache(const char *cache);

#endif
