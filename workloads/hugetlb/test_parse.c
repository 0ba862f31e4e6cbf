/* hugetlb's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it.
 * usage: test_parse <workloads/hugetlb/testdata> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "test.h"

TEST(baseline)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-baseline-rep1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "wall", "s", 0.007042);
	CHECK_SAMPLE(&g, "sys", "s", 0.007091);
	CHECK_SAMPLE(&g, "release_wall", "s", 0.012840);
	CHECK(!got_find(&g, "pages"), "pages is a setting, not a sample");
	got_free(&g);
}

/* The first rep of a boot also reports its warm-up, which is not a sample. */
TEST(first_rep_warmup)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-baseline-rep0.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4 && !got_find(&g, "warmup"), "%d samples", g.n);
	got_free(&g);
}

TEST(init_on_alloc_and_free)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-init_on_alloc-rep1.out" }, &g);
	CHECK_SAMPLE(&g, "wall", "s", 0.655478);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-init_on_free-rep1.out" }, &g);
	CHECK_SAMPLE(&g, "release_sys", "s", 0.601682);
	got_free(&g);
}

TEST(guest_too_small)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .exit_code = 1,
					.out_file = "guest-too-small.out",
					.err_file = "guest-too-small.err" }, &g);
	CHECK(g.n == 0, "a failed job gave %d samples", g.n);
	CHECK_HAS(g.why, "hb-hugetlb: only 990 of 2000 huge pages");
	CHECK_HAS(g.why, "guest too small");
	got_free(&g);
}

TEST(cut_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *cut = fixture_first_lines(dir, "guest-baseline-rep1.out", 4);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .out_text = cut }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no 'zero_check' line");
	got_free(&g);
	free(cut);
}

/* The captured baseline rep with the line starting with `key ` replaced by `line` (or
 * dropped when line is ""): what a helper that broke one line would print. */
static char *edited(const char *dir, const char *key, const char *line)
{
	char *text = fixture_read(dir, "guest-baseline-rep1.out"), *at = strstr(text, key);
	size_t n = strlen(key), cut;
	char *out;

	if (!at || (at != text && at[-1] != '\n') || at[n] != ' ')
		return text; /* the caller's checks then fail: the capture changed */
	cut = strcspn(at, "\n") + (at[strcspn(at, "\n")] ? 1 : 0);
	out = malloc(strlen(text) + strlen(line) + 2);
	sprintf(out, "%.*s%s%s%s", (int)(at - text), text, line, *line ? "\n" : "", at + cut);
	free(text);
	return out;
}

/* Each broken output gives no samples at all (all or nothing), and the reason names the
 * line, whatever the helper's exit status said. */
VARIANT_TYPE(broken) { const char *key, *line, *why; };
VARIANT(broken, zero_check_failed) { "zero_check", "zero_check a fresh huge page holds non-zero bytes",
				    "zero check of a fresh huge page: a fresh huge page holds non-zero bytes" };
VARIANT(broken, trailing_text) { "alloc_wall_s", "alloc_wall_s 0.007042s", "no 'alloc_wall_s <seconds>' line" };
VARIANT(broken, negative_time) { "release_wall_s", "release_wall_s -0.012840", "no 'release_wall_s <seconds>' line" };
VARIANT(broken, one_timing_missing) { "release_sys_s", "", "no 'release_sys_s <seconds>' line" };

TEST_V(broken, refused)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *out = edited(dir, variant->key, variant->line);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .out_text = out }, &g);
	CHECK(g.n == 0, "a broken output gave %d samples", g.n);
	CHECK_HAS(g.why, variant->why);
	got_free(&g);
	free(out);
}

TEST_MAIN()
