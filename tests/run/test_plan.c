/* The run planner (run/plan.c) and the default vCPU counts (run/matrix.c): interleaved
 * rounds, the seeded shuffle, grouped order, cell keys and lookups, and which of the
 * seeds' core counts fit a host. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "run/matrix.h"
#include "run/plan.h"

static char **strv(const char *const *names)
{
	size_t n = 0;
	char **v;

	while (names[n])
		n++;
	v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(names[i]);
	return v;
}

/* 4 variants x 2 workloads x {2, 6} vCPUs x boots; the plan owns the lists. */
static void make_plan(struct plan *p, enum plan_order order, unsigned long seed, int boots, int reps)
{
	static const char *const variants[] = { "v0", "v1", "v2", "v3", NULL };
	static const char *const workloads[] = { "w0", "w1", NULL };
	long *cores = xcalloc(2, sizeof(long));

	cores[0] = 2;
	cores[1] = 6;
	*p = (struct plan){ .variants = strv(variants), .workloads = strv(workloads), .cores = cores,
			    .ncores = 2, .boots = boots, .reps = reps, .order = order, .seed = seed };
	plan_build(p);
}

static int variant_index(const struct plan *p, const char *v)
{
	for (int i = 0; p->variants[i]; i++)
		if (!strcmp(p->variants[i], v))
			return i;
	return -1;
}

/* Cells [first, first + nv) share workload, cores and boot, and hold every variant once. */
static void check_round(int *failures, const struct plan *p, size_t first, size_t nv)
{
	bool seen[8] = { false };
	const struct plan_cell *c0 = &p->cells[first];

	for (size_t i = first; i < first + nv; i++) {
		const struct plan_cell *c = &p->cells[i];
		int v = variant_index(p, c->variant);
		CHECK(v >= 0 && !seen[v], "cell %zu: variant %s twice in its round", i, c->variant);
		if (v >= 0)
			seen[v] = true;
		CHECK(!strcmp(c->workload, c0->workload) && c->cores == c0->cores && c->boot == c0->boot,
		      "cell %zu leaves its round", i);
	}
}

/* Every (workload, cores, boot) is one round of all variants; boots outermost, then
 * vCPU counts, then workloads; no seed keeps the variants in the order given. */
TEST(interleaved_rounds_hold_every_variant_once)
{
	struct plan p;
	const size_t nv = 4;

	make_plan(&p, ORDER_INTERLEAVED, 0, 3, 2);
	CHECK(p.ncells == 4 * 2 * 2 * 3, "ncells %zu", p.ncells);
	for (size_t r = 0; r * nv < p.ncells; r++) {
		const struct plan_cell *c = &p.cells[r * nv];
		check_round(failures, &p, r * nv, nv);
		CHECK(c->boot == (int)(r / 4), "round %zu: boot %d", r, c->boot);
		CHECK(c->cores == (r / 2 % 2 ? 6 : 2), "round %zu: cores %d", r, c->cores);
		CHECK_STR(c->workload, r % 2 ? "w1" : "w0");
		for (size_t i = 0; i < nv; i++)
			CHECK_STR(p.cells[r * nv + i].variant, p.variants[i]);
	}
	plan_free(&p);
}

/* boots x reps: one cell per boot, each with reps repetitions still to measure. */
TEST(boots_times_reps)
{
	struct plan p;

	make_plan(&p, ORDER_INTERLEAVED, 0, 5, 3);
	CHECK(p.ncells == 4 * 2 * 2 * 5, "ncells %zu", p.ncells);
	for (size_t i = 0; i < p.ncells; i++)
		CHECK(plan_cell_missing(&p, &p.cells[i]) == 3, "cell %zu", i);
	CHECK(plan_count_pending(&p) == p.ncells);
	plan_free(&p);
}

static char *order_of(const struct plan *p)
{
	size_t len = 0;
	char *s = xcalloc(p->ncells * 3 + 1, 1);

	for (size_t i = 0; i < p->ncells; i++)
		len += (size_t)sprintf(s + len, "%s,", p->cells[i].variant + 1);
	return s;
}

/* A seed shuffles within each round only: rounds stay whole and in place. */
TEST(seeded_shuffle_keeps_rounds)
{
	struct plan p, plain;

	make_plan(&p, ORDER_INTERLEAVED, 42, 3, 1);
	make_plan(&plain, ORDER_INTERLEAVED, 0, 3, 1);
	CHECK(p.ncells == plain.ncells);
	for (size_t r = 0; r * 4 < p.ncells; r++) {
		check_round(failures, &p, r * 4, 4);
		CHECK_STR(p.cells[r * 4].workload, plain.cells[r * 4].workload);
		CHECK(p.cells[r * 4].cores == plain.cells[r * 4].cores);
		CHECK(p.cells[r * 4].boot == plain.cells[r * 4].boot);
	}
	plan_free(&p);
	plan_free(&plain);
}

