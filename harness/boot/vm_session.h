/* One boot's state, shared by the files of vm_run (private to harness/boot/). The steps
 * below are called by vm_run.c, in this order; they call only vm_session.c and the
 * helpers, never vm_run. */
#ifndef HB_BOOT_VM_SESSION_H
#define HB_BOOT_VM_SESSION_H

#include <hwloc.h>
#include <signal.h>
#include <stdbool.h>

#include "boot/host_view.h"
#include "common/child.h"
#include "boot/proto.h"
#include "boot/tail_log.h"
#include "boot/virtiofsd.h"
#include "boot/vm.h"
#include "pin/pin.h"

enum port_id { PORT_RESULT, PORT_OUTPUT, PORT_QMP, PORT_COUNT };

struct vm_session {
	const struct kernel_image *k;
	const char *variant_cmdline;
	const struct vm_opts *o;
	struct vm_result *r;
	const struct guest_job *jobs;
	size_t njobs;
	enum accel_kind accel;
	const char *machine;
	const char *kernel_path;     /* bzImage or vmlinux */
	char *rundir;                /* private: job file, sockets; removed at the end */
	char *jobfile;
	char *socket_path[PORT_COUNT];
	int listen_fd[PORT_COUNT];
	int conn_fd[PORT_COUNT];
	struct tail_log port_log[2]; /* raw transcripts of the result and output ports */
	struct tail_log console_log; /* QEMU writes them; the host keeps them bounded */
	struct tail_log qemu_log;
	int log_dir_fd;              /* the log folder, walked once (common/safepath.h) */
	int console_fd;              /* console.log, O_WRONLY|O_APPEND: QEMU's -add-fd */
	struct host_view view;       /* what the guest sees of the host (virtiofsd's or QEMU's 9p) */
	struct virtiofsd vfs;
	bool use_virtiofs;
	struct hb_child qemu;
	bool qemu_started;
	struct proto proto;
	hwloc_topology_t topo;
	struct pin_plan plan;
	bool have_plan;
	struct pin_claims claims;    /* the vCPU cores' claims, held until the session ends */
	pid_t *vcpu_tids;
	int sigfd;
	sigset_t old_mask;
	double timeout_s;
	double boot_timeout_s;       /* QEMU start to hello */
	double t_start, t_hello, deadline;
	double t_begin, t_done; /* vm_run entered; the init's "done" (0: none) */
	bool timed_out, interrupted;
	bool vfs_died;               /* virtiofsd (the guest's root) exited before "done" */
	bool acked;                  /* "bye" sent to the init */
	int interrupt_signal;
	char **qemu_argv;
	char *extra_cmdline;         /* harness-chosen kernel options (e.g. tsc_early_khz) */
	bool created_log_dir;        /* a temp log dir made here (removed after a dry run) */
};

/* vm_session.c */
/* Everything empty, fds -1, *r reset; accel as o->accel (vm_run checks it is resolved). */
void session_init(struct vm_session *s, const struct kernel_image *k, const char *variant_cmdline,
		  const struct guest_job *jobs, size_t njobs, const struct vm_opts *o,
		  struct vm_result *r);
/* Records status and the message unless a failure is already recorded; returns the
 * recorded status (non-zero). */
__attribute__((format(printf, 3, 4))) int session_fail(struct vm_session *s,
							enum vm_status status,
							const char *fmt, ...);

/* vm_setup.c */
int session_prepare(struct vm_session *s);      /* dirs, job file, rootfs, pin plan, argv */
void session_build_argv(struct vm_session *s);  /* again after a fallback to 9p */
void session_print_dry_run(const struct vm_session *s);

/* vm_start.c */
int session_start(struct vm_session *s);        /* sockets, virtiofsd, QEMU, QMP pinning */
void session_cleanup(struct vm_session *s);     /* stops children, removes rundir */

/* vm_loop.c */
void session_run_loop(struct vm_session *s);    /* until QEMU exits, times out, or ^C */

/* vm_finish.c */
void session_finish(struct vm_session *s);      /* status, error, reps into s->r */

#endif
