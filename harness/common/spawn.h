/* Running host tools: always an argv array through fork/exec, never a shell string. The
 * one fork/exec of the harness: tools run to completion (hb_run), and the long-lived
 * children of a boot (common/child.h) start here too. Every child gets a clean signal
 * mask (the harness blocks SIGINT/SIGTERM to read them between steps, and a blocked
 * mask survives exec), and exec errors are reported by the parent. */
#ifndef HB_COMMON_SPAWN_H
#define HB_COMMON_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/* Runs in the child before exec (memory binding, a mount namespace); returns 0, or an
 * errno value that the parent reports. */
typedef int (*spawn_setup_fn)(const void *ctx);

struct spawn_opts {
	const char *cwd;          /* NULL: inherit */
	const char *stdout_path;  /* NULL: inherit; else truncated and written */
	const char *stderr_path;  /* NULL: inherit; "=stdout": same as stdout */
	bool append;              /* open the paths above with O_APPEND instead of O_TRUNC */
	bool stdin_null;          /* stdin from /dev/null */
	bool new_pgrp;            /* child leads its own process group (kill the whole tree) */
	int parent_death_signal;  /* 0; or the child gets it when the harness dies, however it
				   * dies (SIGTERM: make passes it on; SIGKILL: QEMU) */
	char *const *env_add;     /* extra "KEY=VALUE" entries, NULL-terminated, or NULL */
	spawn_setup_fn setup;     /* NULL: none */
	const void *setup_ctx;
	const char *what;         /* "QEMU": names the child in errors; NULL: argv[0] does */
	int *pidfd;               /* NULL; or gets a pidfd of the child (-1 without pidfd_open) */
	int stdin_fd;             /* > 0: the child's stdin (a script from memory); 0: as above */
	int stdout_fd;            /* > 0: the child's stdout (a file the harness opened through
				   * a checked folder); 0: stdout_path or inherited */
	int stderr_fd;            /* > 0: the child's stderr; 0: stderr_path or inherited */
	const int *pass_fds;      /* -1-terminated, or NULL: descriptors the child keeps at the
				   * same numbers (/dev/fd/N, QEMU's -add-fd) */
	bool unprivileged;        /* run as common/unpriv.h's uid and gid with no supplementary
				   * groups and no_new_privs: for programs that run code from
				   * outside (make with a patch's Makefiles, patch, gnuplot) */
};

/* Starts argv; returns the pid, or -1 after printing why (exec errors are reported
 * by the parent: "cannot run 'X': No such file or directory"). */
pid_t hb_spawn(char *const argv[], const struct spawn_opts *opts);
/* Waits for pid. Returns the exit code, 128+signal when killed, -1 on wait error. */
int hb_wait(pid_t pid);
/* hb_spawn + hb_wait. */
int hb_run(char *const argv[], const struct spawn_opts *opts);
/* Runs argv and returns its stdout (NUL-terminated, caller frees) or NULL when it could
 * not start. *exit_code gets hb_wait's result. stderr is inherited. */
char *hb_run_capture(char *const argv[], int *exit_code);
/* hb_run_capture with stderr thrown away (a tool whose failure the caller explains). */
char *hb_run_capture_quiet(char *const argv[], int *exit_code);
/* Is this program on PATH (or an existing executable path)? */
/* The file exec would run for name (a PATH search, as execvp does), or NULL; caller frees. */
char *hb_find_program(const char *name);
bool hb_have_program(const char *name);

#endif
