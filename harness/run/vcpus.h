/* vCPU counts against the host's cores: under icount a guest's vCPUs share one host thread,
 * so no count is refused for want of cores (run/vcpus.c). */
#ifndef HB_RUN_VCPUS_H
#define HB_RUN_VCPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct run;
struct run_opts;

/* Before the accel is known: true when the guests may run under icount (--clock icount,
 * or auto without --accel kvm), so any vCPU count is accepted for now. */
bool run_cores_unbounded(const struct run_opts *o);
/* matrix_check_cores with that answer: distinct counts, and at most the host's cores
 * unless --overcommit or icount. 0, or -1 with *why. */
int run_check_cores(const struct run *r, const long *cores, size_t n, char **why);
/* Once each workload's clock is resolved: a workload under the host clock with more vCPUs
 * than host cores, without --overcommit, is refused. 0, or -1 with *why. */
int run_check_vcpus(const struct run *r, char **why);
/* "vCPUs: up to 24 on this 2-core host: icount runs ..." when the plan has such cells. */
void run_print_vcpus(const struct run *r, FILE *out);

#endif
