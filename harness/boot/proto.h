/* Host side of the guest init's two ports (guest/init/PROTOCOL.md), parsed
 * incrementally as bytes arrive: the result port's lines and the output port's frames. */
#ifndef HB_BOOT_PROTO_H
#define HB_BOOT_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/vm.h"

/* Output kept per stream and rep; beyond it the text is cut and marked. */
#define PROTO_MAX_CAPTURE (64u << 20)

typedef void (*proto_output_fn)(void *ctx, char stream, int job, int rep, const char *buf,
				size_t len);

struct proto {
	bool hello;
	bool done;
	bool output_end;           /* the output port's end frame arrived */
	char *release;             /* guest uname -r from hello */
	char *fail_phase;          /* init failure ("job", "mount", "ports", ...) */
	char *fail_reason;
	char **notes;              /* NULL-terminated, may be NULL */
	int cur_job, cur_rep;      /* the rep between "start" and "exit"; -1 when none */
	int last_job, last_rep;    /* the last rep that started; -1 before any */
	struct job_rep_result *reps;
	size_t nreps;
	char *error;               /* first protocol violation, or NULL */
	proto_output_fn on_output; /* optional live copy of job output */
	void *ctx;
	void (*on_rep_done)(void *ctx, const struct job_rep_result *rep); /* optional */
	void *rep_ctx;
	/* parser state */
	char *line;
	size_t line_len, line_cap;
	char head[64];
	size_t head_len;
	size_t frame_left;         /* bytes of the current frame's payload still to come */
	char frame_stream;
	int frame_job, frame_rep;
	size_t reps_cap;
};

void proto_init(struct proto *p);
void proto_feed_result(struct proto *p, const char *buf, size_t len);
void proto_feed_output(struct proto *p, const char *buf, size_t len);
/* The init waits for "bye" before power-off: true once everything it sent has arrived
 * ("done" and the output end frame, or "fail"). */
bool proto_finished(const struct proto *p);
/* Moves the reps out (the caller owns them afterwards). */
struct job_rep_result *proto_take_reps(struct proto *p, size_t *n);
void proto_free(struct proto *p);
void job_rep_result_free_all(struct job_rep_result *reps, size_t n);

#endif
