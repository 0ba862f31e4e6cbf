/* The result port's lines, and what both ports share: the reps of the job file, looked
 * up by index, and the boot's capture budget. The output port's frames: proto_output.c. */
#include "boot/proto.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/xalloc.h"

void proto_init(struct proto *p, const struct guest_job *jobs, size_t njobs)
{
	*p = (struct proto){ .cur_job = -1, .cur_rep = -1, .last_job = -1, .last_rep = -1,
			     .jobs = jobs, .njobs = njobs };
	p->rep_base = xcalloc(njobs + 1, sizeof(*p->rep_base));
	for (size_t j = 0; j < njobs; j++)
		p->rep_base[j + 1] = p->rep_base[j] + (size_t)(jobs[j].reps > 0 ? jobs[j].reps : 1);
	p->total_reps = p->rep_base[njobs];
	p->rep_slot = xcalloc(p->total_reps + 1, sizeof(*p->rep_slot));
}

void proto_error(struct proto *p, const char *fmt, ...)
{
	va_list ap;

	if (p->error)
		return;
	va_start(ap, fmt);
	p->error = xvasprintf(fmt, ap);
	va_end(ap);
}

static void line_error(struct proto *p, const char *what, const char *line)
{
	proto_error(p, "%s: '%.120s'", what, line);
}

bool proto_charge(struct proto *p, size_t bytes)
{
	if (bytes > PROTO_BOOT_BUDGET - p->kept) {
		proto_error(p, "the guest sent more than a boot may keep (%u MiB of job output, "
			    "notes and results together)", PROTO_BOOT_BUDGET >> 20);
		return false;
	}
	p->kept += bytes;
	return true;
}

static int job_reps(const struct proto *p, size_t job)
{
	return p->jobs[job].reps > 0 ? p->jobs[job].reps : 1;
}

struct job_rep_result *proto_rep(struct proto *p, long long job, long long rep, const char *what)
{
	if (job < 0 || (size_t)job >= p->njobs || rep < 0 || rep >= job_reps(p, (size_t)job)) {
		proto_error(p, "%s for job %lld rep %lld, which the job file does not have (%zu "
			    "jobs)", what, job, rep, p->njobs);
		return NULL;
	}
	size_t *slot = &p->rep_slot[p->rep_base[job] + (size_t)rep];
	if (*slot)
		return &p->reps[*slot - 1];
	/* Every rep appears once at most, so the array never outgrows the job file. */
	if (!p->reps)
		p->reps = xcalloc(p->total_reps, sizeof(*p->reps));
	p->reps[p->nreps] = (struct job_rep_result){ .job = (int)job, .rep = (int)rep,
						     .exit_code = -1, .idle_sleep_s = -1 };
	*slot = ++p->nreps;
	return &p->reps[p->nreps - 1];
}

/* The rep between "start" and "exit", or NULL after a protocol error. */
static struct job_rep_result *current_rep(struct proto *p, const char *what, const char *line)
{
	if (p->cur_job < 0) {
		line_error(p, what, line);
		return NULL;
	}
	return proto_rep(p, p->cur_job, p->cur_rep, "a result line");
}

static void refuse_sample(struct proto *p, struct job_rep_result *r, char *why)
{
	char *all = r->refused ? xasprintf("%s; %s", r->refused, why) : xstrdup(why);

	if (proto_charge(p, strlen(why) + 2)) {
		free(r->refused);
		r->refused = all;
	} else {
		free(all);
	}
	free(why);
}

static void set_metric(struct proto *p, const char *name, double value, const char *line)
{
	static const struct { const char *name; size_t off; } fields[] = {
		{ "wall", offsetof(struct job_rep_result, wall_s) },
		{ "user", offsetof(struct job_rep_result, user_s) },
		{ "sys", offsetof(struct job_rep_result, sys_s) },
		{ "guest_user", offsetof(struct job_rep_result, guest_user_s) },
		{ "guest_sys", offsetof(struct job_rep_result, guest_sys_s) },
		{ "guest_idle", offsetof(struct job_rep_result, guest_idle_s) },
		{ "idle_sleep", offsetof(struct job_rep_result, idle_sleep_s) },
	};
	struct job_rep_result *r = current_rep(p, "metric outside a job", line);

	/* Unknown metrics are skipped: a newer init may send more than this host reads. */
	for (size_t i = 0; r && i < sizeof(fields) / sizeof(fields[0]); i++) {
		double *field = (double *)((char *)r + fields[i].off);
		if (strcmp(name, fields[i].name))
			continue;
		if (isfinite(value) && value >= 0 && value <= PROTO_MAX_SECONDS) {
			*field = value;
			continue;
		}
		/* A bad timing loses its sample, not the rep's others nor the boot. */
		*field = NAN;
		refuse_sample(p, r, xasprintf("%s %.17g is %s (accepted: 0 to %.0f s)", name, value,
					      isfinite(value) && value < 0 ? "negative" : "out of range",
					      PROTO_MAX_SECONDS));
	}
}

