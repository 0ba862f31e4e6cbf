/* Starting a boot: sockets, ^C handling, virtiofsd (or the 9p fallback), QEMU, and the QMP
 * handshake that pins the vCPUs before the guest runs; and the cleanup after it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "boot/console_scan.h"
#include "boot/qmp.h"
#include "boot/vm_session.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"

#define QMP_TIMEOUT_S 30.0

static int listen_unix(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 1) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* SIGINT/SIGTERM/SIGHUP are read from a signalfd in the loop, so ^C ends the boot
 * cleanly (children stopped and reaped) instead of killing the harness mid-way. */
static int block_signals(struct vm_session *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &s->old_mask);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return s->sigfd < 0 ? session_fail(s, VM_ERR_START, "signalfd: %s", strerror(errno)) : 0;
}

static int start_root_share(struct vm_session *s)
{
	char *why = NULL, *log = hb_path_join(s->r->log_dir, "virtiofsd.log");
	const char *want = s->o->rootfs ? s->o->rootfs : "auto";

	unlinkat(s->log_dir_fd, "virtiofsd.log", 0);
	if (s->use_virtiofs && virtiofsd_start(&s->vfs, log, &why) < 0) {
		if (!strcmp(want, "virtiofs")) {
			session_fail(s, VM_ERR_START, "--rootfs virtiofs: %s", why);
			free(why);
			free(log);
			return -1;
		}
		s->use_virtiofs = false;
		s->r->rootfs_reason = why;
		if (!s->o->quiet)
			hb_warn("virtiofs unavailable (%s); sharing the host root over 9p", why);
		session_build_argv(s);
	}
	free(log);
	return 0;
}

/* QEMU child, before exec: its memory (guest RAM included) on the plan's nodes; with a
 * 9p root, its own mount namespace holding the guest's view of the host. */
static int qemu_setup(const void *session)
{
	const struct vm_session *s = session;
	int err = s->have_plan ? pin_bind_memory_self(&s->plan) : 0;

	return err || s->use_virtiofs ? err : host_view_mount(&s->view);
}

