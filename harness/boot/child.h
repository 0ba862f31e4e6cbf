/* The long-lived children of a boot (QEMU, virtiofsd). common/spawn.h runs tools; these
 * need more between fork and exec: a clean signal mask (vm_run blocks SIGINT/SIGTERM to
 * read them from a signalfd, and a blocked mask survives exec), death with the harness
 * (PR_SET_PDEATHSIG: even a SIGKILLed harness leaves no QEMU behind), their own process
 * group, and a setup hook (memory binding, virtiofsd's read-only view of the host). */
#ifndef HB_BOOT_CHILD_H
#define HB_BOOT_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/* Runs in the child before exec; returns 0, or an errno value that the parent reports. */
typedef int (*child_setup_fn)(const void *ctx);

struct child_opts {
	const char *log_path;      /* stdout+stderr appended here; NULL: inherit */
	child_setup_fn setup;      /* NULL: none */
	const void *setup_ctx;
	const char *what;          /* "QEMU", "virtiofsd": names the child in errors */
};

struct child {
	pid_t pid;                 /* -1: not running */
	int pidfd;                 /* readable when it exits; -1 when pidfd_open is missing */
	int status;                /* wait status once reaped */
	bool reaped;
};

/* Starts argv; 0 with c filled, or -1 after printing why (exec errors included). */
int child_start(struct child *c, char *const argv[], const struct child_opts *o);
/* Non-blocking: true once the child has exited (and is reaped). */
bool child_exited(struct child *c);
/* SIGTERM to its process group, SIGKILL after grace_s, and reap. Safe to call twice. */
void child_stop(struct child *c, double grace_s);
/* Exit code, 128+signal, or -1 when not reaped. */
int child_exit_code(const struct child *c);

#endif
