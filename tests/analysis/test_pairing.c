/* Per-round pairing (results/dataset rounds, analysis/rows): rounds missing on one side
 * are skipped; a drift between rounds that hits both variants cancels in the pairs while it
 * widens Welch's interval; one round is not enough for a paired headline; an imported set
 * is not paired unless asked; groups of different clocks stay apart. */
#include <math.h>
#include <string.h>

#include "analysis/rows.h"
#include "results/dataset.h"
#include "test.h"

static void add(struct dataset *ds, const char *clock, const char *variant, int boot, double v)
{
	struct sample s = { .variant = variant, .workload = "hackbench", .metric = "time", .unit = "s",
			    .cores = 1, .boot = boot, .rep = 0, .value = v, .lower_is_better = true,
			    .clock = clock };

	dataset_add_sample(ds, &s);
}

/* Rounds 0..3 of the baseline at 100 * drift; the variant 5% slower in every round it has.
 * Two reps per cell, 0.1% apart, so every cell has a spread. */
static const double drift[] = { 1.00, 1.10, 0.95, 1.20, 1.05 };

static void add_round(struct dataset *ds, const char *variant, int boot, double factor)
{
	add(ds, "icount", variant, boot, 100 * drift[boot] * factor);
	add(ds, "icount", variant, boot, 100 * drift[boot] * factor * 1.001);
}

static size_t rows_of(struct dataset *ds, struct group_row *rows, const struct rows_opts *o)
{
	dataset_sort(ds);
	return group_rows_opts(ds, ds->groups[0], dataset_variant(ds, "baseline"), -1, o, rows);
}

TEST(drift_cancels_in_pairs)
{
	struct dataset ds = { 0 };
	struct group_row rows[2];

	for (int b = 0; b < 4; b++) {
		add_round(&ds, "baseline", b, 1);
		add_round(&ds, "init_on_alloc", b, 1.05);
	}
	CHECK(rows_of(&ds, rows, NULL) == 2);
	CHECK(rows[1].status == ROW_OK && rows[1].paired);
	CHECK(rows[1].pe.n_pairs == 4 && rows[1].rounds_unpaired == 0);
	CHECK_NEAR(rows[1].head.slowdown_pct, 5, 1e-9);
	CHECK_NEAR(rows[1].head.slowdown_pct, rows[1].pe.slowdown_pct, 0);
	/* Every round's ratio is exactly 1.05: the paired interval is a point, Welch's is wide. */
	CHECK(rows[1].head.ci95_high_pct - rows[1].head.ci95_low_pct < 1e-6);
	CHECK(rows[1].welch.ci95_high_pct - rows[1].welch.ci95_low_pct > 10,
	      "Welch CI [%g, %g]", rows[1].welch.ci95_low_pct, rows[1].welch.ci95_high_pct);
	CHECK(rows[1].welch.ci95_low_pct < 0, "the drift hides the cost from Welch");
	CHECK_STR(group_row_kind(&rows[1]), "paired");
	dataset_free(&ds);
}

/* The variant has rounds 0, 1, 3, 4; the baseline 0..3: rounds 2 and 4 have no partner. */
TEST(missing_rounds_are_skipped)
{
	struct dataset ds = { 0 };
	struct group_row rows[2];
	static const double noise[] = { 1.04, 1.06, 0, 1.05, 1.07 };

	for (int b = 0; b < 4; b++)
		add_round(&ds, "baseline", b, 1);
	for (int b = 0; b < 5; b++)
		if (b != 2)
			add_round(&ds, "init_on_alloc", b, noise[b]);
	rows_of(&ds, rows, NULL);
	CHECK(rows[1].pe.n_pairs == 3, "%ld pairs", rows[1].pe.n_pairs);
	CHECK(rows[1].rounds_unpaired == 1, "%ld unpaired", rows[1].rounds_unpaired);
	/* geometric mean of 1.04, 1.06, 1.05 */
	CHECK_NEAR(rows[1].pe.slowdown_pct, (cbrt(1.04 * 1.06 * 1.05) - 1) * 100, 1e-9);
	CHECK(rows[1].pe.ci95_low_pct < rows[1].pe.slowdown_pct &&
	      rows[1].pe.slowdown_pct < rows[1].pe.ci95_high_pct);
	CHECK(rows[1].pe.mde_pct > 0 && isfinite(rows[1].pe.mde_pct));
	dataset_free(&ds);
}

/* The baseline lacks round 2, which the variant has: round 2 stays unpaired, not paired
 * with the baseline's round 3 (the next one the merge walk finds). */
