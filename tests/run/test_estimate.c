/* The time estimate (run/estimate.c): per-cell seconds from workload.ini's figures (TCG:
 * boot + warm-up + reps x per-rep; KVM: a faster boot and the guest work 8x faster; icount:
 * its own boot and per-rep figures),
 * corrected by what cells really took; this host's recorded pace (run/pace.c: learned,
 * saved, matched by kind then group, started over when workload.ini's seconds change,
 * pruned, refused when absurd or a symlink); and the
 * kernel build time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "boot/accel.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "run/pace.h"
#include "run/plan.h"
#include "run/estimate.h"
#include "workload/workload.h"

/* a: 5 s a repetition, 2 s warm-up per boot; b: no per-repetition figure (10 s assumed). */
struct fixture {
	struct workload w[2];
	const struct workload *ws[2];
	struct estimator e;
};

static struct estimator *two_workloads(struct fixture *f, enum accel_kind accel)
{
	f->w[0] = (struct workload){ .name = "a", .est_rep_s = 5, .est_boot_s = 2 };
	f->w[1] = (struct workload){ .name = "b" };
	f->ws[0] = &f->w[0];
	f->ws[1] = &f->w[1];
	estimator_init(&f->e, f->ws, 2, accel, NULL);
	return &f->e;
}

TEST(tcg_estimate_from_workload_figures)
{
	struct fixture f, slow;
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	CHECK_NEAR(estimate_workload_s(e, "a", 3), 8 + 2 + 5 * 3, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "a", 1), 8 + 2 + 5, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 8 + 10 * 2, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "nope", 2), 0, 0);
	estimator_free(e);
	/* AUTO assumes the slow case. */
	e = two_workloads(&slow, ACCEL_AUTO);
	CHECK_NEAR(estimate_workload_s(e, "a", 3), 25, 1e-9);
	estimator_free(e);
}

TEST(kvm_estimate_is_faster)
{
	struct fixture f;
	struct estimator *e = two_workloads(&f, ACCEL_KVM);

	CHECK_NEAR(estimate_workload_s(e, "a", 3), 1.5 + (2 + 15) / 8.0, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "b", 1), 1.5 + 10 / 8.0, 1e-9);
	estimator_free(e);
}

/* Cells that took twice the estimate double the next estimate of that workload only;
 * the ratio is over all observations (15 s + 60 s actual for 25 + 25 estimated). */
TEST(observations_correct_per_workload)
{
	struct fixture f;
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	estimator_observe_workload(e, "a", 3, 50);
	CHECK_NEAR(estimate_workload_s(e, "a", 3), 50, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "a", 1), 30, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 28, 1e-9);
	estimator_observe_workload(e, "a", 3, 10);
	CHECK_NEAR(estimate_workload_s(e, "a", 3), 25 * 60 / 50.0, 1e-9);
	estimator_observe_workload(e, "nope", 3, 1000);
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 28, 1e-9);
	estimator_free(e);
}

/* Under icount (a clock per workload): the icount boot, and the workload's own icount
 * figure per repetition (a: 20 s, four times its TCG 5 s, the warm-up scaled alike), or
 * twice the TCG figure without one (b); a host-clock workload keeps the TCG estimate. */
TEST(icount_estimate_per_workload)
{
	struct fixture f;
	enum guest_clock clocks[2] = { CLOCK_ICOUNT, CLOCK_ICOUNT };
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	f.w[0].est_icount_rep_s = 20;
	estimator_free(e);
	estimator_init(e, f.ws, 2, ACCEL_TCG, clocks);
	CHECK_NEAR(estimate_workload_s(e, "a", 3), 8 + (2 + 15) * 4, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 8 + 10 * 2 * 2, 1e-9);
	clocks[1] = CLOCK_HOST;
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 8 + 10 * 2, 1e-9);
	estimator_free(e);
}

/* Under icount a cell grows with its vCPUs as measured (run/estimate.c: 1.515x at 6,
 * 2.51x at 24, interpolated between, the 12-24 slope past 24); 1 and 2 vCPUs keep
 * workload.ini's figure; the host clock none. */
