/* The main job: `harness run` without --variants, --kernels, --patch, --variant or --kernel
 * runs, for each workload, only the cells its seeds need: the variants its seeds compare
 * (workload.ini default_variants), on the kernel line they need (default_kernel), and under
 * the icount clock at its icount_cores (unless --cores is given): one vCPU for kbuild,
 * whose sys split means nothing at more (round-robin icount runs the vCPUs in turn, and a
 * waiting vCPU's ticks are charged to user or sys), with its icount_params (test_vmalloc:
 * two workers on that one vCPU), each added to the run's --param list unless the user gave
 * that key. The accel (and so the clock) is the one known before any boot: --accel, or
 * the cached KVM probe; a host never probed is planned as TCG. The rest of the cross product
 * (hugetlb under KASAN, kbuild under the AF_UNIX patch) answers no published figure and
 * would triple the job. The chosen groups go to plan.keep and meta.json, so a resumed run
 * keeps them. */
#ifndef HB_RUN_MAIN_JOB_H
#define HB_RUN_MAIN_JOB_H

#include <stdbool.h>

struct run;

/* Before the defaults are filled: does this run's command line ask for the main job? */
bool main_job_asked(const struct run *r);
/* Once the workloads are loaded: sets the run's lines, variants, vCPU counts (unless
 * cores_given) and keep list. 0; or -1 with *why (a usage error: a line or count that
 * cannot run here). */
int main_job_fill(struct run *r, bool cores_given, char **why);
/* Does keep (NULL: everything) hold a group of variant on line? */
bool main_job_uses(char *const *keep, const char *line, const char *variant);

#endif