/* Same seed, same order (a run can be repeated); another seed, another order; a seed
 * changes the order at all (24 rounds of 4 variants never all come out unshuffled). */
TEST(seed_repeats_and_varies_order)
{
	struct plan a, b, c, none;
	char *sa, *sb, *sc, *sn;

	make_plan(&a, ORDER_INTERLEAVED, 7, 6, 1);
	make_plan(&b, ORDER_INTERLEAVED, 7, 6, 1);
	make_plan(&c, ORDER_INTERLEAVED, 8, 6, 1);
	make_plan(&none, ORDER_INTERLEAVED, 0, 6, 1);
	sa = order_of(&a);
	sb = order_of(&b);
	sc = order_of(&c);
	sn = order_of(&none);
	CHECK_STR(sa, sb);
	CHECK(strcmp(sa, sc) != 0, "seeds 7 and 8 gave the same order %s", sa);
	CHECK(strcmp(sa, sn) != 0, "seed 7 did not shuffle: %s", sa);
	free(sa);
	free(sb);
	free(sc);
	free(sn);
	plan_free(&a);
	plan_free(&b);
	plan_free(&c);
	plan_free(&none);
}

/* workload_boots: w1 runs 5 rounds, w0 the plan's 2; every round still holds every
 * variant, w1's last rounds come after w0's, in both orders. */
TEST(workload_boots_give_a_workload_its_own_rounds)
{
	static const char *const wb[] = { "w1=5", NULL };
	enum plan_order orders[] = { ORDER_INTERLEAVED, ORDER_GROUPED };

	for (size_t o = 0; o < 2; o++) {
		struct plan p;
		size_t n[2] = { 0 };
		int last_w0 = -1;

		{
			static const char *const variants[] = { "v0", "v1", "v2", "v3", NULL };
			static const char *const workloads[] = { "w0", "w1", NULL };
			long *cores = xcalloc(1, sizeof(long));
			cores[0] = 2;
			p = (struct plan){ .variants = strv(variants), .workloads = strv(workloads),
					   .cores = cores, .ncores = 1, .boots = 2, .workload_boots = strv(wb),
					   .reps = 1, .order = orders[o], .seed = 3 };
		}
		plan_build(&p);
		CHECK(plan_workload_boots(&p, "w0") == 2 && plan_workload_boots(&p, "w1") == 5);
		CHECK(plan_max_boots(&p) == 5, "max %d", plan_max_boots(&p));
		CHECK(p.ncells == 4 * 2 + 4 * 5, "ncells %zu, want 4 x 2 + 4 x 5", p.ncells);
		for (size_t i = 0; i < p.ncells; i++) {
			const struct plan_cell *c = &p.cells[i];
			bool w1 = !strcmp(c->workload, "w1");
			n[w1]++;
			CHECK(c->boot < (w1 ? 5 : 2), "cell %zu: %s boot %d", i, c->workload, c->boot);
			if (!w1)
				last_w0 = c->boot;
		}
		CHECK(n[0] == 8 && n[1] == 20, "w0 %zu cells, w1 %zu", n[0], n[1]);
		CHECK(last_w0 == 1);
		if (orders[o] == ORDER_INTERLEAVED)
			for (size_t r = 0; r * 4 < p.ncells; r++)
				check_round(failures, &p, r * 4, 4);
		plan_free(&p);
	}
}

/* A resumed meta.json's workload_boots: each item WORKLOAD=N of the plan's workloads,
 * N from 1 to 1000, a workload once; the first bad item is named. */
TEST(bad_workload_boots_are_named)
{
	static const char *const workloads[] = { "hackbench", "kbuild", NULL };
	static const char *const good[] = { "hackbench=8", "kbuild=1000", NULL };
	static const char *const bad[][3] = {
		{ "hackbench=0", NULL }, { "hackbench=1001", NULL }, { "hackbench=8x", NULL },
		{ "hackbench=", NULL }, { "hackbench", NULL }, { "vmaops=3", NULL },
		{ "hackbench=3", "hackbench=4", NULL }, { "hack=3", NULL },
	};
	char **w = strv(workloads), **g = strv(good);

	CHECK(plan_bad_workload_boots(NULL, w) == NULL);
	CHECK(plan_bad_workload_boots(g, w) == NULL, "good list refused: %s", plan_bad_workload_boots(g, w));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char **b = strv(bad[i]);
		const char *got = plan_bad_workload_boots(b, w);
		CHECK(got != NULL, "case %zu (%s) accepted", i, bad[i][0]);
		if (got)
			CHECK_STR(got, bad[i][bad[i][1] ? 1 : 0]);
		hb_free_strv(b);
	}
	hb_free_strv(w);
	hb_free_strv(g);
}

