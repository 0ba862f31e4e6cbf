/* The matrix of a run: which variants, workloads and vCPU counts, with the defaults of the
 * main job (the seeds' matrix scaled to the host; docs/methodology.md) and the checks that
 * every name and count is usable here. */
#ifndef HB_RUN_MATRIX_H
#define HB_RUN_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

/* Physical cores of this host (hwloc). */
int matrix_host_cores(void);
/* {2,6,12,24} that fit host_cores; {host_cores} when none does. */
long *matrix_default_cores(int host_cores, size_t *n);
/* 0; or -1 with *why naming a repeated count or one above host_cores (unless
 * overcommit; the message is harness boot's, see boot/vm_options.h). */
int matrix_check_cores(const long *cores, size_t n, int host_cores, bool overcommit, char **why);
/* baseline, init_on_alloc, init_on_free, then every other variant whose build can be made
 * (its fragments and patches are all present). */
char **matrix_default_variants(void);
/* 0; or -1 with *why naming an unknown variant (listing the known ones) or a repeated one. */
int matrix_check_variants(char *const *variants, char **why);
char **matrix_default_workloads(void);

#endif