TEST(icount_estimate_grows_with_vcpus)
{
	struct fixture f;
	enum guest_clock clocks[2] = { CLOCK_ICOUNT, CLOCK_HOST };
	struct estimator *e = two_workloads(&f, ACCEL_TCG);
	bool done[1] = { false };
	struct plan_cell c = { .line = "6.1", .variant = "baseline", .workload = "a", .rep_done = done };
	struct plan_estimate pe;
	struct plan p = { 0 };
	double at2;

	estimator_free(e);
	estimator_init(e, f.ws, 2, ACCEL_TCG, clocks);
	c.cores = 2;
	at2 = estimate_cell_s(e, &c, 1);
	CHECK_NEAR(at2, 8 + (2 + 5) * 2, 1e-9);
	c.cores = 1;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), at2, 1e-9);
	c.cores = 6;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), at2 * 1.515, 1e-9);
	c.cores = 4;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), at2 * (1 + 0.515 / 2), 1e-9);
	c.cores = 36;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), at2 * (2.51 + 12 * (2.51 - 1.995) / 12), 1e-9);
	c.cores = 24;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), at2 * 2.51, 1e-9);
	/* The plan's total and workload.ini's reference grow alike. */
	p.cells = &c;
	p.ncells = 1;
	p.reps = 1;
	estimate_plan(e, &p, 0, &pe);
	CHECK_NEAR(pe.seconds, at2 * 2.51, 1e-9);
	CHECK_NEAR(pe.reference_s, at2 * 2.51, 1e-9);
	c.workload = "b"; /* the host clock: vCPUs run in parallel */
	c.cores = 24;
	CHECK_NEAR(estimate_cell_s(e, &c, 1), 8 + 10, 1e-9);
	estimator_free(e);
}

/* About 22 core-minutes, split over the jobs; 0 jobs counts as one. */
TEST(kernel_build_estimate)
{
	CHECK_NEAR(estimate_kernel_build_s(1), 1320, 1e-9);
	CHECK_NEAR(estimate_kernel_build_s(2), 660, 1e-9);
	CHECK_NEAR(estimate_kernel_build_s(0), 1320, 1e-9);
}

/* A private cache folder for pace.json (HARDBENCH_CACHE), so no test reads the user's. */
static char *private_cache(void)
{
	char *dir = strdup("/tmp/hb-test-pace.XXXXXX");

	if (!mkdtemp(dir))
		return NULL;
	setenv("HARDBENCH_CACHE", dir, 1);
	return dir;
}

static char *pace_file(const char *cache)
{
	return hb_path_join(cache, PACE_FILE);
}

/* Removes the private cache (its files are the tests' own) and frees its name. */
static void drop_cache(char *cache)
{
	const char *const names[] = { PACE_FILE, "elsewhere.json", NULL };

	for (size_t i = 0; names[i]; i++) {
		char *p = hb_path_join(cache, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(cache);
	free(cache);
}

static const struct plan_cell cell_base = { .line = "6.1", .variant = "baseline",
					    .workload = "a", .cores = 1 };
static const struct plan_cell cell_other = { .line = "6.1", .variant = "init_on_free",
					     .workload = "a", .cores = 1 };

/* A run whose cells of a (params x=1) took twice workload.ini's 25 s from their boot on
 * (a one-time preparation before the boot does not count) writes pace.json; the next
 * estimator reads it: twice for that kind of cell, twice for its group's other variants,
 * nothing for other params, another clock or a workload never run. */
TEST(pace_learned_then_used)
{
	struct fixture f;
	char *cache = private_cache(), *const params[] = { "a.x=1", "b.y=2", NULL },
				       *const other[] = { "a.x=2", NULL };
	struct estimator *e;

	CHECK(cache != NULL, "mkdtemp");
	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, params);
	CHECK(estimate_pace_match(e, &cell_base) == PACE_NONE, "no pace.json yet");
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 3), 25, 1e-9);
	estimator_observe(e, &cell_base, 3, 300, 50);
	estimator_observe(e, &cell_base, 3, 50, 50);
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 3), 350 / 2.0, 1e-9); /* the ETA: whole cells */
	estimator_save_pace(e);
	estimator_free(e);

	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, params);
	CHECK(estimate_pace_match(e, &cell_base) == PACE_KIND, "same kind");
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 3), 50, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 1), 30, 1e-9);
	CHECK(estimate_pace_match(e, &cell_other) == PACE_GROUP, "same group");
	CHECK_NEAR(estimate_cell_s(e, &cell_other, 3), 50, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "a", 3), 50, 1e-9);
	CHECK_NEAR(estimate_reference_s(e, "a", 3), 25, 1e-9);
	CHECK_NEAR(estimate_workload_s(e, "b", 2), 28, 1e-9);
	estimator_free(e);

	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, other);
	CHECK(estimate_pace_match(e, &cell_base) == PACE_NONE, "other params: none");
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 3), 25, 1e-9);
	estimator_free(e);

	e = two_workloads(&f, ACCEL_KVM);
	estimator_use_pace(e, params);
	CHECK(estimate_pace_match(e, &cell_base) == PACE_NONE, "under KVM: none");
	estimator_free(e);
	drop_cache(cache);
}