/* Grouped: all cells of a variant together, the seed ignored. */
TEST(grouped_order)
{
	struct plan p;

	make_plan(&p, ORDER_GROUPED, 99, 2, 1);
	CHECK(p.ncells == 4 * 2 * 2 * 2, "ncells %zu", p.ncells);
	for (size_t i = 0; i < p.ncells; i++) {
		const struct plan_cell *c = &p.cells[i];
		CHECK_STR(c->variant, p.variants[i / 8]);
		CHECK_STR(c->workload, i / 4 % 2 ? "w1" : "w0");
		CHECK(c->cores == (i / 2 % 2 ? 6 : 2), "cell %zu: cores %d", i, c->cores);
		CHECK(c->boot == (int)(i % 2), "cell %zu: boot %d", i, c->boot);
	}
	plan_free(&p);
}

/* plan.keep (the main job's groups): only the cells of the listed (line, variant,
 * workload, cores) groups, every boot of each, rounds still interleaved. */
TEST(keep_holds_only_listed_groups)
{
	static const char *const keep[] = { "6.1:v0/w0/2", "6.1:v1/w0/2", "6.1:v3/w1/6", NULL };
	struct plan p;
	size_t per_group[3] = { 0 };

	{
		static const char *const variants[] = { "v0", "v1", "v2", "v3", NULL };
		static const char *const workloads[] = { "w0", "w1", NULL };
		long *cores = xcalloc(2, sizeof(long));
		cores[0] = 2;
		cores[1] = 6;
		p = (struct plan){ .variants = strv(variants), .workloads = strv(workloads),
				   .cores = cores, .ncores = 2, .boots = 3, .reps = 1,
				   .order = ORDER_INTERLEAVED, .seed = 5, .keep = strv(keep) };
	}
	plan_build(&p);
	CHECK(p.ncells == 3 * 3, "ncells %zu, want 3 groups x 3 boots", p.ncells);
	for (size_t i = 0; i < p.ncells; i++) {
		const struct plan_cell *c = &p.cells[i];
		char *g = plan_group_key(c->line, c->variant, c->workload, c->cores);
		bool listed = false;
		for (size_t k = 0; keep[k]; k++)
			if (!strcmp(g, keep[k])) {
				per_group[k]++;
				listed = true;
			}
		CHECK(listed, "cell %zu is %s, not a kept group", i, g);
		CHECK(c->boot == (int)(i / 3), "cell %zu: boot %d (rounds in boot order)", i, c->boot);
		free(g);
	}
	for (size_t k = 0; keep[k]; k++)
		CHECK(per_group[k] == 3, "group %s: %zu cells, want one per boot", keep[k], per_group[k]);
	plan_free(&p);
}

/* The journal's cell identity and the lookup resume uses. */
TEST(cell_key_and_find)
{
	struct plan p;
	struct plan_cell *c;
	char *key;

	make_plan(&p, ORDER_INTERLEAVED, 3, 2, 1);
	key = plan_cell_key(&p.cells[5]);
	CHECK(plan_find_cell(&p, key) == &p.cells[5], "key %s", key);
	free(key);
	c = plan_find_cell(&p, "v2/w1/6/1");
	CHECK(c && !strcmp(c->variant, "v2") && !strcmp(c->workload, "w1") && c->cores == 6 && c->boot == 1);
	CHECK(plan_find_cell(&p, "v2/w1/6/2") == NULL);
	CHECK(plan_find_cell(&p, "v9/w1/6/0") == NULL);
	CHECK(plan_find_cell(&p, "v2/w1/6") == NULL);
	plan_free(&p);
}

/* Missing repetitions per cell and pending cells follow rep_done. */
TEST(missing_and_pending)
{
	struct plan p;

	make_plan(&p, ORDER_INTERLEAVED, 0, 1, 3);
	p.cells[0].rep_done[1] = true;
	CHECK(plan_cell_missing(&p, &p.cells[0]) == 2);
	CHECK(plan_count_pending(&p) == p.ncells);
	for (int r = 0; r < 3; r++)
		p.cells[1].rep_done[r] = true;
	CHECK(plan_cell_missing(&p, &p.cells[1]) == 0);
	CHECK(plan_count_pending(&p) == p.ncells - 1);
	plan_free(&p);
}

