/* The shard planner of the Slurm executor (executor/slurm/shard.c) at the scale of a lab: 8 variants
 * x 5 workloads x 4 vCPU counts x 10 rounds for 100 nodes. Checks the shard count, that
 * each shard is exactly one round (so no paired comparison spans two nodes), that every
 * cell is in exactly one shard, that the round's shuffled order is kept, that each job
 * asks for one whole node without requeue, and the time to plan. No Slurm needed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "run/plan.h"
#include "executor/slurm/shard.h"
#include "executor/slurm/slurm_jobs.h"

enum { NV = 8, NW = 5, NC = 4, NB = 10, NODES = 100 };

static char **names(const char *prefix, int n)
{
	char **v = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++)
		v[i] = xasprintf("%s%d", prefix, i);
	return v;
}

static void lab_plan(struct plan *p, enum plan_order order)
{
	long *cores = xcalloc(NC, sizeof(long));
	for (int i = 0; i < NC; i++)
		cores[i] = 2L << i;
	*p = (struct plan){ .variants = names("variant", NV), .workloads = names("workload", NW), .cores = cores,
			    .ncores = NC, .boots = NB, .reps = 1, .order = order, .seed = order == ORDER_INTERLEAVED };
	plan_build(p);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Every shard one round: same workload, cores, boot; each variant once. */
static void check_rounds(int *failures, const struct plan *p, const struct shard_plan *sp)
{
	int *owner = xcalloc(p->ncells, sizeof(int));

	for (size_t s = 0; s < sp->n; s++) {
		const struct shard *sh = &sp->shards[s];
		CHECK(sh->ncells == NV, "shard %s holds %zu cells, want %d", sh->id, sh->ncells, NV);
		for (size_t i = 0; i < sh->ncells; i++) {
			const struct plan_cell *c = &p->cells[sh->cells[i]];
			owner[sh->cells[i]]++;
			CHECK(!strcmp(c->workload, sh->workload) && c->cores == sh->cores && c->boot == sh->boot,
			      "shard %s holds a cell of another round", sh->id);
			for (size_t j = 0; j < i; j++)
				CHECK(strcmp(c->variant, p->cells[sh->cells[j]].variant), "shard %s: %s twice",
				      sh->id, c->variant);
			/* plan order inside the shard: the round's shuffled order */
			CHECK(i == 0 || sh->cells[i] > sh->cells[i - 1], "shard %s reorders its round", sh->id);
		}
	}
	for (size_t i = 0; i < p->ncells; i++)
		CHECK(owner[i] == 1, "cell %zu is in %d shards", i, owner[i]);
	free(owner);
}

TEST(lab_matrix_interleaved)
{
	struct plan p;
	struct shard_plan sp;
	double t0, t1;

	t0 = now();
	lab_plan(&p, ORDER_INTERLEAVED);
	shard_plan_build(&p, &sp);
	t1 = now();
	CHECK(p.ncells == NV * NW * NC * NB, "%zu cells", p.ncells);
	CHECK(sp.n == NW * NC * NB, "%zu shards, want %d (one per workload, vCPU count and round)", sp.n,
	      NW * NC * NB);
	check_rounds(failures, &p, &sp);
	CHECK(shard_find(&sp, "workload3-c8-b7") != NULL, "shard ids name workload, cores and round");
	printf("# %zu cells -> %zu shards in %.2f ms (plan + shards); on %d nodes: %zu waves of "
	       "--exclusive jobs\n", p.ncells, sp.n, (t1 - t0) * 1e3, NODES, (sp.n + NODES - 1) / NODES);
	CHECK(t1 - t0 < 1.0, "planning took %.3f s", t1 - t0);
	shard_plan_free(&sp);
	plan_free(&p);
}

TEST(lab_matrix_grouped)
{
	struct plan p;
	struct shard_plan sp;

	lab_plan(&p, ORDER_GROUPED);
	shard_plan_build(&p, &sp);
	CHECK(sp.n == NW * NC * NB, "grouped order: %zu shards", sp.n);
	check_rounds(failures, &p, &sp);
	shard_plan_free(&sp);
	plan_free(&p);
}

