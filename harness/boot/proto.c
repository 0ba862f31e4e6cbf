#include "boot/proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/xalloc.h"
#include "guest/protocol.h"

#define TRUNCATED_MARK "\n[hardbench: output cut here]\n"

void proto_init(struct proto *p)
{
	*p = (struct proto){ .cur_job = -1, .cur_rep = -1, .last_job = -1, .last_rep = -1 };
}

static void protocol_error(struct proto *p, const char *what, const char *line)
{
	if (!p->error)
		p->error = xasprintf("%s: '%.120s'", what, line);
}

static struct job_rep_result *find_rep(struct proto *p, int job, int rep, bool add)
{
	for (size_t i = p->nreps; i-- > 0;)
		if (p->reps[i].job == job && p->reps[i].rep == rep)
			return &p->reps[i];
	if (!add)
		return NULL;
	p->reps = xgrow(p->reps, &p->reps_cap, p->nreps + 1, sizeof(*p->reps));
	p->reps[p->nreps] = (struct job_rep_result){ .job = job, .rep = rep, .exit_code = -1 };
	return &p->reps[p->nreps++];
}

static void append_text(char **text, size_t *len, const char *buf, size_t n)
{
	if (*len >= PROTO_MAX_CAPTURE)
		return;
	bool cut = *len + n > PROTO_MAX_CAPTURE;
	if (cut)
		n = PROTO_MAX_CAPTURE - *len;
	*text = xrealloc(*text, *len + n + sizeof(TRUNCATED_MARK));
	memcpy(*text + *len, buf, n);
	*len += n;
	if (cut) {
		memcpy(*text + *len, TRUNCATED_MARK, sizeof(TRUNCATED_MARK));
		*len += sizeof(TRUNCATED_MARK) - 1;
	}
	(*text)[*len] = '\0';
}

static void set_metric(struct proto *p, const char *name, double value, const char *line)
{
	struct job_rep_result *r = p->cur_job >= 0 ? find_rep(p, p->cur_job, p->cur_rep, false) : NULL;
	static const struct { const char *name; size_t off; } fields[] = {
		{ "wall", offsetof(struct job_rep_result, wall_s) },
		{ "user", offsetof(struct job_rep_result, user_s) },
		{ "sys", offsetof(struct job_rep_result, sys_s) },
		{ "guest_user", offsetof(struct job_rep_result, guest_user_s) },
		{ "guest_sys", offsetof(struct job_rep_result, guest_sys_s) },
		{ "guest_idle", offsetof(struct job_rep_result, guest_idle_s) },
	};

	if (!r) {
		protocol_error(p, "metric outside a job", line);
		return;
	}
	/* Unknown metrics are skipped: a newer init may send more than this host reads. */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(name, fields[i].name))
			*(double *)((char *)r + fields[i].off) = value;
}

/* "irq <label> <delta>" or "noirq <label> <reason>" of the current rep. */
static void on_irq_line(struct proto *p, const char *line, bool counted)
{
	struct job_rep_result *r = p->cur_job >= 0 ? find_rep(p, p->cur_job, p->cur_rep, false) : NULL;
	char label[HB_IRQ_LABEL_MAX + 2];
	unsigned long long delta = 0;
	int used = 0;

	if (!r) {
		protocol_error(p, "irq count outside a job", line);
		return;
	}
	/* %16s: one more than a label may have, so a longer one is caught below; a '-'
	 * would be a negative count (%llu takes it), never a label's. */
	bool bad = counted ? sscanf(line, "irq %16s %llu%n", label, &delta, &used) != 2 ||
				     line[used] || strchr(line, '-')
			   : sscanf(line, "noirq %16s %n", label, &used) != 1 || !line[used];
	if (bad) {
		protocol_error(p, counted ? "bad irq line" : "bad noirq line", line);
		return;
	}
	if (!hb_irq_label_ok(label)) {
		protocol_error(p, "bad irq label", line);
		return;
	}
	r->irq = xrealloc(r->irq, (r->nirq + 1) * sizeof(*r->irq));
	r->irq[r->nirq++] = (struct irq_count){
		.label = xstrdup(label), .delta = delta,
		.missing = counted ? NULL : xstrdup(line + used),
	};
}

