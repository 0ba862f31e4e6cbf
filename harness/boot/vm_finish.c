/* After QEMU is gone: what happened, in one line that says where the console log is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/console_scan.h"
#include "boot/vm_session.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"

#define JOB_DESC_MAX 60

/* "job 0 rep 1 ('sleep 60')" for the rep that was running (or last started). */
static char *running_job(const struct vm_session *s)
{
	int job = s->proto.cur_job >= 0 ? s->proto.cur_job : s->proto.last_job;
	int rep = s->proto.cur_job >= 0 ? s->proto.cur_rep : s->proto.last_rep;
	char cmd[JOB_DESC_MAX + 4] = "";
	size_t used = 0;

	if (job < 0 || (size_t)job >= s->njobs)
		return xstrdup("between jobs");
	for (char **a = s->jobs[job].argv; a && *a && used < JOB_DESC_MAX; a++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s%s", a == s->jobs[job].argv ? "" : " ", *a);
	if (used >= JOB_DESC_MAX)
		strcpy(cmd + JOB_DESC_MAX, "...");
	return xasprintf("job %d rep %d ('%s')", job, rep, cmd);
}

static const char *phase_of(const struct vm_session *s)
{
	if (!s->proto.hello)
		return "boot";
	if (s->proto.done)
		return "shutdown";
	return "job";
}

static void timeout_error(struct vm_session *s, const char *last, const char *phase)
{
	const char *log = s->r->console_log;

	if (!strcmp(phase, "boot"))
		session_fail(s, VM_ERR_TIMEOUT, "timed out after %.0f s while booting (the guest init "
			     "never said hello); last console line: '%s'; console log: %s",
			     s->boot_timeout_s, last ? last : "(none)", log);
	else if (!strcmp(phase, "job")) {
		char *job = running_job(s);
		session_fail(s, VM_ERR_TIMEOUT, "timed out after %.0f s while %s was running; "
			     "console log: %s", s->timeout_s, job, log);
		free(job);
	} else
		session_fail(s, VM_ERR_TIMEOUT, "timed out after %.0f s during power-off (all jobs "
			     "had finished); console log: %s", s->timeout_s, log);
}

/* QEMU ended on its own without the init's "done". */
static void early_exit_error(struct vm_session *s, const char *last, const char *phase)
{
	int code = hb_child_exit_code(&s->qemu);
	char *qemu_log_path = hb_path_join(s->r->log_dir, "qemu.log");

	if (code != 0 && !s->proto.hello && !last) {
		char *qlast;
		console_scan_file(qemu_log_path, NULL, &qlast);
		session_fail(s, VM_ERR_START, "QEMU exited with status %d before the guest started: %s "
			     "(log: %s)", code, qlast ? qlast : "(no message)", qemu_log_path);
		free(qlast);
	} else {
		session_fail(s, VM_ERR_INIT, "the guest stopped during %s without the init reporting "
			     "why (QEMU status %d); last console line: '%s'; console log: %s", phase,
			     code, last ? last : "(none)", s->r->console_log);
	}
	free(qemu_log_path);
}

static void decide_status(struct vm_session *s, const char *phase)
{
	char *crash, *last;

	console_scan_file(s->r->console_log, &crash, &last);

	if (s->interrupted)
		session_fail(s, VM_ERR_INTERRUPTED, "interrupted by signal %d during %s; console log: %s",
			     s->interrupt_signal, phase, s->r->console_log);
	else if (crash) /* first: a crash explains whatever else stopped after it */
		session_fail(s, VM_ERR_PANIC, "kernel crashed during %s: %s; console log: %s", phase,
			     crash, s->r->console_log);
	else if (s->vfs_died)
		session_fail(s, VM_ERR_INIT, "virtiofsd (the guest's root file system) exited with "
			     "status %d during %s; log: %s/virtiofsd.log", hb_child_exit_code(&s->vfs.proc),
			     phase, s->r->log_dir);
	else if (s->timed_out)
		timeout_error(s, last, phase);
	else if (s->proto.fail_phase)
		session_fail(s, VM_ERR_INIT, "guest init failed (%s): %s; console log: %s",
			     s->proto.fail_phase, s->proto.fail_reason, s->r->console_log);
	else if (s->proto.error)
		session_fail(s, VM_ERR_INIT, "guest init protocol error: %s (result log: %s/result.log)",
			     s->proto.error, s->r->log_dir);
	else if (!s->proto.done)
		early_exit_error(s, last, phase);
	free(crash);
	free(last);
}

void session_finish(struct vm_session *s)
{
	struct vm_result *r = s->r;
	const char *phase = phase_of(s);

	r->total_s = hb_now() - s->t_start;
	r->boot_s = s->proto.hello ? s->t_hello - s->t_start : 0;
	r->prepare_s = s->t_start - s->t_begin;
	r->done_s = s->t_done > 0 ? s->t_done - s->t_start : 0;
	r->phase = xstrdup(phase);
	decide_status(s, phase);
	r->reps = proto_take_reps(&s->proto, &r->nreps);
	r->notes = s->proto.notes;
	s->proto.notes = NULL;
}
