/* While the guest runs: read the init's ports, watch the clock, QEMU and ^C. Afterwards:
 * decide what happened and say it in one line. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot/console_scan.h"
#include "boot/vm_session.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "guest/protocol.h"

#define READ_CHUNK 65536
/* Without a pidfd (old host kernel), QEMU's exit is noticed by polling this often. */
#define EXIT_POLL_MS 100
/* QEMU's own logs (console.log, qemu.log) are trimmed at least this often: a guest that
 * floods its console gets no further than what it writes in this time past the limit. */
#define LOG_TRIM_MS 250

static void copy_live(void *ctx, char stream, int job, int rep, const char *buf, size_t len)
{
	(void)ctx;
	(void)job;
	(void)rep;
	fflush(stream == 'o' ? stdout : stderr);
	/* A kernel under test prints what it likes: no escape sequence reaches a terminal. If
	 * our own stdout is gone, the data is still kept in the result. */
	hb_write_for_terminal(stream == 'o' ? 1 : 2, buf, len);
}

/* Lets the init power off once everything it sent is here (PROTOCOL.md). */
static void ack_when_finished(struct vm_session *s)
{
	static const char bye[] = HB_ACK;

	if (s->acked || !proto_finished(&s->proto) || s->conn_fd[PORT_RESULT] < 0)
		return;
	s->acked = send(s->conn_fd[PORT_RESULT], bye, sizeof(bye) - 1, MSG_NOSIGNAL) > 0;
}

/* Reads what a port has. Returns bytes read, 0 at EOF (the port is closed), -1 if none. */
static ssize_t read_port(struct vm_session *s, enum port_id id)
{
	char buf[READ_CHUNK];
	ssize_t n = read(s->conn_fd[id], buf, sizeof(buf));

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : 0;
	if (n == 0) {
		close(s->conn_fd[id]);
		s->conn_fd[id] = -1;
		return 0;
	}
	/* The transcripts are for people and tests; a full disk must not stop a boot. */
	tail_log_write(&s->port_log[id], buf, (size_t)n);
	if (id == PORT_RESULT) {
		bool had_hello = s->proto.hello, had_done = s->proto.done;
		proto_feed_result(&s->proto, buf, (size_t)n);
		if (!had_done && s->proto.done)
			s->t_done = hb_now();
		if (!had_hello && s->proto.hello) {
			s->t_hello = hb_now();
			if (!s->o->quiet)
				hb_info("guest init up after %.2f s (%s, %s, %s)", s->t_hello - s->t_start,
					s->r->accel, s->machine, s->use_virtiofs ? "virtiofs" : "9p");
		}
	} else {
		proto_feed_output(&s->proto, buf, (size_t)n);
	}
	ack_when_finished(s);
	return n;
}

static void accept_port(struct vm_session *s, enum port_id id)
{
	s->conn_fd[id] = accept4(s->listen_fd[id], NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (s->conn_fd[id] >= 0) {
		close(s->listen_fd[id]);
		s->listen_fd[id] = -1;
	}
}

static void handle_signal(struct vm_session *s)
{
	struct signalfd_siginfo si;

	if (read(s->sigfd, &si, sizeof(si)) == sizeof(si)) {
		s->interrupted = true;
		s->interrupt_signal = (int)si.ssi_signo;
	}
}

/* Until the init says hello, the boot deadline applies (a guest stuck in early boot is
 * not worth the whole job timeout); then the overall one. */
static double current_deadline(const struct vm_session *s)
{
	double boot_end = s->t_start + s->boot_timeout_s;
	return !s->proto.hello && boot_end < s->deadline ? boot_end : s->deadline;
}

static int poll_timeout_ms(const struct vm_session *s)
{
	double left = current_deadline(s) - hb_now();
	int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
	int most = s->qemu.pidfd < 0 ? EXIT_POLL_MS : LOG_TRIM_MS;
	return ms > most ? most : ms;
}

/* One poll round over the signalfd, QEMU's pidfd and the two ports. */
static void poll_once(struct vm_session *s)
{
	struct pollfd pfd[3 + 2];
	enum port_id ids[3 + 2];
	int n = 0;

	pfd[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	if (s->qemu.pidfd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->qemu.pidfd, .events = POLLIN };
	if (s->vfs.running && s->vfs.proc.pidfd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->vfs.proc.pidfd, .events = POLLIN };
	int first_port = n;
	for (int id = PORT_RESULT; id <= PORT_OUTPUT; id++) {
		int fd = s->conn_fd[id] >= 0 ? s->conn_fd[id] : s->listen_fd[id];
		if (fd < 0)
			continue;
		ids[n] = (enum port_id)id;
		pfd[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (poll(pfd, (nfds_t)n, poll_timeout_ms(s)) <= 0)
		return;
	if (pfd[0].revents)
		handle_signal(s);
	for (int i = first_port; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (s->conn_fd[ids[i]] >= 0)
			read_port(s, ids[i]);
		else
			accept_port(s, ids[i]);
	}
}

/* QEMU is gone: what it wrote is still in the socket buffers. */
static void drain_ports(struct vm_session *s)
{
	for (int id = PORT_RESULT; id <= PORT_OUTPUT; id++) {
		if (s->conn_fd[id] < 0 && s->listen_fd[id] >= 0) {
			struct pollfd p = { .fd = s->listen_fd[id], .events = POLLIN };
			if (poll(&p, 1, 0) == 1)
				accept_port(s, id);
		}
		while (s->conn_fd[id] >= 0) {
			ssize_t n = read_port(s, id);
			struct pollfd p = { .fd = s->conn_fd[id], .events = POLLIN };
			if (n == 0 || (n < 0 && poll(&p, 1, 500) <= 0))
				break;
		}
	}
}

/* The guest's root going away mid-job leaves it blocked on I/O until the timeout: stop
 * at once. After the init's "done", virtiofsd exiting is the normal shutdown; and when
 * QEMU itself is ending (a guest panic with panic=-1 powers off), virtiofsd exits because
 * its socket closed: give QEMU a moment to be reaped first, so the panic is reported. */
static bool virtiofsd_died(struct vm_session *s)
{
	if (!s->use_virtiofs || !s->vfs.running || s->proto.done || !hb_child_exited(&s->vfs.proc))
		return false;
	for (int i = 0; i < 20; i++) {
		if (hb_child_exited(&s->qemu))
			return false;
		usleep(100 * 1000);
	}
	return true;
}

void session_run_loop(struct vm_session *s)
{
	if (s->o->stream_output) {
		s->proto.on_output = copy_live;
		s->proto.ctx = s;
	}
	s->proto.on_rep_done = s->o->on_rep_done;
	s->proto.rep_ctx = s->o->on_rep_ctx;
	while (!s->interrupted && !hb_child_exited(&s->qemu)) {
		if (hb_now() >= current_deadline(s)) {
			s->timed_out = true;
			break;
		}
		if (virtiofsd_died(s)) {
			s->vfs_died = true;
			break;
		}
		/* The parser reads nothing after a violation (a guest over its budget, a
		 * made-up rep): the boot has failed, and the run goes on with its next cell. */
		if (s->proto.error)
			break;
		poll_once(s);
		tail_log_trim(&s->console_log);
		tail_log_trim(&s->qemu_log);
	}
	if (s->timed_out || s->interrupted || s->vfs_died || s->proto.error)
		hb_child_stop(&s->qemu, 3.0);
	drain_ports(s);
	tail_log_trim(&s->console_log);
	tail_log_trim(&s->qemu_log);
}
