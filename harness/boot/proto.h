/* Host side of the guest init's two ports (guest/init/PROTOCOL.md), parsed
 * incrementally as bytes arrive: the result port's lines and the output port's frames.
 *
 * Everything a guest sends is hostile input (a kernel under test may be broken, or the
 * job may be), so what it can make the host keep is bounded: a result line is at most
 * HB_RESULT_LINE_MAX bytes, a frame at most HB_FRAME_MAX, job and rep numbers must be the
 * job file's, each rep's stream is cut at PROTO_MAX_CAPTURE, and everything kept in one
 * boot (output, notes, results) at most PROTO_BOOT_BUDGET. The first violation is
 * p->error; from then on the parser reads nothing more (the caller stops the boot). */
#ifndef HB_BOOT_PROTO_H
#define HB_BOOT_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/vm.h"
#include "guest/protocol.h"

/* Output kept per stream and rep; beyond it the text is cut and marked. */
#define PROTO_MAX_CAPTURE (64u << 20)
/* Everything kept of one boot: beyond it the boot is a protocol error. Twice a stream's
 * cap, so a workload whose output is cut still completes; the host process's memory for
 * a boot stays within it (tests/guest/test_proto_limits.c measures the high-water mark). */
#define PROTO_BOOT_BUDGET (128u << 20)
/* A rep's timings are refused outside [0, this] seconds (a week on 64 vCPUs). */
#define PROTO_MAX_SECONDS (64 * 7 * 86400.0)
/* An irq count above 2^53 is refused: no rep takes that many interrupts, and a double
 * (what samples hold) no longer represents every integer past it. */
#define PROTO_MAX_IRQ_COUNT (1ull << 53)

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
	size_t nnotes, notes_cap;
	int cur_job, cur_rep;      /* the rep between "start" and "exit"; -1 when none */
	int last_job, last_rep;    /* the last rep that started; -1 before any */
	struct job_rep_result *reps; /* in the order they first appeared */
	size_t nreps;
	char *error;               /* first protocol violation, or NULL */
	proto_output_fn on_output; /* optional live copy of job output */
	void *ctx;
	void (*on_rep_done)(void *ctx, const struct job_rep_result *rep); /* optional */
	void *rep_ctx;
	/* what the job file asked for */
	const struct guest_job *jobs;
	size_t njobs;
	size_t *rep_base;          /* per job: index of its rep 0 in rep_slot */
	size_t *rep_slot;          /* per (job, rep): 1 + its index in reps, 0 before it appears */
	size_t total_reps;
	size_t kept;               /* bytes kept so far, against PROTO_BOOT_BUDGET */
	/* parser state */
	char line[HB_RESULT_LINE_MAX];
	size_t line_len;
	char head[64];
	size_t head_len;
	size_t frame_left;         /* bytes of the current frame's payload still to come */
	char frame_stream;
	int frame_job, frame_rep;
};

/* Expects the jobs of the job file (not copied: they outlive p); njobs may be 0. */
void proto_init(struct proto *p, const struct guest_job *jobs, size_t njobs);
void proto_feed_result(struct proto *p, const char *buf, size_t len);
void proto_feed_output(struct proto *p, const char *buf, size_t len);
/* The init waits for "bye" before power-off: true once everything it sent has arrived
 * ("done" and the output end frame, or "fail"). */
bool proto_finished(const struct proto *p);
/* Moves the reps out (the caller owns them afterwards). */
struct job_rep_result *proto_take_reps(struct proto *p, size_t *n);
void proto_free(struct proto *p);
void job_rep_result_free_all(struct job_rep_result *reps, size_t n);

/* proto.c, for proto_output.c: the first violation, formatted; the rep (job, rep) of the
 * job file (added on first sight), or NULL after a protocol error naming the numbers;
 * and the budget (false after a protocol error naming it). */
__attribute__((format(printf, 2, 3))) void proto_error(struct proto *p, const char *fmt, ...);
struct job_rep_result *proto_rep(struct proto *p, long long job, long long rep, const char *what);
bool proto_charge(struct proto *p, size_t bytes);

#endif
