/* One repetition of one job: fork/exec with stdout/stderr on pipes, forward them framed on
 * the output port while it runs, wait4 for its rusage, and report timings on the result
 * port as "metric value unit" lines followed by "exit". */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest/marker.h"
#include "helper.h"
#include "init.h"

#define CHUNK_SIZE HB_FRAME_MAX
/* When pidfd_open is missing (a --kernel older than 5.3), poll the child this often. */
#define CHILD_POLL_MS 10

extern char **environ;

/* The job's environment: a sane default that the job's own entries override. */
static char **job_environment(const struct init_spec *s, const struct init_job *job)
{
	static const char *const defaults[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"LANG=C", "TERM=dumb",
	};
	size_t nd = sizeof(defaults) / sizeof(defaults[0]), nj = 0, n = 0;
	char **env;

	while (job->env[nj])
		nj++;
	env = calloc(nd + nj + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < nj; i++)
		env[n++] = job->env[i];
	for (size_t i = 0; i < nd; i++) {
		size_t klen = strcspn(defaults[i], "=") + 1;
		int overridden = 0;
		for (size_t k = 0; k < nj; k++)
			overridden |= !strncmp(job->env[k], defaults[i], klen);
		if (!overridden)
			env[n++] = (char *)defaults[i];
	}
	if (s->home && asprintf(&env[n], "HOME=%s", s->home) > 0)
		n++;
	env[n] = NULL;
	return env;
}

static void exec_job(const struct init_spec *s, const struct init_job *job, int out, int err)
{
	int null = open("/dev/null", O_RDONLY);
	char **env = job_environment(s, job);

	setsid();
	signal(SIGPIPE, SIG_DFL);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (chdir(job->cwd) < 0) {
		dprintf(2, "hardbench-init: cannot enter %s: %s\n", job->cwd, strerror(errno));
		_exit(127);
	}
	if (env)
		environ = env; /* execvp searches the PATH of the new environment */
	execvp(job->argv[0], job->argv);
	dprintf(2, "hardbench-init: cannot run '%s': %s\n", job->argv[0], strerror(errno));
	_exit(127);
}

/* Forwards what one pipe has; returns 0 at EOF or error, 1 while open. */
static int forward(int fd, char stream, int j, int r, int port, char *buf)
{
	ssize_t n = read(fd, buf, CHUNK_SIZE);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	port_frame(port, stream, j, r, buf, (size_t)n);
	return 1;
}

struct child_io {
	pid_t pid;
	int pidfd;      /* -1: poll with a timeout instead */
	int pipes[2];   /* stdout, stderr read ends; -1 once at EOF */
};

/* Forwards output until the child exits; then takes what is left in the pipes (a
 * background grandchild may keep them open: it does not get to hold up the job). */
static void pump_until_exit(struct child_io *c, int j, int r, int port, char *buf,
			    int *status, struct rusage *ru, double *end)
{
	static const char streams[2] = { HB_STREAM_STDOUT, HB_STREAM_STDERR };

	for (;;) {
		struct pollfd pfd[3];
		int which[3], n = 0;
		for (int i = 0; i < 2; i++)
			if (c->pipes[i] >= 0) {
				which[n] = i;
				pfd[n++] = (struct pollfd){ .fd = c->pipes[i], .events = POLLIN };
			}
		if (c->pidfd >= 0) {
			which[n] = -1;
			pfd[n++] = (struct pollfd){ .fd = c->pidfd, .events = POLLIN };
		}
		poll(pfd, (nfds_t)n, c->pidfd >= 0 ? -1 : CHILD_POLL_MS);
		/* Only pipes that are ready: a read on the other would block. */
		for (int k = 0; k < n; k++) {
			int i = which[k];
			if (i < 0 || !pfd[k].revents)
				continue;
			if (!forward(c->pipes[i], streams[i], j, r, port, buf)) {
				close(c->pipes[i]);
				c->pipes[i] = -1;
			}
		}
		if (wait4(c->pid, status, WNOHANG, ru) == c->pid) {
			HB_MARK_END(HB_MARK_ID_JOB); /* guest/marker.h: the rep's section ends */
			*end = helper_now();
			break;
		}
	}
	for (int i = 0; i < 2; i++) {
		if (c->pipes[i] < 0)
			continue;
		ssize_t n;
		fcntl(c->pipes[i], F_SETFL, O_NONBLOCK);
		while ((n = read(c->pipes[i], buf, CHUNK_SIZE)) > 0)
			port_frame(port, streams[i], j, r, buf, (size_t)n);
		close(c->pipes[i]);
	}
}