static bool job_asked_irq(const struct guest_job *job, const char *label)
{
	for (char **l = job->irq; l && *l; l++)
		if (!strcmp(*l, label))
			return true;
	return false;
}

static bool rep_has_irq(const struct job_rep_result *r, const char *label)
{
	for (size_t k = 0; k < r->nirq; k++)
		if (!strcmp(r->irq[k].label, label))
			return true;
	return false;
}

/* "irq <label> <delta>" or "noirq <label> <reason>" of the current rep: one per label the
 * job asked for, so a rep's list stays as short as the job file's. */
static void on_irq_line(struct proto *p, const char *line, bool counted)
{
	struct job_rep_result *r = current_rep(p, "irq count outside a job", line);
	char label[HB_IRQ_LABEL_MAX + 2];
	unsigned long long delta = 0;
	int used = 0;

	if (!r)
		return;
	/* %16s: one more than a label may have, so a longer one is caught below; a '-'
	 * would be a negative count (%llu takes it), never a label's. */
	bool bad = counted ? sscanf(line, "irq %16s %llu%n", label, &delta, &used) != 2 ||
				     line[used] || strchr(line, '-')
			   : sscanf(line, "noirq %16s %n", label, &used) != 1 || !line[used];
	if (bad)
		return line_error(p, counted ? "bad irq line" : "bad noirq line", line);
	if (!hb_irq_label_ok(label))
		return line_error(p, "bad irq label", line);
	if (!job_asked_irq(&p->jobs[r->job], label))
		return line_error(p, "irq count of a row the job did not ask for", line);
	if (rep_has_irq(r, label))
		return line_error(p, "second irq count of a row in one rep", line);
	char *missing = counted ? NULL : xstrdup(line + used);
	if (counted && delta > PROTO_MAX_IRQ_COUNT)
		missing = xasprintf("the guest's count %llu is out of range (accepted: 0 to 2^53)",
				    delta);
	r->irq = xrealloc(r->irq, (r->nirq + 1) * sizeof(*r->irq));
	r->irq[r->nirq++] = (struct irq_count){ .label = xstrdup(label), .delta = delta,
						.missing = missing };
	proto_charge(p, sizeof(*r->irq) + strlen(label) + (missing ? strlen(missing) : 0));
}

static void on_exit_line(struct proto *p, const char *line)
{
	int job, rep, code, sig;
	struct job_rep_result *r;

	if (sscanf(line, HB_LINE_EXIT, &job, &rep, &code, &sig) != 4)
		return line_error(p, "bad exit line", line);
	if (job != p->cur_job || rep != p->cur_rep)
		return line_error(p, "exit of a rep that is not the one running", line);
	if (!(r = proto_rep(p, job, rep, "an exit line")))
		return;
	r->exit_code = code;
	r->term_signal = sig;
	p->cur_job = p->cur_rep = -1;
	if (p->on_rep_done)
		p->on_rep_done(p->rep_ctx, r);
}

static void on_start_line(struct proto *p, const char *line)
{
	int job, rep;

	if (sscanf(line, HB_LINE_START, &job, &rep) != 2)
		return line_error(p, "bad start line", line);
	if (p->cur_job >= 0)
		return line_error(p, "start of a rep while another is running", line);
	if (job < p->last_job || (job == p->last_job && rep <= p->last_rep))
		return line_error(p, "start of a rep that already ran (the init runs them in order)",
				  line);
	if (!proto_rep(p, job, rep, "a start line"))
		return;
	p->cur_job = p->last_job = job;
	p->cur_rep = p->last_rep = rep;
}

static void on_hello(struct proto *p, const char *line)
{
	char release[128];
	int version;

	if (sscanf(line, "hello %d %127s", &version, release) != 2)
		return line_error(p, "bad hello line", line);
	if (version != HB_PROTOCOL_VERSION)
		return line_error(p, "guest init speaks another protocol version (rebuild it)", line);
	p->hello = true;
	free(p->release);
	p->release = xstrdup(release);
}

