/* Shared by the static guest programs: the workloads' helpers and the guest init (never by
 * the host harness).
 *
 * A helper prints its results on stdout as "key value" lines that its workload's parse.c
 * reads, and reports a failure as one line on stderr (the harness quotes it as the
 * reason) with exit status 1; a bad command line is exit status 2. */
#ifndef HB_WORKLOAD_HELPER_H
#define HB_WORKLOAD_HELPER_H

#include <stdio.h>
#include <sys/time.h>

#define HELPER_EXIT_FAIL 1
#define HELPER_EXIT_USAGE 2

/* CLOCK_MONOTONIC seconds. */
double helper_now(void);
double helper_tv_s(struct timeval tv);
/* User and system CPU seconds of this process so far (getrusage RUSAGE_SELF). */
void helper_self_cpu(double *user_s, double *sys_s);
/* Whole-system CPU seconds from the aggregate "cpu" line of /proc/stat, summed over CPUs:
 * user = user + nice, sys = system + irq + softirq, idle = idle + iowait. */
struct helper_cpu_times {
	double user_s, sys_s, idle_s, iowait_s;
};
/* 0, or -1 (all zero) when /proc/stat cannot be read or parsed. */
int helper_system_cpu(struct helper_cpu_times *t);
/* Sectors (512 bytes) read from all whole block devices so far (/proc/diskstats, the
 * devices /sys/block lists, so partitions are not counted twice); -1 when unreadable. */
long long helper_disk_read_sectors(void);
/* Whole small file (e.g. under /proc), NUL-terminated; NULL with errno set. */
char *helper_read_file(const char *path);
/* Value of "Key: N kB" (or a plain count) in /proc/meminfo text; -1 when absent. */
long long helper_meminfo_value(const char *meminfo, const char *key);
/* Writes the whole string to a file (e.g. a sysctl). 0, or -1 with errno set. */
int helper_write_file(const char *path, const char *text);
/* One line "<program>: <message>" on stderr, then exit(status). */
__attribute__((noreturn, format(printf, 2, 3))) void helper_die(int status, const char *fmt, ...);
/* Strict decimal parse of a command-line number, or exit 2 naming the option. */
long helper_parse_long(const char *option, const char *value, long min, long max);

#endif
