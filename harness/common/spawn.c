#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "unpriv.h"
#include "xalloc.h"

extern char **environ;

static int open_output(const char *path, bool append)
{
	/* Logs in cache entries and run folders: a planted symlink is refused, not followed. */
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
	return open(path, flags, 0644);
}

/* A long child must not outlive a harness that was killed, even by SIGKILL: the kernel
 * sends it sig (make passes SIGTERM on to its own children). If the parent is already
 * gone (it died before prctl), act at once. */
static void tie_to_parent(pid_t parent, int sig)
{
	if (prctl(PR_SET_PDEATHSIG, sig) < 0 || getppid() != parent)
		_exit(128 + sig);
}

/* The harness may block SIGINT/SIGTERM to stop cleanly between steps; its children must
 * not inherit that, or ^C would not reach them. */
static void reset_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

/* Child side: fds, cwd, environment, the setup hook, exec; 0 or the errno of what failed. */
static int child_prepare(const struct spawn_opts *o, pid_t parent)
{
	if (o->new_pgrp)
		setpgid(0, 0);
	if (o->parent_death_signal)
		tie_to_parent(parent, o->parent_death_signal);
	if (o->stdin_null) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
	}
	if (o->stdin_fd > 0 && dup2(o->stdin_fd, 0) < 0)
		return errno;
	if (o->stdout_fd > 0 && dup2(o->stdout_fd, 1) < 0)
		return errno;
	if (o->stderr_fd > 0 && dup2(o->stderr_fd, 2) < 0)
		return errno;
	for (size_t i = 0; o->pass_fds && o->pass_fds[i] >= 0; i++)
		if (fcntl(o->pass_fds[i], F_SETFD, 0) < 0)
			return errno;
	if (o->stdout_path) {
		int fd = open_output(o->stdout_path, o->append);
		if (fd < 0 || dup2(fd, 1) < 0)
			return errno;
	}
	if (o->stderr_path) {
		int fd = !strcmp(o->stderr_path, "=stdout") ? dup(1) : open_output(o->stderr_path, o->append);
		if (fd < 0 || dup2(fd, 2) < 0)
			return errno;
	}
	if (o->cwd && chdir(o->cwd) < 0)
		return errno;
	for (size_t i = 0; o->env_add && o->env_add[i]; i++)
		putenv(o->env_add[i]);
	int err = o->setup ? o->setup(o->setup_ctx) : 0;
	/* Last: files, folders and namespaces above were opened with the harness's rights.
	 * A change of uid clears the death signal: it is set again after it. */
	if (!err && o->unprivileged && !(err = hb_drop_privileges()) && o->parent_death_signal)
		tie_to_parent(parent, o->parent_death_signal);
	return err;
}

/* On failure, the errno goes up the pipe. */
__attribute__((noreturn)) static void child_exec(char *const argv[], const struct spawn_opts *o,
						 int errpipe, pid_t parent)
{
	int err;

	reset_signals();
	err = child_prepare(o, parent);
	if (!err) {
		execvp(argv[0], argv);
		err = errno;
	}
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

static void report_start_error(char *const argv[], const struct spawn_opts *o, const char *step, int err)
{
	if (o->what && step)
		hb_error("cannot start %s: %s: %s", o->what, step, strerror(err));
	else if (o->what)
		hb_error("cannot start %s (%s): %s", o->what, argv[0], strerror(err));
	else if (step)
		hb_error("%s: %s", step, strerror(err));
	else
		hb_error("cannot run '%s': %s", argv[0], strerror(err));
}

pid_t hb_spawn(char *const argv[], const struct spawn_opts *opts)
{
	static const struct spawn_opts none;
	const struct spawn_opts *o = opts ? opts : &none;
	int pipefd[2];
	int child_errno = 0;
	pid_t pid, parent = getpid();
	ssize_t n;

	if (o->pidfd)
		*o->pidfd = -1;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		hb_error("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		report_start_error(argv, o, "fork", errno);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		child_exec(argv, o, pipefd[1], parent);
	}
	close(pipefd[1]);
	do
		n = read(pipefd[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(child_errno)) {
		waitpid(pid, NULL, 0);
		report_start_error(argv, o, NULL, child_errno);
		return -1;
	}
	if (o->pidfd)
		*o->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return pid;
}

int hb_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

int hb_run(char *const argv[], const struct spawn_opts *opts)
{
	pid_t pid = hb_spawn(argv, opts);
	return pid < 0 ? -1 : hb_wait(pid);
}

static char *capture(char *const argv[], const char *stderr_path, int *exit_code)
{
	/* A memfd, not a file in /tmp: nothing another user could reach by name. */
	int fd = memfd_create("hardbench-capture", MFD_CLOEXEC);
	struct spawn_opts o = { .stdout_fd = fd, .stderr_path = stderr_path, .stdin_null = true };
	char *out = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;
	int rc;

	if (fd < 0) {
		hb_error("memfd_create: %s", strerror(errno));
		return NULL;
	}
	rc = hb_run(argv, &o);
	if (exit_code)
		*exit_code = rc;
	if (rc == -1 || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return NULL;
	}
	out = xgrow(out, &cap, 4096, 1);
	while ((n = read(fd, out + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2)
			out = xgrow(out, &cap, cap * 2, 1);
	}
	out[len] = '\0';
	close(fd);
	return out;
}

char *hb_run_capture(char *const argv[], int *exit_code)
{
	return capture(argv, NULL, exit_code);
}

char *hb_run_capture_quiet(char *const argv[], int *exit_code)
{
	return capture(argv, "/dev/null", exit_code);
}

char *hb_find_program(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *found = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	copy = xstrdup(path);
	for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", dir, name);
		if (access(full, X_OK) == 0)
			found = full;
		else
			free(full);
	}
	free(copy);
	return found;
}

bool hb_have_program(const char *name)
{
	char *path = hb_find_program(name);

	free(path);
	return path != NULL;
}
