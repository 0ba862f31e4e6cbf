#include "boot/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/progress.h"

/* Child side. Any failure sends errno up the pipe and exits 127. */
__attribute__((noreturn)) static void child_exec(char *const argv[], const struct child_opts *o,
						 pid_t parent, int errpipe)
{
	sigset_t none;
	int err = 0;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	/* The harness may already be gone (killed between fork and prctl): then go too. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	if (o->log_path) {
		int fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(1, 2) < 0)
			err = errno;
	}
	if (!err && o->setup)
		err = o->setup(o->setup_ctx);
	if (!err) {
		execvp(argv[0], argv);
		err = errno;
	}
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int child_start(struct child *c, char *const argv[], const struct child_opts *o)
{
	pid_t parent = getpid();
	int pipefd[2], child_errno = 0;
	ssize_t n;

	*c = (struct child){ .pid = -1, .pidfd = -1 };
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		hb_error("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		hb_error("cannot start %s: fork: %s", o->what, strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (c->pid == 0)
		child_exec(argv, o, parent, pipefd[1]);
	close(pipefd[1]);
	do
		n = read(pipefd[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(child_errno)) {
		waitpid(c->pid, NULL, 0);
		c->pid = -1;
		hb_error("cannot start %s (%s): %s", o->what, argv[0], strerror(child_errno));
		return -1;
	}
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	return 0;
}

/* Exit is noticed without reaping first, so the group id cannot have been reused when
 * the helpers the child left in its group are killed; then the child is reaped. */
bool child_exited(struct child *c)
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
static bool wait_exit(struct child *c, double seconds)
{
	double end = hb_now() + seconds;

	while (!child_exited(c)) {
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

void child_stop(struct child *c, double grace_s)
{
	if (c->pid > 0 && !child_exited(c)) {
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

int child_exit_code(const struct child *c)
{
	if (!c->reaped)
		return -1;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	return WIFSIGNALED(c->status) ? 128 + WTERMSIG(c->status) : -1;
}