static int start_qemu(struct vm_session *s)
{
	char *log = hb_path_join(s->r->log_dir, "qemu.log");
	struct spawn_opts co = hb_child_opts(NULL, "QEMU");
	int pass[] = { s->console_fd, -1 }, out;
	int rc;

	/* Made here, bounded by the loop; QEMU's stdout and stderr append to it, opened here
	 * through the log folder's descriptor. */
	if (tail_log_create_at(&s->qemu_log, s->log_dir_fd, "qemu.log") < 0 ||
	    (out = openat(s->log_dir_fd, "qemu.log", O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		rc = session_fail(s, VM_ERR_START, "%s: %s", log, strerror(errno));
		free(log);
		return rc;
	}
	co.stdout_fd = out;
	co.stderr_fd = out;
	co.pass_fds = pass;
	co.setup = qemu_setup;
	co.setup_ctx = s;
	s->t_start = hb_now();
	s->deadline = s->t_start + s->timeout_s;
	rc = hb_child_start(&s->qemu, s->qemu_argv, &co);
	close(out);
	free(log);
	if (rc < 0)
		return session_fail(s, VM_ERR_START, "QEMU did not start (%s)", s->qemu_argv[0]);
	s->qemu_started = true;
	return 0;
}

/* Waits for QEMU to connect to one of our sockets. */
static int accept_port(struct vm_session *s, enum port_id id, double timeout_s)
{
	struct pollfd p = { .fd = s->listen_fd[id], .events = POLLIN };
	double end = hb_now() + timeout_s;

	while (poll(&p, 1, 100) == 0 || !(p.revents & POLLIN)) {
		if (hb_child_exited(&s->qemu) || hb_now() > end)
			return -1;
	}
	s->conn_fd[id] = accept4(s->listen_fd[id], NULL, NULL, SOCK_CLOEXEC);
	return s->conn_fd[id];
}

/* When QEMU died during startup, its own message says why (bad kernel image, device). */
static int qemu_died(struct vm_session *s)
{
	char *path = hb_path_join(s->r->log_dir, "qemu.log");
	char *last;

	console_scan_file(path, NULL, &last);
	session_fail(s, VM_ERR_START, "QEMU exited with status %d before the guest started: %s "
		     "(log: %s)", hb_child_exit_code(&s->qemu), last ? last : "(no message)", path);
	free(last);
	free(path);
	return -1;
}

/* QEMU waits in -S: read the vCPU thread ids, pin them, then let the guest run. */
static int pin_and_continue(struct vm_session *s)
{
	char *why = NULL;
	struct qmp *q;
	json_object *ret;
	int n;

	if (accept_port(s, PORT_QMP, QMP_TIMEOUT_S) < 0 && hb_child_exited(&s->qemu))
		return qemu_died(s);
	if (s->conn_fd[PORT_QMP] < 0)
		return session_fail(s, VM_ERR_START, "QEMU did not open its QMP socket (see %s/qemu.log)",
				    s->r->log_dir);
	q = qmp_open(s->conn_fd[PORT_QMP], QMP_TIMEOUT_S, &why);
	s->conn_fd[PORT_QMP] = -1; /* owned by q now */
	if (q && (n = qmp_vcpu_threads(q, &s->vcpu_tids, QMP_TIMEOUT_S, &why)) >= 0 &&
	    pin_apply(s->topo, &s->plan, s->qemu.pid, s->vcpu_tids, n,
		      s->use_virtiofs ? s->vfs.proc.pid : 0, &why) == 0 &&
	    (ret = qmp_execute(q, "cont", QMP_TIMEOUT_S, &why))) {
		json_object_put(ret);
		s->r->pin_map = pin_map_json(&s->plan, s->vcpu_tids);
		qmp_close(q);
		return 0;
	}
	qmp_close(q);
	if (!hb_child_exited(&s->qemu))
		usleep(200000); /* a QMP error may be QEMU on its way out */
	if (hb_child_exited(&s->qemu)) {
		free(why);
		return qemu_died(s);
	}
	session_fail(s, VM_ERR_START, "pinning vCPUs: %s", why ? why : "QMP failed");
	free(why);
	return -1;
}

int session_start(struct vm_session *s)
{
	static const char *const transcripts[2] = { "result.log", "output.raw" };

	for (int i = 0; i < 2; i++) {
		/* none, if it fails: they are a copy */
		tail_log_create_at(&s->port_log[i], s->log_dir_fd, transcripts[i]);
	}
	for (int i = 0; i < PORT_COUNT; i++) {
		if (i == PORT_QMP && !s->have_plan)
			continue;
		s->listen_fd[i] = listen_unix(s->socket_path[i]);
		if (s->listen_fd[i] < 0)
			return session_fail(s, VM_ERR_START, "socket %s: %s", s->socket_path[i],
					    strerror(errno));
	}
	if (block_signals(s) < 0 || start_root_share(s) < 0 || start_qemu(s) < 0)
		return -1;
	if (s->have_plan && pin_and_continue(s) < 0)
		return -1;
	return 0;
}

void session_cleanup(struct vm_session *s)
{
	if (s->qemu_started)
		hb_child_stop(&s->qemu, 3.0);
	virtiofsd_free(&s->vfs);
	host_view_free(&s->view);
	for (int i = 0; i < PORT_COUNT; i++) {
		if (s->conn_fd[i] >= 0)
			close(s->conn_fd[i]);
		if (s->listen_fd[i] >= 0)
			close(s->listen_fd[i]);
		free(s->socket_path[i]);
	}
	for (int i = 0; i < 2; i++)
		tail_log_close(&s->port_log[i]);
	tail_log_close(&s->console_log);
	tail_log_close(&s->qemu_log);
	if (s->console_fd >= 0)
		close(s->console_fd);
	if (s->log_dir_fd >= 0)
		close(s->log_dir_fd);
	s->console_fd = s->log_dir_fd = -1;
	if (s->sigfd >= 0) {
		struct signalfd_siginfo si;
		/* A ^C that came after the loop still counts, and must not kill us on unblock. */
		while (read(s->sigfd, &si, sizeof(si)) == sizeof(si))
			session_fail(s, VM_ERR_INTERRUPTED, "interrupted by signal %u", si.ssi_signo);
		close(s->sigfd);
		sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
	}
	if (s->rundir)
		hb_remove_tree(s->rundir);
	if (s->o->dry_run && s->created_log_dir)
		hb_remove_tree(s->r->log_dir);
	if (s->have_plan)
		pin_plan_free(&s->plan);
	pin_claims_release(&s->claims);
	if (s->topo)
		hwloc_topology_destroy(s->topo);
	proto_free(&s->proto);
	hb_free_strv(s->qemu_argv);
	free(s->vcpu_tids);
	free(s->rundir);
	free(s->jobfile);
	free(s->extra_cmdline);
}
