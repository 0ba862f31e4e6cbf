/* What a hostile guest can send, through the real reader (boot/proto.c): each flood and
 * bad frame of issue 19 must end as one protocol error naming the limit (or, for a bad
 * value, a refused sample), with the host's memory for the boot bounded. The bound is
 * measured: /proc/self/clear_refs resets the peak RSS, VmHWM reads it afterwards (under
 * ASan, whose shadow and quarantine inflate RSS, the peak is printed but not checked). */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/console_scan.h"
#include "boot/proto.h"
#include "boot/tail_log.h"
#include "scratch.h"
#include "test.h"

#define MiB (1024.0 * 1024.0)
#define CHUNK 65536

#if defined(__SANITIZE_ADDRESS__)
#define RSS_CHECKED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_CHECKED 0
#endif
#endif
#ifndef RSS_CHECKED
#define RSS_CHECKED 1
#endif

static char *irq_cal[] = { "CAL", NULL };

static long status_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = atol(line + strlen(key) + 1);
	if (f)
		fclose(f);
	return v;
}

/* Resets the peak, returns the RSS it starts from (KiB). */
static long peak_reset(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "5", 1) != 1)
			fprintf(stderr, "# clear_refs: peak not reset\n");
		close(fd);
	}
	return status_kib("VmRSS:");
}

/* The peak's growth since peak_reset is at most bound_mib, printed either way. */
static void check_peak(int *failures, const char *what, long base_kib, double bound_mib)
{
	double grew = (double)(status_kib("VmHWM:") - base_kib) / 1024.0;

	printf("# %s: host peak RSS grew %.1f MiB (bound %.0f MiB%s)\n", what, grew, bound_mib,
	       RSS_CHECKED ? "" : "; not checked under ASan");
	if (RSS_CHECKED)
		CHECK(grew <= bound_mib, "%s: grew %.1f MiB", what, grew);
}

static void feed_result_text(struct proto *p, const char *text)
{
	proto_feed_result(p, text, strlen(text));
}

static void feed_output_text(struct proto *p, const char *text)
{
	proto_feed_output(p, text, strlen(text));
}

TEST(line_without_newline_256mib)
{
	static const struct guest_job job = { .reps = 1 };
	char *chunk = malloc(CHUNK);
	struct proto p;
	long base = peak_reset();

	memset(chunk, 'A', CHUNK);
	proto_init(&p, &job, 1);
	feed_result_text(&p, "hello 2 6.1.192\nnote ");
	for (size_t sent = 0; sent < (256u << 20); sent += CHUNK)
		proto_feed_result(&p, chunk, CHUNK);
	CHECK(p.error && strstr(p.error, "result line longer than 1023 bytes"), "%s",
	      p.error ? p.error : "accepted");
	check_peak(failures, "256 MiB line", base, 8);
	proto_free(&p);
	free(chunk);
}

/* The frames of made-up jobs 1000, 1001, ...: refused at the first. */
TEST(frames_for_jobs_not_in_the_job_file)
{
	static const struct guest_job job = { .reps = 1 };
	char *payload = calloc(1, CHUNK);
	struct proto p;
	long base = peak_reset();

	proto_init(&p, &job, 1);
	for (int j = 1000; j < 1000 + 8192; j++) {
		char head[64];
		snprintf(head, sizeof(head), "o %d 0 %d\n", j, CHUNK);
		feed_output_text(&p, head);
		proto_feed_output(&p, payload, CHUNK);
	}
	CHECK(p.error && strstr(p.error, "job 1000 rep 0, which the job file does not have"), "%s",
	      p.error ? p.error : "accepted");
	CHECK(p.nreps == 0);
	check_peak(failures, "frames of jobs 1000+", base, 8);
	proto_free(&p);
	free(payload);
}

/* A rep number past the job's reps, on either port. */
TEST(reps_not_in_the_job_file)
{
	static const struct guest_job job = { .reps = 2 };
	struct proto p;

	proto_init(&p, &job, 1);
	feed_result_text(&p, "hello 2 6.1.192\nstart 0 2\n");
	CHECK(p.error && strstr(p.error, "job 0 rep 2"), "%s", p.error ? p.error : "accepted");
	proto_free(&p);
	proto_init(&p, &job, 1);
	feed_output_text(&p, "e 0 7 1\nx");
	CHECK(p.error && strstr(p.error, "job 0 rep 7"), "%s", p.error ? p.error : "accepted");
	proto_free(&p);
}

TEST(notes_of_1mib)
{
	static const struct guest_job job = { .reps = 1 };
	char *note = malloc((1u << 20) + 8);
	struct proto p;
	long base = peak_reset();

	memcpy(note, "note ", 5);
	memset(note + 5, 'n', 1u << 20);
	note[5 + (1u << 20)] = '\n';
	proto_init(&p, &job, 1);
	for (int i = 0; i < 300; i++)
		proto_feed_result(&p, note, 6 + (1u << 20));
	CHECK(p.error && strstr(p.error, "longer than 1023 bytes"));
	CHECK(!p.notes);
	check_peak(failures, "300 notes of 1 MiB", base, 8);
	proto_free(&p);
	free(note);
}