static void check_cores(int *failures, int host, const char *want)
{
	size_t n = 0, len = 0;
	long *c = matrix_default_cores(host, &n);
	char got[64] = "";

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%ld", i ? "," : "", c[i]);
	CHECK(!strcmp(got, want), "host of %d cores: got %s, want %s", host, got, want);
	free(c);
}

/* The seeds' sweep {2,6,12,24} cut to what fits; a host below 2 cores uses what it has. */
/* make_plan's lists on the given kernel lines, interleaved. */
static void make_lines_plan(struct plan *p, const char *const *lines, unsigned long seed)
{
	make_plan(p, ORDER_INTERLEAVED, seed, 2, 1);
	for (size_t i = 0; i < p->ncells; i++)
		free(p->cells[i].rep_done);
	free(p->cells);
	p->lines = strv(lines);
	plan_build(p);
}

/* Lines x variants: every (line, variant) once per round; the line in each cell; the
 * default line keeps the key of plans from before lines; a one-line plan orders its
 * cells as a plan without lines did (a recorded --seed repeats). */
TEST(plan_with_lines)
{
	static const char *const lines[] = { "6.1", "6.12", NULL }, *const one[] = { "6.1", NULL };
	struct plan p, old;
	size_t n612 = 0;

	make_plan(&old, ORDER_INTERLEAVED, 7, 2, 1);
	make_lines_plan(&p, lines, 7);
	CHECK(p.ncells == 2 * old.ncells);
	for (size_t round = 0; round < p.ncells / 8; round++) {
		bool seen[2][4] = { { false } };
		for (size_t i = round * 8; i < round * 8 + 8; i++) {
			const struct plan_cell *c = &p.cells[i];
			int l = !strcmp(c->line, "6.12"), v = variant_index(&p, c->variant);
			CHECK(v >= 0 && !seen[l][v]);
			seen[l][v] = true;
			CHECK(!strcmp(c->workload, p.cells[round * 8].workload) && c->boot == p.cells[round * 8].boot);
			n612 += l;
		}
	}
	CHECK(n612 == old.ncells);
	for (size_t i = 0; i < p.ncells; i++) {
		char *k = plan_cell_key(&p.cells[i]);
		bool other = !strcmp(p.cells[i].line, "6.12");
		CHECK(other ? !strncmp(k, "6.12:", 5) : !strchr(k, ':'));
		CHECK(plan_find_cell(&p, k) == &p.cells[i]);
		free(k);
	}
	plan_free(&p);
	/* No lines: the default line; one line: the same order as no lines. */
	make_lines_plan(&p, one, 7);
	for (size_t i = 0; i < old.ncells; i++) {
		char *k = plan_cell_key(&old.cells[i]);
		CHECK(!strcmp(old.cells[i].line, "6.1") && !strchr(k, ':'));
		CHECK(!strcmp(old.cells[i].variant, p.cells[i].variant) &&
		      !strcmp(old.cells[i].workload, p.cells[i].workload));
		free(k);
	}
	plan_free(&p);
	plan_free(&old);
}

TEST(default_cores_filtered_to_host)
{
	check_cores(failures, 1, "1");
	check_cores(failures, 2, "2");
	check_cores(failures, 5, "2");
	check_cores(failures, 6, "2,6");
	check_cores(failures, 23, "2,6,12");
	check_cores(failures, 24, "2,6,12,24");
	check_cores(failures, 128, "2,6,12,24");
}

/* The project's kernel-configs: the main job runs the measured variants, never the debug
 * ones (default_set = no), and baseline first. */
TEST(default_variants_leave_out_debug_builds)
{
	char **v = matrix_default_variants();
	bool xpfo = false, debug = false;

	CHECK(v && v[0] && !strcmp(v[0], "baseline"), "first default variant: %s", v && v[0] ? v[0] : "none");
	for (size_t i = 0; v && v[i]; i++) {
		xpfo |= !strcmp(v[i], "xpfo");
		debug |= strstr(v[i], "-debug") != NULL;
	}
	CHECK(xpfo, "xpfo is not in the default set");
	CHECK(!debug, "a debug variant is in the default set");
	hb_free_strv(v);
}

TEST_MAIN()
