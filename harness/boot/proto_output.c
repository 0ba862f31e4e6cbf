/* The output port's frames ("<stream> <job> <rep> <length>\n" and the payload): each
 * rep's stdout and stderr, within the per-stream cap and the boot's budget. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/proto.h"
#include "common/xalloc.h"

#define TRUNCATED_MARK "\n[hardbench: output cut here]\n"

/* The allocation for a stream of need bytes (mark and NUL included): grown by a quarter
 * at a time, so a stream is copied a few times in all rather than once per frame (a
 * realloc may copy), and never past the stream's cap. */
static size_t grown(size_t cap, size_t need)
{
	size_t c = cap ? cap : 4096;

	while (c < need)
		c += c / 4;
	return c < PROTO_MAX_CAPTURE + sizeof(TRUNCATED_MARK) ? c
							   : PROTO_MAX_CAPTURE + sizeof(TRUNCATED_MARK);
}

/* Appends within PROTO_MAX_CAPTURE (then marks the cut once and drops the rest, which
 * costs nothing), charging what it allocates to the boot's budget. */
static void append_text(struct proto *p, char **text, size_t *len, size_t *cap, const char *buf,
			size_t n)
{
	if (*len > PROTO_MAX_CAPTURE)
		return; /* cut and marked */
	bool cut = *len + n > PROTO_MAX_CAPTURE;
	if (cut)
		n = PROTO_MAX_CAPTURE - *len;
	size_t want = grown(*cap, *len + n + sizeof(TRUNCATED_MARK));
	if (want > *cap) {
		if (!proto_charge(p, want - *cap))
			return;
		*text = xrealloc(*text, want);
		*cap = want;
	}
	memcpy(*text + *len, buf, n);
	*len += n;
	if (cut) {
		memcpy(*text + *len, TRUNCATED_MARK, sizeof(TRUNCATED_MARK));
		*len += sizeof(TRUNCATED_MARK) - 1;
	}
	(*text)[*len] = '\0';
}

static void frame_payload(struct proto *p, const char *buf, size_t n)
{
	struct job_rep_result *r = proto_rep(p, p->frame_job, p->frame_rep, "output");

	if (!r)
		return;
	if (p->frame_stream == HB_STREAM_STDOUT)
		append_text(p, &r->out, &r->out_len, &r->out_cap, buf, n);
	else
		append_text(p, &r->err, &r->err_len, &r->err_cap, buf, n);
	if (p->on_output && !p->error)
		p->on_output(p->ctx, p->frame_stream, p->frame_job, p->frame_rep, buf, n);
}

/* A decimal number without sign or blanks, at most max, then the byte `end`. strtoull
 * alone would take "-1" as ULLONG_MAX. */
static bool parse_count(const char **s, unsigned long long max, char end,
			unsigned long long *out)
{
	char *after;

	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*out = strtoull(*s, &after, 10);
	if (errno || *out > max || *after != end)
		return false;
	*s = after + 1;
	return true;
}

static void frame_header(struct proto *p)
{
	const char *s = p->head + 2;
	unsigned long long job, rep, len;
	char stream = p->head[0];

	p->head[p->head_len] = '\0';
	if (p->head_len < 2 || p->head[1] != ' ' || !parse_count(&s, 1u << 30, ' ', &job) ||
	    !parse_count(&s, 1u << 30, ' ', &rep) || !parse_count(&s, HB_FRAME_MAX, '\0', &len) ||
	    (stream != HB_STREAM_STDOUT && stream != HB_STREAM_STDERR && stream != HB_STREAM_END)) {
		proto_error(p, "bad output frame header (accepted: 'o|e|z JOB REP LENGTH', LENGTH "
			    "at most %d): '%.63s'", HB_FRAME_MAX, p->head);
		return;
	}
	if (stream == HB_STREAM_END) {
		p->output_end = true;
		return;
	}
	if (!proto_rep(p, (long long)job, (long long)rep, "an output frame"))
		return;
	p->frame_stream = stream;
	p->frame_job = (int)job;
	p->frame_rep = (int)rep;
	p->frame_left = len;
}

void proto_feed_output(struct proto *p, const char *buf, size_t len)
{
	while (len && !p->error) {
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
		} else {
			p->head[p->head_len] = '\0';
			proto_error(p, "an output frame header longer than %zu bytes: '%.40s...'",
				    sizeof(p->head) - 1, p->head);
		}
	}
}