/* The rep's /proc/interrupts before and after, when the job counts irq rows. */
struct irq_snaps {
	char *before, *after;
	char why[INIT_WHY_MAX];
};

/* hbprofile=1 on the kernel command line (`harness run --profile`; the kernel passes it to
 * the init in the environment): the rep's halted time is measured, outside its clock. */
static bool profiling(void)
{
	const char *on = getenv("hbprofile");
	return on && !strcmp(on, "1");
}

static void report(int port, int j, int r, double wall, const struct rusage *ru,
		   const struct helper_cpu_times *a, const struct helper_cpu_times *b,
		   char *const *irq, const struct irq_snaps *snaps, int status,
		   const long long idle_ns[2])
{
	port_line(port, "wall %.6f s", wall);
	/* Nanoseconds: the profile checks instructions + idle against wall to 0.1%. */
	if (idle_ns[0] >= 0 && idle_ns[1] >= idle_ns[0])
		port_line(port, "idle_sleep %.9f s", (double)(idle_ns[1] - idle_ns[0]) / 1e9);
	port_line(port, "user %.6f s", helper_tv_s(ru->ru_utime));
	port_line(port, "sys %.6f s", helper_tv_s(ru->ru_stime));
	port_line(port, "guest_user %.2f s", b->user_s - a->user_s);
	port_line(port, "guest_sys %.2f s", b->sys_s - a->sys_s);
	port_line(port, "guest_idle %.2f s", b->idle_s - a->idle_s);
	irq_report(port, irq, snaps->before, snaps->after, snaps->why);
	if (WIFSIGNALED(status))
		port_line(port, HB_LINE_EXIT, j, r, -1, WTERMSIG(status));
	else
		port_line(port, HB_LINE_EXIT, j, r, WEXITSTATUS(status), 0);
}

void run_rep(const struct init_spec *s, const struct init_job *job, int j, int r,
	     const struct ports *p)
{
	int out[2], err[2], status = 0;
	struct helper_cpu_times before, after;
	struct rusage ru = { 0 };
	struct child_io c;
	struct irq_snaps snaps = { 0 };
	double t0, t1 = 0;
	long long idle_ns[2] = { -1, -1 };
	char *buf = malloc(CHUNK_SIZE);

	if (!buf || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		port_line(p->result, "fail job cannot set up job %d rep %d: %s", j, r, strerror(errno));
		free(buf);
		return;
	}
	port_line(p->result, HB_LINE_START, j, r);
	/* Only for jobs that ask; read before the clock starts and after it stops. */
	if (job->irq)
		snaps.before = irq_snapshot(snaps.why);
	helper_system_cpu(&before);
	idle_ns[0] = profiling() ? idle_sleep_ns() : -1;
	t0 = helper_now();
	/* Every rep is marked, failed or not: a plugin numbers sections in rep order. */
	HB_MARK_START(HB_MARK_ID_JOB);
	c.pid = fork();
	if (c.pid == 0)
		exec_job(s, job, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	c.pipes[0] = out[0];
	c.pipes[1] = err[0];
	c.pidfd = c.pid > 0 ? (int)syscall(SYS_pidfd_open, c.pid, 0) : -1;
	if (c.pid > 0) {
		pump_until_exit(&c, j, r, p->output, buf, &status, &ru, &t1);
	} else {
		HB_MARK_END(HB_MARK_ID_JOB);
		port_line(p->result, "note fork failed for job %d rep %d: %s", j, r, strerror(errno));
		close(out[0]);
		close(err[0]);
		status = 127 << 8;
	}
	double wall = (t1 ? t1 : helper_now()) - t0;
	idle_ns[1] = idle_ns[0] >= 0 ? idle_sleep_ns() : -1;
	helper_system_cpu(&after);
	if (snaps.before)
		snaps.after = irq_snapshot(snaps.why);
	if (c.pid > 0)
		kill(-c.pid, SIGKILL); /* background leftovers must not leak into the next rep */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		; /* PID 1 reaps the orphans that were handed to it */
	if (c.pidfd >= 0)
		close(c.pidfd);
	free(buf);
	report(p->result, j, r, wall, &ru, &before, &after, job->irq, &snaps, status, idle_ns);
	free(snaps.before);
	free(snaps.after);
}
