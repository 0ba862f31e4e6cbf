/* What every step of vm_run shares: a session's start state and its one failure record. */
#include "boot/vm_session.h"

#include <stdarg.h>
#include <stdlib.h>

#include "common/progress.h"
#include "common/xalloc.h"

void session_init(struct vm_session *s, const struct kernel_image *k, const char *variant_cmdline,
		  const struct guest_job *jobs, size_t njobs, const struct vm_opts *o,
		  struct vm_result *r)
{
	*s = (struct vm_session){ .k = k, .variant_cmdline = variant_cmdline, .o = o, .r = r,
				  .jobs = jobs, .njobs = njobs, .accel = o->accel, .sigfd = -1,
				  .port_log = { TAIL_LOG_NONE, TAIL_LOG_NONE },
				  .console_log = TAIL_LOG_NONE, .qemu_log = TAIL_LOG_NONE,
				  .log_dir_fd = -1, .console_fd = -1 };
	*r = (struct vm_result){ .status = VM_OK };
	s->t_begin = hb_now();
	proto_init(&s->proto, jobs, njobs);
	for (int i = 0; i < PORT_COUNT; i++)
		s->listen_fd[i] = s->conn_fd[i] = -1;
}

/* The first failure is the one reported: later ones are usually its consequences. */
int session_fail(struct vm_session *s, enum vm_status status, const char *fmt, ...)
{
	va_list ap;

	if (s->r->status == VM_OK) {
		s->r->status = status;
		free(s->r->error);
		va_start(ap, fmt);
		s->r->error = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return s->r->status;
}
