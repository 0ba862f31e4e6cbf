/* The host parser of the init's ports, fed transcripts captured from real boots
 * (tests/data/guest/NAME.result.log and NAME.output.raw) in chunks of every size. */
#include <stdlib.h>
#include <string.h>

#include "boot/proto.h"
#include "test.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"

struct capture {
	char *result, *output;
	size_t result_len, output_len;
};

static void load(const char *dir, const char *name, struct capture *c)
{
	char *rpath = xasprintf("%s/%s.result.log", dir, name);
	char *opath = xasprintf("%s/%s.output.raw", dir, name);

	c->result = hb_read_file(rpath, &c->result_len);
	c->output = hb_read_file(opath, &c->output_len);
	if (!c->result || !c->output) {
		fprintf(stderr, "cannot read %s or %s\n", rpath, opath);
		exit(1);
	}
	free(rpath);
	free(opath);
}

/* The job files of the captured boots: one job, two reps counting CAL and NOPE
 * (reps2-exit3); one job, one rep (killed and the crafted lines). */
static char *irq_labels[] = { "CAL", "NOPE", NULL };
static const struct guest_job job_reps2 = { .reps = 2, .irq = irq_labels };
static const struct guest_job job_once = { .reps = 1, .irq = irq_labels };

struct live {
	size_t bytes_o, bytes_e;
};

static void count_live(void *ctx, char stream, int job, int rep, const char *buf, size_t len)
{
	struct live *l = ctx;
	(void)job;
	(void)rep;
	(void)buf;
	*(stream == 'o' ? &l->bytes_o : &l->bytes_e) += len;
}

/* Feeds both streams in chunk-byte pieces, interleaved as they might arrive. */
static void feed(struct proto *p, const struct capture *c, size_t chunk)
{
	size_t ro = 0, oo = 0;

	while (ro < c->result_len || oo < c->output_len) {
		size_t n = c->output_len - oo < chunk ? c->output_len - oo : chunk;
		proto_feed_output(p, c->output + oo, n);
		oo += n;
		n = c->result_len - ro < chunk ? c->result_len - ro : chunk;
		proto_feed_result(p, c->result + ro, n);
		ro += n;
	}
}

static void check_reps_exit3(int *failures, const char *dir)
{
	static const size_t chunks[] = { 1, 2, 7, 64, 1 << 20 };
	struct capture c;

	load(dir, "reps2-exit3", &c);
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct proto p;
		struct live l = { 0 };
		size_t n;

		proto_init(&p, &job_reps2, 1);
		p.on_output = count_live;
		p.ctx = &l;
		feed(&p, &c, chunks[i]);
		CHECK(p.hello && p.done && !p.error && !p.fail_phase);
		CHECK_STR(p.release, "6.1.192");
		CHECK(p.cur_job == -1 && p.last_job == 0 && p.last_rep == 1);
		struct job_rep_result *r = proto_take_reps(&p, &n);
		CHECK(n == 2);
		for (size_t k = 0; k < n && n == 2; k++) {
			CHECK(r[k].job == 0 && r[k].rep == (int)k);
			CHECK(r[k].exit_code == 3 && r[k].term_signal == 0);
			CHECK_STR(r[k].out, "out-line-1\nno newline then more\n");
			CHECK_STR(r[k].err, "err-line-1\nerr-line-2\n");
			CHECK(r[k].out_len == strlen(r[k].out) && r[k].err_len == strlen(r[k].err));
		}
		if (n == 2) {
			CHECK(r[0].wall_s > 0.443 && r[0].wall_s < 0.444);
			CHECK(r[0].user_s > 0.069 && r[0].sys_s > 0.095 && r[0].sys_s < 0.096);
			CHECK(r[0].guest_user_s > 0.059 && r[0].guest_sys_s > 0.089 && r[0].guest_idle_s > 0.669);
			CHECK(r[1].wall_s > 0.419 && r[1].wall_s < 0.420);
			/* --irq CAL,NOPE: a count, and a row the guest lacks with its reason */
			CHECK(r[0].nirq == 2 && r[1].nirq == 2);
			if (r[0].nirq == 2 && r[1].nirq == 2) {
				CHECK(!strcmp(r[0].irq[0].label, "CAL") && !r[0].irq[0].missing &&
				      r[0].irq[0].delta == 93 && r[1].irq[0].delta == 38);
				CHECK_STR(r[0].irq[1].label, "NOPE");
				CHECK_STR(r[1].irq[1].missing, "no row 'NOPE' in the guest's /proc/interrupts");
			}
		}
		CHECK(p.output_end && proto_finished(&p));
		CHECK(l.bytes_o == 2 * strlen("out-line-1\nno newline then more\n"));
		CHECK(l.bytes_e == 2 * strlen("err-line-1\nerr-line-2\n"));
		job_rep_result_free_all(r, n);
		proto_free(&p);
	}
	free(c.result);
	free(c.output);
}

