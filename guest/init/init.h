/* hardbench-init: PID 1 of a hardbench guest. See PROTOCOL.md for what it reads and sends.
 * Static, libc only: it runs before anything else exists in the guest. */
#ifndef HB_INIT_H
#define HB_INIT_H

#include <stdarg.h>
#include <stddef.h>

#include "guest/protocol.h"

#define INIT_WHY_MAX 256

struct init_job {
	char **argv;  /* NULL-terminated */
	char **env;   /* extra KEY=VALUE, NULL-terminated */
	char *cwd;    /* never NULL after parsing (default /tmp) */
	char **irq;   /* /proc/interrupts row labels to count per rep, NULL-terminated, or NULL */
	int reps;
};

struct init_spec {
	char *home;        /* host $HOME to overlay, or NULL */
	char *modules;     /* host modules tree, or NULL */
	struct init_job *jobs;
	size_t njobs;
};

/* The two virtio-serial ports; -1 when not found. */
struct ports {
	int result;
	int output;
};

/* jobfile.c: parses the job file text (modified in place). 0, or -1 with why. */
int jobfile_parse(char *text, struct init_spec *out, char why[INIT_WHY_MAX]);
/* Frees what jobfile_parse allocated (the strings stay in text). The init never calls it:
 * PID 1 keeps its job list until power-off; its tests and fuzz target do. */
void jobfile_free(struct init_spec *s);

/* ports.c */
int ports_open(struct ports *p, char why[INIT_WHY_MAX]);
__attribute__((format(printf, 2, 3))) void port_line(int fd, const char *fmt, ...);
/* One framed chunk of a job's stdout ('o') or stderr ('e'). */
void port_frame(int fd, char stream, int job, int rep, const char *buf, size_t len);

/* mounts.c: the early mounts (proc, sys, dev) and the rest (tmpfs, modules, $HOME). */
int mount_early(char why[INIT_WHY_MAX]);
int mount_guest_tree(const struct init_spec *s, int result_fd, char why[INIT_WHY_MAX]);

/* run.c: runs one repetition of a job and reports it on the ports. */
void run_rep(const struct init_spec *s, const struct init_job *job, int j, int r,
	     const struct ports *p);

/* interrupts.c: the job's "irq" counts. */
/* The sum over all CPUs of the row labelled label in text (a /proc/interrupts): 0, or -1
 * with why (no such row, no count, no CPU header). */
int irq_row_sum(const char *text, const char *label, unsigned long long *sum,
		char why[INIT_WHY_MAX]);
/* /proc/interrupts now (malloc'd), or NULL with why. */
char *irq_snapshot(char why[INIT_WHY_MAX]);
/* One "irq" or "noirq" line per label: after minus before. A NULL snapshot gives
 * "noirq" with snap_why for every label. */
void irq_report(int port, char *const *labels, const char *before, const char *after,
		const char *snap_why);

/* idle.c: the guest's halted nanoseconds so far (tick-sched idle + iowait sleep time
 * summed over CPUs, from /proc/timer_list), or -1 when unreadable. */
long long idle_sleep_ns(void);

/* msg.c */
/* why = the formatted reason, then ": strerror(err)" when err is not 0. */
__attribute__((format(printf, 3, 4))) void init_set_why(char why[INIT_WHY_MAX], int err,
							const char *fmt, ...);
void init_console_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes all of buf; gives up on a hard error (the host is gone: nothing to tell). */
void init_write_all(int fd, const char *buf, size_t len);

/* bringup.c */
void init_bring_up_loopback(void);
/* Brings present but offline CPUs online (icount boots with maxcpus=1); returns how many. */
int init_online_cpus(int result_fd);

#endif