static void add_note(struct proto *p, const char *text)
{
	if (!proto_charge(p, strlen(text) + 1 + sizeof(*p->notes)))
		return;
	p->notes = xgrow(p->notes, &p->notes_cap, p->nnotes + 2, sizeof(*p->notes));
	p->notes[p->nnotes++] = xstrdup(text);
	p->notes[p->nnotes] = NULL;
}

static void on_fail(struct proto *p, const char *line)
{
	const char *phase = line + strlen("fail ");
	const char *reason = strchr(phase, ' ');

	free(p->fail_phase);
	free(p->fail_reason);
	p->fail_phase = reason ? xstrndup(phase, (size_t)(reason - phase)) : xstrdup(phase);
	p->fail_reason = xstrdup(reason ? reason + 1 : "(no reason given)");
}

static void handle_line(struct proto *p, const char *line)
{
	char name[64], unit[32];
	double value;

	if (!strncmp(line, "hello ", 6))
		on_hello(p, line);
	else if (!strncmp(line, "start ", 6))
		on_start_line(p, line);
	else if (!strncmp(line, "exit ", 5))
		on_exit_line(p, line);
	else if (!strncmp(line, "irq ", 4))
		on_irq_line(p, line, true);
	else if (!strncmp(line, "noirq ", 6))
		on_irq_line(p, line, false);
	else if (!strncmp(line, "fail ", 5))
		on_fail(p, line);
	else if (!strncmp(line, "note ", 5))
		add_note(p, line + 5);
	else if (!strcmp(line, "done"))
		p->done = true;
	else if (sscanf(line, "%63s %lf %31s", name, &value, unit) == 3)
		set_metric(p, name, value, line);
	else if (*line)
		line_error(p, "unknown result line", line);
}

void proto_feed_result(struct proto *p, const char *buf, size_t len)
{
	while (len && !p->error) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		if (n >= sizeof(p->line) - p->line_len) {
			const char *start = p->line_len ? p->line : buf;
			size_t shown = p->line_len ? p->line_len : n;
			proto_error(p, "a result line longer than %d bytes (the protocol's limit): "
				    "'%.*s...'", HB_RESULT_LINE_MAX - 1, (int)(shown < 60 ? shown : 60),
				    start);
			return;
		}
		/* A NUL would hide the rest of its line from the checks. */
		if (memchr(buf, '\0', n)) {
			proto_error(p, "a NUL byte in a result line");
			return;
		}
		memcpy(p->line + p->line_len, buf, n);
		p->line_len += n;
		if (!nl)
			return;
		p->line[p->line_len] = '\0';
		p->line_len = 0;
		buf = nl + 1;
		len -= n + 1;
		handle_line(p, p->line);
	}
}

bool proto_finished(const struct proto *p)
{
	return p->fail_phase || (p->done && p->output_end);
}

struct job_rep_result *proto_take_reps(struct proto *p, size_t *n)
{
	struct job_rep_result *reps = p->reps;

	*n = p->nreps;
	/* Every rep has NUL-terminated (possibly empty) out and err, as vm.h promises. */
	for (size_t i = 0; i < p->nreps; i++) {
		if (!reps[i].out)
			reps[i].out = xstrdup("");
		if (!reps[i].err)
			reps[i].err = xstrdup("");
	}
	p->reps = NULL;
	p->nreps = 0;
	memset(p->rep_slot, 0, (p->total_reps + 1) * sizeof(*p->rep_slot));
	return reps;
}

void job_rep_result_free_all(struct job_rep_result *reps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(reps[i].out);
		free(reps[i].err);
		free(reps[i].refused);
		for (size_t k = 0; k < reps[i].nirq; k++) {
			free(reps[i].irq[k].label);
			free(reps[i].irq[k].missing);
		}
		free(reps[i].irq);
	}
	free(reps);
}

void proto_free(struct proto *p)
{
	job_rep_result_free_all(p->reps, p->nreps);
	free(p->release);
	free(p->fail_phase);
	free(p->fail_reason);
	hb_free_strv(p->notes);
	free(p->error);
	free(p->rep_base);
	free(p->rep_slot);
	*p = (struct proto){ .cur_job = -1, .cur_rep = -1, .last_job = -1, .last_rep = -1 };
}
