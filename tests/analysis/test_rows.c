/* The analysis code report, plot and gate share (results/dataset, analysis/rows,
 * analysis/numfmt) and the report's format registry, on small datasets built by hand. */
#include <math.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "analysis/rows.h"
#include "report/render.h"
#include "seeds/render.h"
#include "results/dataset.h"
#include "test.h"

/* kbuild at 2 and 4 cores (wall), hackbench at 2 (sys); variants in first-seen order
 * other, baseline. baseline means: kbuild/2 100, kbuild/4 50; other: 110, 55. */
static void build(struct dataset *ds)
{
	memset(ds, 0, sizeof(*ds));
	dataset_add(ds, "kbuild", "wall", "s", 4, "other", true, 55);
	dataset_add(ds, "hackbench", "sys", "s", 2, "baseline", true, 7);
	dataset_add(ds, "kbuild", "wall", "s", 2, "other", true, 110);
	dataset_add(ds, "kbuild", "wall", "s", 2, "baseline", true, 100);
	dataset_add(ds, "kbuild", "wall", "s", 4, "baseline", true, 50);
	dataset_sort(ds);
}

/* Display order: workloads as first seen, then cores ascending. */
TEST(dataset_order_and_sections)
{
	struct dataset ds;

	build(&ds);
	CHECK(ds.ngroups == 3, "%zu groups", ds.ngroups);
	CHECK(!strcmp(ds.groups[0]->workload, "kbuild") && ds.groups[0]->cores == 2);
	CHECK(!strcmp(ds.groups[1]->workload, "kbuild") && ds.groups[1]->cores == 4);
	CHECK(!strcmp(ds.groups[2]->workload, "hackbench"));
	CHECK(ds_section_end(&ds, 0) == 1);
	CHECK(ds_section_end(&ds, 1) == 2);
	CHECK(ds_section_end(&ds, 2) == 3);
	CHECK(dataset_pick_baseline(&ds, NULL) == dataset_variant(&ds, "baseline"));
	dataset_free(&ds);
}

/* Baseline first; other at 110 vs 100: ratio 1.1, +10%. A group without the baseline
 * gives a row that says so. */
TEST(group_rows_compare_with_baseline)
{
	struct dataset ds;
	struct group_row rows[2];
	int base, other;
	size_t n;

	build(&ds);
	base = dataset_variant(&ds, "baseline");
	other = dataset_variant(&ds, "other");
	n = group_rows(&ds, ds.groups[0], base, -1, rows);
	CHECK(n == 2, "%zu rows", n);
	CHECK(rows[0].variant == base && rows[0].status == ROW_IS_BASELINE);
	CHECK(rows[1].variant == other && rows[1].status == ROW_OK);
	CHECK_NEAR(rows[1].c.ratio, 1.1, 1e-12);
	CHECK_NEAR(rows[1].c.slowdown_pct, 10, 1e-9);
	CHECK_NAN(rows[1].ratio_to);
	CHECK(group_row_problem(&rows[1]) == NULL);
	n = group_rows(&ds, ds.groups[1], other, base, rows);
	CHECK(n == 2 && rows[0].variant == other);
	CHECK_NAN(rows[1].ratio_to); /* the ratio_to variant itself: no ratio column */
	CHECK_NEAR(rows[0].ratio_to, 1.1, 1e-12);
	n = group_rows(&ds, ds.groups[2], other, -1, rows);
	CHECK(n == 1 && rows[0].status == ROW_NO_BASELINE);
	CHECK(group_row_problem(&rows[0]) != NULL);
	dataset_free(&ds);
}

/* WIDE_MIN_METRICS metrics in one unit make a section per-test, unless the workload's
 * metadata answers first. */
TEST(section_is_wide)
{
	struct dataset ds;
	char name[16];

	memset(&ds, 0, sizeof(ds));
	for (int i = 0; i < WIDE_MIN_METRICS; i++) {
		snprintf(name, sizeof(name), "test%d", i);
		dataset_add(&ds, "vmalloc", name, "usec", 2, "baseline", true, i + 1);
	}
	dataset_sort(&ds);
	CHECK(ds_section_end(&ds, 0) == ds.ngroups);
	CHECK(ds_section_is_wide_hint(ds.groups, 0, ds.ngroups, -1));
	CHECK(!ds_section_is_wide_hint(ds.groups, 0, ds.ngroups, 0));
	CHECK(!ds_section_is_wide_hint(ds.groups, 0, ds.ngroups - 1, -1));
	CHECK(ds_section_is_wide_hint(ds.groups, 0, 1, 1));
	dataset_free(&ds);
}

