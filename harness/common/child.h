/* The long-lived children of a boot (QEMU, virtiofsd), started by hb_spawn
 * (common/spawn.h) in their own process group, tied to the harness (PR_SET_PDEATHSIG
 * SIGKILL: even a SIGKILLed harness leaves no QEMU behind), with a pidfd to wait on, and
 * stopped as a group. */
#ifndef HB_COMMON_CHILD_H
#define HB_COMMON_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/spawn.h"

struct hb_child {
	pid_t pid;                 /* -1: not running */
	int pidfd;                 /* readable when it exits; -1 when pidfd_open is missing */
	int status;                /* wait status once reaped */
	bool reaped;
};

/* The options of such a child: stdin from /dev/null, stdout+stderr appended to log_path
 * (NULL: inherited), what names it in errors; callers may add a setup hook. */
struct spawn_opts hb_child_opts(const char *log_path, const char *what);
/* Starts argv; 0 with c filled, or -1 after printing why (exec errors included). The
 * process group, the death signal and the pidfd are set here, whatever o says. */
int hb_child_start(struct hb_child *c, char *const argv[], const struct spawn_opts *o);
/* Non-blocking: true once the child has exited (and is reaped). */
bool hb_child_exited(struct hb_child *c);
/* SIGTERM to its process group, SIGKILL after grace_s, and reap. Safe to call twice. */
void hb_child_stop(struct hb_child *c, double grace_s);
/* Exit code, 128+signal, or -1 when not reaped. */
int hb_child_exit_code(const struct hb_child *c);

#endif