TEST(a_round_without_its_baseline_is_not_paired_with_the_next)
{
	struct dataset ds = { 0 };
	struct group_row rows[2];

	for (int b = 0; b < 4; b++)
		if (b != 2)
			add_round(&ds, "baseline", b, 1);
	for (int b = 0; b < 4; b++)
		add_round(&ds, "init_on_alloc", b, 1.05);
	rows_of(&ds, rows, NULL);
	CHECK(rows[1].pe.n_pairs == 3, "%ld pairs, want 3", rows[1].pe.n_pairs);
	CHECK(rows[1].rounds_unpaired == 1, "%ld unpaired, want 1", rows[1].rounds_unpaired);
	CHECK_NEAR(rows[1].pe.slowdown_pct, 5.0, 1e-9);
	dataset_free(&ds);
}

/* One shared round: a paired point estimate but no spread, so the headline is Welch's;
 * no rounds at all (an import without boot column): Welch's; pairing turned off: Welch's. */
TEST(welch_without_enough_rounds)
{
	struct dataset one = { 0 }, none = { 0 };
	struct group_row rows[2];
	struct rows_opts off = { .no_pairing = true };

	add_round(&one, "baseline", 0, 1);
	add_round(&one, "init_on_alloc", 0, 1.05);
	rows_of(&one, rows, NULL);
	CHECK(rows[1].pe.n_pairs == 1 && !rows[1].paired);
	CHECK_NEAR(rows[1].head.slowdown_pct, rows[1].welch.slowdown_pct, 0);
	CHECK_STR(group_row_kind(&rows[1]), "Welch");
	dataset_add(&none, "hackbench", "time", "s", 1, "baseline", true, 100);
	dataset_add(&none, "hackbench", "time", "s", 1, "baseline", true, 101);
	dataset_add(&none, "hackbench", "time", "s", 1, "init_on_alloc", true, 105);
	dataset_add(&none, "hackbench", "time", "s", 1, "init_on_alloc", true, 106);
	CHECK(!dataset_has_rounds(&none) && dataset_has_rounds(&one));
	rows_of(&none, rows, NULL);
	CHECK(rows[1].pe.n_pairs == 0 && !rows[1].paired);
	CHECK(isfinite(rows[1].head.ci95_low_pct) && isfinite(rows[1].head.mde_pct));
	dataset_free(&one);
	for (int b = 0; b < 3; b++) {
		add_round(&one, "baseline", b, 1);
		add_round(&one, "init_on_alloc", b, 1.05);
	}
	rows_of(&one, rows, &off);
	CHECK(!rows[1].paired && rows[1].pe.n_pairs == 0);
	CHECK_NEAR(rows[1].head.se_pct, rows[1].welch.se_pct, 0);
	dataset_free(&one);
	dataset_free(&none);
}

/* The same cell under two clocks: two groups that know their clock, the first-seen clock
 * first, and sections that never span both. */
TEST(clocks_apart)
{
	struct dataset ds = { 0 };

	add(&ds, "icount", "baseline", 0, 100);
	add(&ds, NULL, "baseline", 0, 7);
	add(&ds, "icount", "baseline", 1, 102);
	add(&ds, "host", "baseline", 1, 9);
	dataset_sort(&ds);
	CHECK(ds.ngroups == 2, "%zu groups", ds.ngroups);
	CHECK(ds.nclocks == 2);
	CHECK_STR(ds.groups[0]->clock, "icount");
	CHECK_STR(ds.groups[1]->clock, "host");
	CHECK(ds.groups[0]->cells[0].w.n == 2 && ds.groups[1]->cells[0].w.n == 2);
	CHECK_NEAR(ds.groups[0]->cells[0].w.mean, 101, 1e-12);
	CHECK_NEAR(ds.groups[1]->cells[0].w.mean, 8, 1e-12);
	CHECK(ds_section_end(&ds, 0) == 1);
	CHECK(ds_cell_round(&ds.groups[0]->cells[0], 1) != NULL);
	CHECK(ds_cell_round(&ds.groups[0]->cells[0], 2) == NULL);
	dataset_free(&ds);
}

/* Rounds arrive out of order (a resumed run): they are kept sorted and merged by index. */
TEST(rounds_sorted_and_merged)
{
	struct dataset ds = { 0 };
	const struct ds_cell *c;
	static const int order[] = { 3, 0, 2, 0, 1, 3 };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		add(&ds, "icount", "baseline", order[i], 10 + order[i]);
	c = &ds.groups[0]->cells[0];
	CHECK(c->nrounds == 4, "%zu rounds", c->nrounds);
	for (size_t i = 0; i < c->nrounds; i++)
		CHECK(c->rounds[i].boot == (int)i && c->rounds[i].w.mean == 10 + (double)i);
	CHECK(ds_cell_round(c, 0)->w.n == 2 && ds_cell_round(c, 3)->w.n == 2);
	dataset_free(&ds);
}

TEST_MAIN()