TEST(number_formats)
{
	char b[NUMFMT_SIZE];

	CHECK(!strcmp(fmt_value(b, 301.77), "301.77"), "%s", b);
	CHECK(!strcmp(fmt_value(b, 0.37803), "0.37803"), "%s", b);
	CHECK(!strcmp(fmt_value(b, 123456.7), "123457"), "%s", b);
	CHECK(!strcmp(fmt_value(b, NAN), "-"), "%s", b);
	CHECK(!strcmp(fmt_pct(b, 4.567), "+4.57%"), "%s", b);
	CHECK(!strcmp(fmt_pct_plain(b, 0.19), "0.19%"), "%s", b);
	CHECK(!strcmp(fmt_ratio(b, 1.04567, 4), "1.0457"), "%s", b);
	CHECK(!strcmp(fmt_p(b, 0.4), "0.40"), "%s", b);
	CHECK(!strcmp(fmt_p(b, 0.0031), "0.0031"), "%s", b);
	CHECK(!strcmp(fmt_p_eq(b, 0.00001), "p<0.0001"), "%s", b);
	/* A cost above +100% reads as a ratio, its interval and st.err alike; at or below
	 * +100% (and for a CI that reaches past it) the percent stays. */
	CHECK(!strcmp(fmt_cost(b, 19254.40), "193.5x"), "%s", b);
	CHECK(!strcmp(fmt_cost(b, 100.0), "+100.00%"), "%s", b);
	CHECK(!strcmp(fmt_cost(b, 120.56), "2.206x"), "%s", b);
	CHECK(!strcmp(fmt_cost(b, 30.97), "+30.97%"), "%s", b);
	CHECK(!strcmp(fmt_cost(b, NAN), "-"), "%s", b);
	CHECK(!strcmp(fmt_cost_ci(b, 19254.40, 19251.48, 19257.32), "[193.5x, 193.6x]"), "%s", b);
	CHECK(!strcmp(fmt_cost_ci(b, 30.97, -6.45, 168.38), "[-6.45%, +168.38%]"), "%s", b);
	CHECK(!strcmp(fmt_cost_se(b, 19254.40, 0.68), "0.0068"), "%s", b);
	CHECK(!strcmp(fmt_cost_se(b, 30.97, 10.03), "10.03%"), "%s", b);
	CHECK(!strcmp(fmt_x(b, 26.3656), "26.37x"), "%s", b);
	CHECK(!strcmp(fmt_x(b, 0.66138), "0.6614x"), "%s", b);
}

/* A time that read exactly 0 s on either side sits under its clock's step: no ratio and no
 * interval, and the row says why; a count of 0 is a real value. */
TEST(below_the_clock_resolution)
{
	struct dataset ds;
	struct group_row rows[2];
	const double base_sys[] = { 0, 0, 0.001406 }, other_sys[] = { 0.26637, 0.2693, 0.27097 };
	size_t n;

	memset(&ds, 0, sizeof(ds));
	for (int i = 0; i < 3; i++) {
		dataset_add(&ds, "hugetlb", "sys", "s", 1, "baseline", true, base_sys[i]);
		dataset_add(&ds, "hugetlb", "sys", "s", 1, "other", true, other_sys[i]);
		dataset_add(&ds, "hackbench", "ipi_tlb", "", 1, "baseline", true, i ? 2 : 0);
		dataset_add(&ds, "hackbench", "ipi_tlb", "", 1, "other", true, 3);
	}
	dataset_sort(&ds);
	n = group_rows(&ds, ds.groups[0], dataset_variant(&ds, "baseline"), -1, rows);
	CHECK(n == 2 && !strcmp(ds.groups[0]->metric, "sys"));
	CHECK(rows[1].status == ROW_BELOW_RESOLUTION, "status %d", rows[1].status);
	CHECK(isnan(rows[1].head.slowdown_pct) && isnan(rows[1].head.ci95_low_pct));
	CHECK(group_row_problem(&rows[1]) && strstr(group_row_problem(&rows[1]),
						    "below the clock's resolution"));
	n = group_rows(&ds, ds.groups[1], dataset_variant(&ds, "baseline"), -1, rows);
	CHECK(n == 2 && rows[1].status == ROW_OK, "a count of 0: status %d", rows[1].status);
	dataset_free(&ds);
}

/* Every --format name has a renderer for both reports; the names are the ones the
 * documentation and scripts use. */
TEST(every_format_has_a_renderer)
{
	static const char *const names[] = { "text", "markdown", "csv", "json", "html", "mail", NULL };
	const enum report_format formats[] = { REPORT_TEXT, REPORT_MARKDOWN, REPORT_CSV, REPORT_JSON,
					       REPORT_HTML, REPORT_MAIL };

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		const struct report_renderer *r = report_renderer(formats[i]);
		CHECK(r && r->report && seeds_renderer(formats[i]), "format %zu", i);
		CHECK(report_format_names[formats[i]] && !strcmp(report_format_names[formats[i]], names[i]),
		      "format %zu: %s", i, report_format_names[formats[i]]);
	}
	CHECK(report_format_names[REPORT_NFORMATS] == NULL);
}

TEST_MAIN()