TEST(reps_exit3)
{
	const char *dir = test_arg(failures, t, 1);

	if (dir)
		check_reps_exit3(failures, dir);
}

static void check_killed(int *failures, const char *dir)
{
	struct capture c;
	struct proto p;
	size_t n;

	load(dir, "killed", &c);
	proto_init(&p, &job_once, 1);
	feed(&p, &c, 5);
	struct job_rep_result *r = proto_take_reps(&p, &n);
	CHECK(n == 1 && p.done);
	if (n == 1) {
		CHECK(r[0].exit_code == -1 && r[0].term_signal == 9);
		CHECK_STR(r[0].out, "before\n");
		CHECK_STR(r[0].err, "");
	}
	job_rep_result_free_all(r, n);
	proto_free(&p);
	free(c.result);
	free(c.output);
}

TEST(killed)
{
	const char *dir = test_arg(failures, t, 1);

	if (dir)
		check_killed(failures, dir);
}

/* irq lines that are not what the init sends: a protocol error naming the line. */
TEST(bad_irq_lines)
{
	static const struct { const char *line, *error; } cases[] = {
		{ "irq CAL -5", "bad irq line" },
		{ "irq CAL", "bad irq line" },
		{ "irq CAL 5 x", "bad irq line" },
		{ "noirq CAL", "bad noirq line" },
		{ "irq CAL-X 5", "bad irq line" },
		{ "irq ABCDEFGHIJKLMNOP 5", "bad irq label" },
		{ "irq ABCDEFGHIJKLMNOPQ 5", "bad irq line" },
		{ "noirq C.L why", "bad irq label" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proto p;
		char *text = xasprintf("hello 2 6.1.192\nstart 0 0\n%s\n", cases[i].line);
		proto_init(&p, &job_once, 1);
		proto_feed_result(&p, text, strlen(text));
		CHECK(p.error && strstr(p.error, cases[i].error), "'%s': %s", cases[i].line,
		      p.error ? p.error : "accepted");
		proto_free(&p);
		free(text);
	}
	struct proto p;
	proto_init(&p, &job_once, 1);
	proto_feed_result(&p, "hello 2 6.1.192\nirq CAL 5\n", 26);
	CHECK(p.error && strstr(p.error, "irq count outside a job"));
	proto_free(&p);
}

/* What a broken or cut-off stream looks like. */
TEST(failures)
{
	struct proto p;
	const char *fail = "hello 2 6.1.192\nfail mount mount tmpfs on /tmp: No such device\n";
	const char *cut = "hello 2 6.1.192\nstart 0 0\nwall 1.5 s\n";
	const char *stray = "hello 2 6.1.192\nwall 1.5 s\n";

	proto_init(&p, &job_once, 1);
	proto_feed_result(&p, fail, strlen(fail));
	CHECK_STR(p.fail_phase, "mount");
	CHECK_STR(p.fail_reason, "mount tmpfs on /tmp: No such device");
	CHECK(!p.done && proto_finished(&p)); /* a failure is final: the init may go */
	proto_free(&p);

	proto_init(&p, &job_once, 1);
	proto_feed_result(&p, cut, strlen(cut));
	CHECK(p.cur_job == 0 && p.cur_rep == 0 && !p.done && !p.error && !proto_finished(&p));
	proto_feed_result(&p, "exit 0 0 0 0\ndone\n", 18);
	CHECK(p.done && !proto_finished(&p)); /* output not finished yet */
	proto_feed_output(&p, "z 0 0 0\n", 8);
	CHECK(proto_finished(&p));
	proto_free(&p);

	proto_init(&p, &job_once, 1);
	proto_feed_result(&p, stray, strlen(stray));
	CHECK(p.error && strstr(p.error, "metric outside a job"));
	proto_free(&p);

	proto_init(&p, &job_once, 1);
	proto_feed_result(&p, "hello 1 6.1.192\n", 16); /* an init built before the irq lines */
	CHECK(p.error && strstr(p.error, "protocol version"));
	proto_free(&p);

	proto_init(&p, &job_once, 1);
	proto_feed_output(&p, "x 0 0 3\nabc", 11);
	CHECK(p.error && strstr(p.error, "bad output frame header"));
	proto_free(&p);
}

TEST_MAIN()
