/* The guest protocol reader (harness/boot/proto.c, proto_output.c): the input is fed to
 * both ports, the result port's lines and the output port's frames, in pieces whose sizes
 * the input's first byte picks (a reader must not depend on how bytes arrive). The job
 * file it checks against: two jobs of three reps, counting CAL and TLB. Seeds: the port
 * transcripts captured from real boots (tests/data/guest/). */
#include <stdlib.h>
#include <string.h>

#include "boot/proto.h"
#include "fuzz.h"

static char *irq_labels[] = { "CAL", "TLB", NULL };
static const struct guest_job jobs[] = { { .reps = 3, .irq = irq_labels }, { .reps = 3 } };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void feed(struct proto *p, const uint8_t *data, size_t size, size_t piece, bool result)
{
	for (size_t off = 0; off < size; off += piece) {
		size_t n = size - off < piece ? size - off : piece;
		if (result)
			proto_feed_result(p, (const char *)data + off, n);
		else
			proto_feed_output(p, (const char *)data + off, n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto p;
	size_t piece = size ? (size_t)data[0] % 64 + 1 : 1, n;

	proto_init(&p, jobs, sizeof(jobs) / sizeof(jobs[0]));
	feed(&p, data, size, piece, true);
	feed(&p, data, size, piece, false);
	(void)proto_finished(&p);
	struct job_rep_result *reps = proto_take_reps(&p, &n);
	for (size_t i = 0; i < n; i++)
		if (strlen(reps[i].out) > reps[i].out_len || strlen(reps[i].err) > reps[i].err_len)
			abort(); /* vm.h promises NUL-terminated text of the given length */
	job_rep_result_free_all(reps, n);
	proto_free(&p);
	return 0;
}