static void on_exit_line(struct proto *p, const char *line)
{
	int job, rep, code, sig;
	struct job_rep_result *r;

	if (sscanf(line, HB_LINE_EXIT, &job, &rep, &code, &sig) != 4) {
		protocol_error(p, "bad exit line", line);
		return;
	}
	r = find_rep(p, job, rep, true);
	r->exit_code = code;
	r->term_signal = sig;
	p->cur_job = p->cur_rep = -1;
	if (p->on_rep_done)
		p->on_rep_done(p->rep_ctx, r);
}

static void on_start_line(struct proto *p, const char *line)
{
	int job, rep;

	if (sscanf(line, HB_LINE_START, &job, &rep) != 2 || job < 0 || rep < 0) {
		protocol_error(p, "bad start line", line);
		return;
	}
	find_rep(p, job, rep, true);
	p->cur_job = p->last_job = job;
	p->cur_rep = p->last_rep = rep;
}

static void on_hello(struct proto *p, const char *line)
{
	char release[128];
	int version;

	if (sscanf(line, "hello %d %127s", &version, release) != 2) {
		protocol_error(p, "bad hello line", line);
		return;
	}
	if (version != HB_PROTOCOL_VERSION)
		protocol_error(p, "guest init speaks another protocol version (rebuild it)", line);
	p->hello = true;
	free(p->release);
	p->release = xstrdup(release);
}

static void add_note(struct proto *p, const char *text)
{
	size_t n = p->notes ? hb_strv_len(p->notes) : 0;
	p->notes = xrealloc(p->notes, (n + 2) * sizeof(*p->notes));
	p->notes[n] = xstrdup(text);
	p->notes[n + 1] = NULL;
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
		protocol_error(p, "unknown result line", line);
}

void proto_feed_result(struct proto *p, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			p->line = xgrow(p->line, &p->line_cap, p->line_len + 2, 1);
			p->line[p->line_len++] = buf[i];
			continue;
		}
		p->line = xgrow(p->line, &p->line_cap, p->line_len + 1, 1);
		p->line[p->line_len] = '\0';
		handle_line(p, p->line);
		p->line_len = 0;
	}
}

static void frame_payload(struct proto *p, const char *buf, size_t n)
{
	struct job_rep_result *r = find_rep(p, p->frame_job, p->frame_rep, true);

	if (p->frame_stream == HB_STREAM_STDOUT)
		append_text(&r->out, &r->out_len, buf, n);
	else
		append_text(&r->err, &r->err_len, buf, n);
	if (p->on_output)
		p->on_output(p->ctx, p->frame_stream, p->frame_job, p->frame_rep, buf, n);
}

static void frame_header(struct proto *p)
{
	char stream;
	size_t len;
	int job, rep;

	p->head[p->head_len] = '\0';
	if (sscanf(p->head, HB_FRAME_HEAD, &stream, &job, &rep, &len) != 4 ||
	    (stream != HB_STREAM_STDOUT && stream != HB_STREAM_STDERR && stream != HB_STREAM_END) ||
	    job < 0 || rep < 0) {
		protocol_error(p, "bad output frame header", p->head);
		return;
	}
	if (stream == HB_STREAM_END) {
		p->output_end = true;
		return;
	}
	p->frame_stream = stream;
	p->frame_job = job;
	p->frame_rep = rep;
	p->frame_left = len;
}

void proto_feed_output(struct proto *p, const char *buf, size_t len)
{
	while (len) {
		if (p->frame_left) {
			size_t n = len < p->frame_left ? len : p->frame_left;
			frame_payload(p, buf, n);
			p->frame_left -= n;
			buf += n;
			len -= n;
			continue;
		}
		char c = *buf++;
		len--;
		if (c == '\n') {
			frame_header(p);
			p->head_len = 0;
		} else if (p->head_len < sizeof(p->head) - 1) {
			p->head[p->head_len++] = c;
		}
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
	p->nreps = p->reps_cap = 0;
	return reps;
}

void job_rep_result_free_all(struct job_rep_result *reps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(reps[i].out);
		free(reps[i].err);
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
	free(p->line);
	proto_init(p);
}