/* A later run's figure for a kind replaces the earlier one: the latest pace counts. */
TEST(pace_latest_run_wins)
{
	struct fixture f;
	char *cache = private_cache();
	struct estimator *e;

	CHECK(cache != NULL, "mkdtemp");
	for (int run = 0; run < 2; run++) {
		e = two_workloads(&f, ACCEL_TCG);
		estimator_use_pace(e, NULL);
		estimator_observe(e, &cell_base, 3, 1, run ? 10 : 100);
		estimator_save_pace(e);
		estimator_free(e);
	}
	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, NULL);
	CHECK_NEAR(estimate_cell_s(e, &cell_base, 3), 10, 1e-9);
	estimator_free(e);
	drop_cache(cache);
}

static void write_pace(const char *cache, double seconds, double updated)
{
	char *host = accel_host_key(), *path = pace_file(cache);
	FILE *f = fopen(path, "w");

	fprintf(f, "{\"%s\": {\"tcg host a [] est_rep_s=5 est_boot_s=2 est_icount_rep_s=0\": "
		"{\"6.1 baseline c1\": {\"seconds\": %g, \"estimated\": 25, \"cells\": 1, "
		"\"updated\": %.0f}}}}", host, seconds, updated);
	fclose(f);
	free(host);
	free(path);
}

/* What a new estimator reads from the cache's pace.json for cell_base (run pace, no
 * params), a's workload.ini giving rep_s a repetition: which figure answered, and the
 * seconds of 3 repetitions in *seconds. */
static enum pace_match read_back_at(double rep_s, double *seconds)
{
	struct fixture f;
	struct estimator *e = two_workloads(&f, ACCEL_TCG);
	enum pace_match match;

	f.w[0].est_rep_s = rep_s;
	estimator_use_pace(e, NULL);
	match = estimate_pace_match(e, &cell_base);
	*seconds = estimate_cell_s(e, &cell_base, 3);
	estimator_free(e);
	return match;
}

static enum pace_match read_back(double *seconds)
{
	return read_back_at(5, seconds);
}

/* A pace is a factor of workload.ini's seconds: once they are retuned (a's per-rep 5 s to
 * 10 s), the old factor (2x of 25 s) would scale the new figure, so the group starts over. */
TEST(pace_starts_over_when_workload_ini_changes)
{
	struct fixture f;
	char *cache = private_cache();
	double seconds;
	struct estimator *e;

	CHECK(cache != NULL, "mkdtemp");
	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, NULL);
	estimator_observe(e, &cell_base, 3, 50, 50);
	estimator_save_pace(e);
	estimator_free(e);

	CHECK(read_back_at(10, &seconds) == PACE_NONE, "a retuned workload.ini kept its pace");
	CHECK_NEAR(seconds, 8 + 2 + 10 * 3, 1e-9);
	CHECK(read_back(&seconds) == PACE_KIND, "the same figures lost their pace");
	CHECK_NEAR(seconds, 50, 1e-9);
	drop_cache(cache);
}

/* A factor no host has (1e5x) is ignored; so is a pace.json that is a symlink (another
 * user's file) or not JSON; a kind older than 90 days is dropped at the next save. */
TEST(pace_refuses_what_it_cannot_trust)
{
	struct fixture f;
	char *cache = private_cache(), *path, *target, *text;
	double seconds;
	struct estimator *e;

	CHECK(cache != NULL, "mkdtemp");
	path = pace_file(cache);
	target = hb_path_join(cache, "elsewhere.json");

	write_pace(cache, 50, (double)time(NULL));
	CHECK(read_back(&seconds) == PACE_KIND, "a written pace is read");

	write_pace(cache, 0.5, (double)time(NULL)); /* 0.02x: a small params group's */
	CHECK(read_back(&seconds) == PACE_KIND, "0.02x is a pace");
	CHECK_NEAR(seconds, 0.5, 1e-9);

	write_pace(cache, 2.5e6, (double)time(NULL));
	CHECK(read_back(&seconds) == PACE_NONE, "1e5x is not a pace");
	CHECK_NEAR(seconds, 25, 1e-9);

	write_pace(cache, 50, (double)time(NULL));
	CHECK(rename(path, target) == 0 && symlink(target, path) == 0, "symlink");
	CHECK(read_back(&seconds) == PACE_NONE, "a symlinked pace.json was read");
	unlink(path);

	CHECK(hb_write_file_atomic(path, "{\"not json", 10) == 0, "write");
	CHECK(read_back(&seconds) == PACE_NONE, "broken JSON");

	write_pace(cache, 50, (double)time(NULL) - 91 * 24 * 3600.0);
	e = two_workloads(&f, ACCEL_TCG);
	estimator_use_pace(e, NULL);
	estimator_observe(e, &cell_other, 3, 1, 75);
	estimator_save_pace(e);
	estimator_free(e);
	text = hb_read_file(path, NULL);
	CHECK(text && strstr(text, "init_on_free") && !strstr(text, "6.1 baseline c1"),
	      "old kind not pruned or new one missing: %s", text ? text : "(none)");
	free(text);
	free(path);
	free(target);
	drop_cache(cache);
}

TEST_MAIN()
