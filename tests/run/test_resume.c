/* Resume (run/resume.c, resume_load): from the journal of a stopped run, exactly the
 * repetitions no journal line confirms are left to measure (none lost, none measured
 * twice), and samples.jsonl keeps only confirmed repetitions (plus what it cannot place).
 *
 * The plan: variants v0, v1 x workloads hackbench, test_vmalloc x 2 vCPUs x 2 boots,
 * 3 repetitions per boot: 8 cells. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "scratch.h"
#include "results/store.h"
#include "run/journal.h"
#include "run/run.h"
#include "workload/workload.h"

#define REPS 3

struct fixture {
	struct run run;
	struct workload w[2];
	struct workload *wp[2];
};

static char **strv2(const char *a, const char *b)
{
	char **v = xcalloc(3, sizeof(char *));

	v[0] = xstrdup(a);
	v[1] = xstrdup(b);
	return v;
}

/* Only what resume_load reads: the result set, the plan and the workloads' names. */
static void fixture_init(struct fixture *f)
{
	long *cores = xcalloc(1, sizeof(long));

	memset(f, 0, sizeof(*f));
	cores[0] = 2;
	f->w[0].name = "hackbench";
	f->w[1].name = "test_vmalloc";
	f->wp[0] = &f->w[0];
	f->wp[1] = &f->w[1];
	f->run.workloads = f->wp;
	f->run.nworkloads = 2;
	f->run.dir = scratch_dir();
	f->run.plan = (struct plan){ .variants = strv2("v0", "v1"), .workloads = strv2("hackbench", "test_vmalloc"),
				     .cores = cores, .ncores = 1, .boots = 2, .reps = REPS,
				     .order = ORDER_INTERLEAVED, .seed = 5 };
	plan_build(&f->run.plan);
}

static void fixture_free(struct fixture *f)
{
	plan_free(&f->run.plan);
	hb_remove_tree(f->run.dir);
	free(f->run.dir);
}

/* "101" when repetitions 0 and 2 of the cell are measured; "?" when there is no such cell. */
static void check_reps_done(int *failures, const struct fixture *f, const char *key, const char *want)
{
	const struct plan_cell *c = plan_find_cell(&f->run.plan, key);
	char got[REPS + 1] = "?";

	for (int r = 0; c && r < REPS; r++)
		got[r] = c->rep_done[r] ? '1' : '0';
	got[c ? REPS : 1] = '\0';
	CHECK(!strcmp(got, want), "%s: repetitions done %s, want %s", key, got, want);
}

#define CHECK_DONE(key, want) check_reps_done(failures, &f, key, want)

/* Torn and corrupt lines, duplicate and overlapping records, a cell not in the plan, and
 * repetition numbers out of range: each cell ends with exactly the confirmed repetitions. */
TEST(resume_marks_exactly_the_journalled_reps)
{
	struct fixture f;

	fixture_init(&f);
	scratch_write(f.run.dir, JOURNAL_FILE,
		"{\"cell\":\"v0/hackbench/2/0\",\"status\":\"ok\",\"reps_done\":[0,1,2],\"seconds\":9}\n"
		"{\"cell\":\"v1/hackbench/2/0\",\"status\":\"failed\",\"reps_done\":[0],\"reason\":\"timeout\"}\n"
		"not json\n"
		"{\"cell\":\"v1/hackbench/2/0\",\"status\":\"failed\",\"reps_done\":[0,1],\"reason\":\"panic\"}\n"
		"{\"cell\":\"v0/hackbench/2/1\",\"status\":\"ok\",\"reps_done\":[0,1,2],\"seconds\":9}\n"
		"{\"cell\":\"v0/hackbench/2/1\",\"status\":\"ok\",\"reps_done\":[0,1,2],\"seconds\":9}\n"
		"{\"cell\":\"v9/hackbench/2/0\",\"status\":\"ok\",\"reps_done\":[0,1,2],\"seconds\":9}\n"
		"{\"cell\":\"v1/hackbench/2/1\",\"status\":\"failed\",\"reps_done\":[3,-1,7],\"reason\":\"?\"}\n"
		"{\"cell\":\"v0/test_vmalloc/2/0\",\"status\":\"failed\",\"reps_done\":[2],\"reason\":\"x\"}\n"
		"{\"cell\":\"v1/test_vmalloc/2/0\",\"status\":\"ok\",\"reps_done\":[0,1,2],\"sec");
	CHECK(resume_load(&f.run) == 0);
	CHECK_DONE("v0/hackbench/2/0", "111");
	CHECK_DONE("v1/hackbench/2/0", "110");
	CHECK_DONE("v0/hackbench/2/1", "111");
	CHECK_DONE("v1/hackbench/2/1", "000");
	CHECK_DONE("v0/test_vmalloc/2/0", "001");
	CHECK_DONE("v1/test_vmalloc/2/0", "000");
	CHECK_DONE("v0/test_vmalloc/2/1", "000");
	CHECK_DONE("v1/test_vmalloc/2/1", "000");
	CHECK(plan_cell_missing(&f.run.plan, plan_find_cell(&f.run.plan, "v1/hackbench/2/0")) == 1);
	CHECK(plan_count_pending(&f.run.plan) == 6, "pending %zu", plan_count_pending(&f.run.plan));
	fixture_free(&f);
}