static bool has(char *const *v, const char *s)
{
	for (size_t i = 0; v[i]; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* One node per job, the whole node, never requeued; absolute paths; user args kept as words. */
/* Two kernel lines: a shard is still one round, now of every (line, variant): 2 x NV
 * cells, none dropped, so a 6.12 variant runs on the node of its own line's baseline. */
TEST(two_kernel_lines)
{
	struct plan p;
	struct shard_plan sp;
	int *owner;

	lab_plan(&p, ORDER_INTERLEAVED);
	for (size_t i = 0; i < p.ncells; i++)
		free(p.cells[i].rep_done);
	free(p.cells);
	p.lines = xcalloc(3, sizeof(char *));
	p.lines[0] = xstrdup("6.1");
	p.lines[1] = xstrdup("6.12");
	plan_build(&p);
	shard_plan_build(&p, &sp);
	CHECK(p.ncells == 2 * NV * NW * NC * NB, "%zu cells", p.ncells);
	CHECK(sp.n == NW * NC * NB, "%zu shards", sp.n);
	owner = xcalloc(p.ncells, sizeof(int));
	for (size_t s = 0; s < sp.n; s++) {
		size_t n612 = 0;
		CHECK(sp.shards[s].ncells == 2 * NV, "shard %s holds %zu cells", sp.shards[s].id,
		      sp.shards[s].ncells);
		for (size_t i = 0; i < sp.shards[s].ncells; i++) {
			owner[sp.shards[s].cells[i]]++;
			n612 += !strcmp(p.cells[sp.shards[s].cells[i]].line, "6.12");
		}
		CHECK(n612 == NV, "shard %s: %zu cells of 6.12", sp.shards[s].id, n612);
	}
	for (size_t i = 0; i < p.ncells; i++)
		CHECK(owner[i] == 1, "cell %zu is in %d shards", i, owner[i]);
	free(owner);
	shard_plan_free(&sp);
	plan_free(&p);
}

TEST(sbatch_command_line)
{
	char *opts[] = { "--time=1:00:00", "--constraint=a b", NULL };
	char *args[] = { "--variants", "baseline,init_on_alloc", NULL };
	struct sbatch_spec s = { .run_dir = "/shared/r1", .cwd = "/shared", .script = "/shared/r1/shards/job.sh",
				 .partition = "bench", .slurm_opts = opts, .harness = "/opt/hb/harness",
				 .run_args = args };
	char **v = sbatch_argv(&s, "hugetlb-c1-b0"), *line;

	CHECK_STR(v[0], "sbatch");
	CHECK(has(v, "--parsable") && has(v, "--no-requeue") && has(v, "--exclusive") && has(v, "--nodes=1"),
	      "sbatch flags");
	CHECK(has(v, "--output=/shared/r1/shards/hugetlb-c1-b0.log") && has(v, "--chdir=/shared"),
	      "absolute output and working directory");
	CHECK(has(v, "--partition=bench") && has(v, "--constraint=a b"), "partition and --slurm-opt");
	CHECK(has(v, "--shard-of=/shared/r1") && has(v, "--shard=hugetlb-c1-b0") && has(v, "--executor=local"),
	      "the job runs its shard locally");
	line = argv_display(v);
	CHECK_HAS(line, "'--constraint=a b'");
	free(line);
	hb_free_strv(v);
}

/* sbatch expands "%j" and the like in --output: a '%' in the run folder is doubled (its
 * escape), unless a backslash already makes sbatch take the name literally. */
TEST(sbatch_output_escapes_percent)
{
	char *none[] = { NULL };
	struct sbatch_spec s = { .run_dir = "/shared/r%j", .cwd = "/shared", .script = "/s.sh",
				 .slurm_opts = none, .harness = "/hb", .run_args = none };
	char **v = sbatch_argv(&s, "c1");

	CHECK(has(v, "--output=/shared/r%%j/shards/c1.log"), "the %% is doubled");
	hb_free_strv(v);
	s.run_dir = "/shared/a\\b%j";
	v = sbatch_argv(&s, "c1");
	CHECK(has(v, "--output=/shared/a\\b%j/shards/c1.log"), "a backslash: kept literally");
	hb_free_strv(v);
}

TEST_MAIN()
