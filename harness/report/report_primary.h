/* Which metric of a workload a short report (the mail, the step-by-step lines) shows.
 * Internal to report/. */
#ifndef HB_REPORT_REPORT_PRIMARY_H
#define HB_REPORT_REPORT_PRIMARY_H

/* The primary metric of the built-in workload a sample workload belongs to (itself or a
 * section such as test_vmalloc-performance; workloads/<name>/workload.ini "primary"); NULL
 * for workloads the harness does not know. Caller frees. */
char *report_primary_metric(const char *sample_workload);

#endif