static char *sample(const char *variant, const char *workload, int boot, int rep)
{
	return xasprintf("{\"variant\":\"%s\",\"workload\":\"%s\",\"cores\":2,\"boot\":%d,\"rep\":%d,"
			 "\"metric\":\"m\",\"value\":1}\n", variant, workload, boot, rep);
}

/* Samples of confirmed repetitions stay; those of unconfirmed ones go (they are measured
 * again); lines resume cannot place in the plan are kept untouched. */
TEST(resume_prunes_unconfirmed_samples)
{
	struct fixture f;
	char *keep1 = sample("v0", "hackbench", 0, 1), *keep2 = sample("v0", "test_vmalloc-performance", 1, 0);
	char *drop1 = sample("v0", "hackbench", 0, 2), *drop2 = sample("v1", "test_vmalloc-sequential", 1, 0);
	char *other = sample("v0", "kbuild", 0, 0), *outside = sample("v0", "hackbench", 5, 0);
	char *text, *got;

	fixture_init(&f);
	scratch_write(f.run.dir, JOURNAL_FILE,
		"{\"cell\":\"v0/hackbench/2/0\",\"status\":\"failed\",\"reps_done\":[0,1],\"reason\":\"x\"}\n"
		"{\"cell\":\"v0/test_vmalloc/2/1\",\"status\":\"failed\",\"reps_done\":[0],\"reason\":\"x\"}\n");
	text = xasprintf("%s%s%s%s%s%s", keep1, drop1, keep2, other, drop2, outside);
	scratch_write(f.run.dir, RS_SAMPLES_FILE, text);
	free(text);
	CHECK(resume_load(&f.run) == 0);
	got = scratch_read(f.run.dir, RS_SAMPLES_FILE);
	text = xasprintf("%s%s%s%s", keep1, keep2, other, outside);
	CHECK_STR(got, text);
	free(text);
	free(got);
	free(keep1);
	free(keep2);
	free(drop1);
	free(drop2);
	free(other);
	free(outside);
	fixture_free(&f);
}

/* Every repetition journalled: nothing to run, and samples.jsonl is left as it was. */
TEST(resume_of_a_complete_set)
{
	struct fixture f;
	char *s = sample("v1", "hackbench", 1, 2), *got;

	fixture_init(&f);
	for (size_t i = 0; i < f.run.plan.ncells; i++) {
		char *key = plan_cell_key(&f.run.plan.cells[i]);
		const int reps[] = { 2, 0, 1 };
		struct journal_entry e = { .cell = key, .ok = true, .reps_done = reps, .nreps_done = 3 };
		CHECK(journal_append(f.run.dir, &e) == 0);
		free(key);
	}
	scratch_write(f.run.dir, RS_SAMPLES_FILE, s);
	CHECK(resume_load(&f.run) == 0);
	CHECK(plan_count_pending(&f.run.plan) == 0, "pending %zu", plan_count_pending(&f.run.plan));
	got = scratch_read(f.run.dir, RS_SAMPLES_FILE);
	CHECK_STR(got, s);
	free(got);
	free(s);
	fixture_free(&f);
}

/* Stopped before the first journal line: every repetition is still to measure, and the
 * samples written before the stop are dropped rather than counted twice. */
TEST(resume_without_journal)
{
	struct fixture f;
	char *s = sample("v0", "hackbench", 0, 0), *got;

	fixture_init(&f);
	scratch_write(f.run.dir, RS_SAMPLES_FILE, s);
	CHECK(resume_load(&f.run) == 0);
	CHECK(plan_count_pending(&f.run.plan) == f.run.plan.ncells);
	got = scratch_read(f.run.dir, RS_SAMPLES_FILE);
	CHECK_STR(got, "");
	free(got);
	free(s);
	fixture_free(&f);
}

TEST_MAIN()