/* Short notes by the hundred thousand: each within the line limit, all of them over the
 * boot's budget. */
TEST(notes_over_the_boot_budget)
{
	static const struct guest_job job = { .reps = 1 };
	char note[1000];
	struct proto p;

	memset(note, 'n', sizeof(note));
	memcpy(note, "note ", 5);
	note[sizeof(note) - 1] = '\n';
	proto_init(&p, &job, 1);
	for (int i = 0; i < 300000 && !p.error; i++)
		proto_feed_result(&p, note, sizeof(note));
	CHECK(p.error && strstr(p.error, "more than a boot may keep (128 MiB"), "%s",
	      p.error ? p.error : "accepted");
	CHECK(p.kept <= PROTO_BOOT_BUDGET);
	proto_free(&p);
}

/* 80,000 distinct start lines: beyond the job file, refused at the first; within a job
 * of 80,000 reps, each found by index (the CPU time is printed, not checked). */
TEST(start_lines_80000)
{
	static const struct guest_job once = { .reps = 1 }, many = { .reps = 80000 };
	struct rusage before, after;
	char line[64];
	struct proto p;

	proto_init(&p, &once, 1);
	feed_result_text(&p, "hello 2 6.1.192\n");
	for (int i = 0; i < 80000; i++) {
		snprintf(line, sizeof(line), "start 0 %d\n", i);
		feed_result_text(&p, line);
		feed_result_text(&p, "exit 0 0 0 0\n");
	}
	CHECK(p.error && strstr(p.error, "job 0 rep 1, which the job file does not have"), "%s",
	      p.error ? p.error : "accepted");
	CHECK(p.nreps == 1);
	proto_free(&p);

	getrusage(RUSAGE_SELF, &before);
	proto_init(&p, &many, 1);
	feed_result_text(&p, "hello 2 6.1.192\n");
	for (int i = 0; i < 80000; i++) {
		snprintf(line, sizeof(line), "start 0 %d\nwall 1 s\nexit 0 %d 0 0\n", i, i);
		feed_result_text(&p, line);
	}
	getrusage(RUSAGE_SELF, &after);
	CHECK(!p.error, "%s", p.error);
	CHECK(p.nreps == 80000);
	printf("# 80,000 reps: %.2f s of CPU\n",
	       (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
		       (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6);
	proto_free(&p);
}

/* A start for a rep that already ran, or while another runs: the init runs them in order. */
TEST(start_lines_out_of_order)
{
	static const struct guest_job job = { .reps = 3 };
	static const char *const bad[] = {
		"start 0 1\nexit 0 1 0 0\nstart 0 0\n",
		"start 0 1\nexit 0 1 0 0\nstart 0 1\n",
		"start 0 0\nstart 0 1\n",
		"start 0 0\nexit 0 1 0 0\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proto p;
		proto_init(&p, &job, 1);
		feed_result_text(&p, bad[i]);
		CHECK(p.error != NULL, "accepted: %s", bad[i]);
		proto_free(&p);
	}
}

TEST(frame_length_out_of_range)
{
	static const struct guest_job job = { .reps = 1 };
	static const char *const heads[] = {
		"o 0 0 -1\n", "o 0 0 18446744073709551615\n", "o 0 0 65537\n", "o 0 0 +5\n",
		"o -1 0 5\n", "o 0 0 5x\n", "o 0 0  5\n", "o 0 0\n",
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		struct proto p;
		proto_init(&p, &job, 1);
		feed_output_text(&p, heads[i]);
		CHECK(p.error && strstr(p.error, "bad output frame header"), "'%.*s': %s",
		      (int)strcspn(heads[i], "\n"), heads[i], p.error ? p.error : "accepted");
		CHECK(p.frame_left == 0);
		proto_free(&p);
	}
	struct proto p;
	char head[200];
	proto_init(&p, &job, 1);
	memset(head, '7', sizeof(head));
	proto_feed_output(&p, head, sizeof(head));
	CHECK(p.error && strstr(p.error, "header longer than 63 bytes"));
	proto_free(&p);
}

/* A guest flooding its output, every rep of a four-rep job over the per-stream cap: the
 * streams are cut, the boot stops at the budget, the peak stays within the budget. */
TEST(output_flood_within_the_boot_budget)
{
	static const struct guest_job job = { .reps = 4 };
	char *payload = malloc(CHUNK);
	struct proto p;
	long base = peak_reset();

	memset(payload, 'x', CHUNK);
	proto_init(&p, &job, 1);
	for (int rep = 0; rep < 4; rep++)
		for (size_t sent = 0; sent < PROTO_MAX_CAPTURE + (8u << 20); sent += CHUNK) {
			char head[64];
			snprintf(head, sizeof(head), "%c 0 %d %d\n", sent & CHUNK ? 'e' : 'o', rep, CHUNK);
			feed_output_text(&p, head);
			proto_feed_output(&p, payload, CHUNK);
		}
	CHECK(p.error && strstr(p.error, "more than a boot may keep (128 MiB"), "%s",
	      p.error ? p.error : "accepted");
	CHECK(p.kept <= PROTO_BOOT_BUDGET);
	check_peak(failures, "output flood", base, (PROTO_BOOT_BUDGET >> 20) + 16);
	proto_free(&p);
	free(payload);
}

/* One stream over its cap: cut and marked, no error (a workload may print a lot). */
TEST(one_stream_cut_at_its_cap)
{
	static const struct guest_job job = { .reps = 1 };
	char *payload = malloc(CHUNK);
	struct proto p;
	size_t n;

	memset(payload, 'y', CHUNK);
	proto_init(&p, &job, 1);
	for (size_t sent = 0; sent < PROTO_MAX_CAPTURE + (1u << 20); sent += CHUNK) {
		feed_output_text(&p, "o 0 0 65536\n");
		proto_feed_output(&p, payload, CHUNK);
	}
	CHECK(!p.error, "%s", p.error);
	struct job_rep_result *r = proto_take_reps(&p, &n);
	CHECK(n == 1 && r[0].out_len > PROTO_MAX_CAPTURE && r[0].out_len < PROTO_MAX_CAPTURE + 64);
	CHECK(n == 1 && strstr(r[0].out + PROTO_MAX_CAPTURE, "output cut here"));
	job_rep_result_free_all(r, n);
	proto_free(&p);
	free(payload);
}

/* Values out of range lose their sample with a reason; the rep and the boot go on. */
TEST(bad_values_refused_per_sample)
{
	static const struct guest_job job = { .reps = 1, .irq = irq_cal };
	struct proto p;
	size_t n;

	proto_init(&p, &job, 1);
	feed_result_text(&p, "hello 2 6.1.192\nstart 0 0\nwall -1 s\nuser 0.5 s\nsys 1e300 s\n"
			     "guest_idle nan s\nirq CAL 18446744073709551615\nexit 0 0 0 0\ndone\n");
	CHECK(!p.error, "%s", p.error);
	struct job_rep_result *r = proto_take_reps(&p, &n);
	CHECK(n == 1);
	if (n == 1) {
		CHECK_NAN(r->wall_s);
		CHECK_NAN(r->sys_s);
		CHECK_NAN(r->guest_idle_s);
		CHECK_NEAR(r->user_s, 0.5, 0);
		CHECK_HAS(r->refused, "wall -1 is negative (accepted: 0 to");
		CHECK_HAS(r->refused, "sys 1.0000000000000001e+300 is out of range");
		CHECK_HAS(r->refused, "guest_idle nan is out of range");
		CHECK(r->nirq == 1 && r->irq[0].missing);
		if (r->nirq == 1)
			CHECK_HAS(r->irq[0].missing, "18446744073709551615 is out of range");
	}
	job_rep_result_free_all(r, n);
	proto_free(&p);

	/* A count of "-1" (which %llu reads as 2^64-1) and a row the job did not ask for. */
	static const char *const bad[] = { "irq CAL -1\n", "irq TLB 5\n", "irq CAL 1\nirq CAL 2\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		proto_init(&p, &job, 1);
		feed_result_text(&p, "start 0 0\n");
		feed_result_text(&p, bad[i]);
		CHECK(p.error != NULL, "accepted: %s", bad[i]);
		proto_free(&p);
	}
}

/* The logs keep their tail past TAIL_LOG_MAX, say so on their first line, and are never
 * written through a link planted where they go. */
TEST(logs_bounded_and_not_followed)
{
	char *dir = scratch_dir();
	char *path = hb_path_join(dir, "output.raw"), *victim = hb_path_join(dir, "victim");
	char *chunk = malloc(CHUNK);
	struct tail_log log;
	struct stat st;

	scratch_write(dir, "victim", "precious\n");
	CHECK(symlink(victim, path) == 0);
	CHECK(tail_log_create(&log, path) == 0);
	memset(chunk, 'z', CHUNK);
	chunk[CHUNK - 1] = '\n';
	for (int i = 0; i < (40 << 20) / CHUNK; i++)
		tail_log_write(&log, chunk, CHUNK);
	tail_log_write(&log, "last line\n", 10);
	CHECK(log.fd >= 0);
	tail_log_close(&log);
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= TAIL_LOG_MAX);
	char *text = hb_read_file(victim, NULL);
	CHECK_STR(text, "precious\n");
	free(text);
	char *first = NULL, *last = NULL;
	FILE *f = fopen(path, "r");
	char line[200];
	if (f && fgets(line, sizeof(line), f))
		first = xstrdup(line);
	if (f)
		fclose(f);
	CHECK(first && strstr(first, "bytes cut here; this log keeps its last 8 MiB"), "%s",
	      first ? first : "(none)");
	console_scan_file(path, NULL, &last);
	CHECK_STR(last, "last line");
	free(first);
	free(last);
	free(chunk);
	hb_remove_tree(dir);
	free(dir);
	free(path);
	free(victim);
}

TEST_MAIN()
