#include "common/child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "common/progress.h"

struct spawn_opts hb_child_opts(const char *log_path, const char *what)
{
	return (struct spawn_opts){ .stdout_path = log_path, .stderr_path = log_path ? "=stdout" : NULL,
				    .append = true, .stdin_null = true, .what = what };
}

int hb_child_start(struct hb_child *c, char *const argv[], const struct spawn_opts *o)
{
	struct spawn_opts so = *o;

	*c = (struct hb_child){ .pid = -1, .pidfd = -1 };
	so.new_pgrp = true;
	so.parent_death_signal = SIGKILL;
	so.pidfd = &c->pidfd;
	c->pid = hb_spawn(argv, &so);
	return c->pid < 0 ? -1 : 0;
}

/* Exit is noticed without reaping first, so the group id cannot have been reused when
 * the helpers the child left in its group are killed; then the child is reaped. */
bool hb_child_exited(struct hb_child *c)
{
	siginfo_t info = { 0 };

	if (c->pid < 0 || c->reaped)
		return true;
	if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 || !info.si_pid)
		return false;
	kill(-c->pid, SIGKILL);
	if (waitpid(c->pid, &c->status, 0) == c->pid)
		c->reaped = true;
	return c->reaped;
}

/* Waits up to seconds for the child to exit. */
static bool wait_exit(struct hb_child *c, double seconds)
{
	double end = hb_now() + seconds;

	while (!hb_child_exited(c)) {
		double left = end - hb_now();
		if (left <= 0)
			return false;
		if (c->pidfd >= 0) {
			struct pollfd p = { .fd = c->pidfd, .events = POLLIN };
			poll(&p, 1, (int)(left * 1000) + 1);
		} else {
			const struct timespec tick = { 0, 10 * 1000000L };
			nanosleep(&tick, NULL);
		}
	}
	return true;
}

void hb_child_stop(struct hb_child *c, double grace_s)
{
	if (c->pid > 0 && !hb_child_exited(c)) {
		kill(-c->pid, SIGTERM);
		if (!wait_exit(c, grace_s)) {
			kill(-c->pid, SIGKILL);
			wait_exit(c, 10);
		}
	}
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
}

int hb_child_exit_code(const struct hb_child *c)
{
	if (!c->reaped)
		return -1;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	return WIFSIGNALED(c->status) ? 128 + WTERMSIG(c->status) : -1;
}
