/* test_vmalloc: one job per mode; the helper loads the module and prints the kernel log
 * lines of the load, which this parser reads:
 *   Summary: <test> passed: P failed: F repeat: R loops: L avg: N usec
 *   All test took worker<W>=<C> cycles
 * Each worker prints its Summary lines and then its "All test took" line, once per load
 * (the sequential mode loads the module once per test unless loads=one, the performance
 * mode too when a test of param prime runs; a primed test gets an untimed load first,
 * whose lines go to stderr). */
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "common/xalloc.h"
#include "workload/parser.h"

/* lib/test_vmalloc.c: this test fails by design on most kernels; record, do not fail. */
#define EXPECTED_TO_FAIL "align_shift_alloc_test"
#define TEST_NAME_MAX 64
#define MODULE_FILE "test_vmalloc.ko"
/* helper, --module M, --each-test MASK, --prime MASK, --repeat M=N, three params, NULL:
 * 13 at most */
#define ARGV_MAX 16
/* Worker numbers are below nr_threads (the threads parameter's maximum is 1024): a
 * higher one is not the module's, and refusing it keeps the per-worker index bounded. */
#define WORKERS_MAX 4096

/* The build's test_vmalloc.ko on the host (the guest sees the same path through the
 * host root), or NULL. */
static char *find_module(const char *dir)
{
	char *const roots[] = { (char *)dir, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	char *found = NULL;
	FTSENT *e;

	while (fts && !found && (e = fts_read(fts)))
		if (e->fts_info == FTS_F && !strcmp(e->fts_name, MODULE_FILE))
			found = xstrdup(e->fts_path);
	if (fts)
		fts_close(fts);
	return found;
}

/* With the kernel known, name its module explicitly and refuse a build without one now
 * rather than after a boot; otherwise the helper looks in the guest's /lib/modules. */
static int module_option(const struct kernel_image *k, char **module, char **why)
{
	char *dir, *found;

	*module = NULL;
	if (!k || !k->modules_root || !k->release)
		return 0;
	dir = xasprintf("%s/lib/modules/%s", k->modules_root, k->release);
	found = find_module(dir);
	if (!found)
		*why = xasprintf("build %s has no %s under %s (it needs CONFIG_TEST_VMALLOC=m)",
				 k->build ? k->build : "?", MODULE_FILE, dir);
	else /* the guest has the build's modules there, not at their host path */
		*module = xasprintf("/lib/modules/%s%s", k->release, found + strlen(dir));
	free(found);
	free(dir);
	return *module ? 0 : -1;
}

static void add_mode_job(const struct workload *w, struct workload_cell *cell,
			 const char *helper, const char *module, const char *mode)
{
	char loops[48], mask[48], threads[48], prime[48], repeat[48];
	const char *argv[ARGV_MAX] = { helper };
	size_t n = 1;

	bool performance = !strcmp(mode, "performance");
	long run_mask = workload_param_long(w, "run_test_mask", 0);
	long prime_mask = workload_param_long(w, "prime", 0) & run_mask;
	long short_mask = performance ? 0 : workload_param_long(w, "short_tests", 0) & run_mask;
	/* One worker has no one to line up with: the performance mode is one load, as the
	 * seed ran it, unless a primed test needs its untimed twin just before it. */
	bool per_test = !strcmp(workload_param(w, "loads"), "per_test") && (!performance || prime_mask);

	if (module) {
		argv[n++] = "--module";
		argv[n++] = module;
	}
	snprintf(loops, sizeof(loops), "test_loop_count=%s", workload_param(w, "test_loop_count"));
	snprintf(mask, sizeof(mask), "%s%s", per_test ? "" : "run_test_mask=",
		 workload_param(w, "run_test_mask"));
	if (per_test)
		argv[n++] = "--each-test";
	argv[n++] = mask;
	if (per_test && prime_mask) {
		snprintf(prime, sizeof(prime), "%ld", prime_mask);
		argv[n++] = "--prime";
		argv[n++] = prime;
	}
	if (per_test && short_mask) {
		snprintf(repeat, sizeof(repeat), "%ld=%ld", short_mask,
			 workload_param_long(w, "short_repeats", 1));
		argv[n++] = "--repeat";
		argv[n++] = repeat;
	}
	argv[n++] = "sequential_test_order=1";
	argv[n++] = loops;
	if (performance) {
		argv[n++] = "test_repeat_count=3";
	} else {
		snprintf(threads, sizeof(threads), "nr_threads=%ld",
			 workload_param_long(w, "threads", cell->target.cores));
		argv[n++] = threads;
	}
	if (n >= ARGV_MAX) /* add_mode_job's own arguments outgrew ARGV_MAX: a bug here */
		abort();
	workload_add_job(cell, w, mode, argv, NULL);
}

static int test_vmalloc_jobs(const struct workload *w, struct workload_cell *cell, char **why)
{
	char *helper = workload_helper_path(w, why), *module = NULL;
	char *modes, *save = NULL;

	if (!helper)
		return -1;
	if (module_option(cell->target.kernel, &module, why) < 0) {
		free(helper);
		return -1;
	}
	modes = xstrdup(workload_param(w, "modes"));
	for (char *m = strtok_r(modes, ",", &save); m; m = strtok_r(NULL, ",", &save))
		add_mode_job(w, cell, helper, module, m);
	free(modes);
	free(module);
	free(helper);
	return 0;
}

struct test_line {
	char name[TEST_NAME_MAX];
	int passed, failed;
	unsigned long long avg_usec;
};

struct worker_block {
	struct test_line *tests;
	size_t ntests;
	int worker;
	unsigned long long cycles;
};

struct parsed {
	char *ignored_param;    /* the module ignored a parameter: it ran with its defaults */
	struct worker_block *blocks;
	size_t nblocks;
	struct test_line *open; /* Summary lines not yet closed by an "All test took" line */
	size_t nopen;
	bool bad_worker_seen;   /* an "All test took" line named no worker we accept: */
	int bad_worker;         /* that number */
	size_t *block_of;       /* [worker]: 1 + its index in blocks, 0 when it has none */
};

/* %llu reads "-1" as 2^64-1: the number after marker must start with a digit. */
static bool unsigned_after(const char *s, const char *marker)
{
	const char *v = strstr(s, marker);

	if (!v)
		return false;
	v += strlen(marker);
	v += strspn(v, " ");
	return *v >= '0' && *v <= '9';
}

static bool parse_summary(const char *line, struct test_line *t)
{
	const char *s = strstr(line, "Summary: ");
	int repeat, loops;

	return s && sscanf(s, "Summary: %63s passed: %d failed: %d repeat: %d loops: %d avg: %llu usec",
			   t->name, &t->passed, &t->failed, &repeat, &loops, &t->avg_usec) == 6 &&
	       unsigned_after(s, " avg:");
}

static bool parse_took(const char *line, int *worker, unsigned long long *cycles)
{
	const char *s = strstr(line, "All test took worker");

	return s && sscanf(s, "All test took worker%d=%llu cycles", worker, cycles) == 2 &&
	       unsigned_after(s, "=");
}

/* The worker's block, made empty on its first "All test took" line. */
static struct worker_block *worker_block(struct parsed *p, int worker)
{
	if (!p->block_of)
		p->block_of = xcalloc(WORKERS_MAX, sizeof(*p->block_of));
	if (!p->block_of[worker]) {
		p->blocks = xrealloc(p->blocks, (p->nblocks + 1) * sizeof(*p->blocks));
		p->blocks[p->nblocks++] = (struct worker_block){ .worker = worker };
		p->block_of[worker] = p->nblocks;
	}
	return &p->blocks[p->block_of[worker] - 1];
}

/* An "All test took" line closes the worker's open Summary lines. With one load per test
 * (hb-test-vmalloc --each-test) a worker closes one block per load: its tests are joined
 * and its cycles summed, the same total as one load of all tests without the loads' setup. */
static void close_block(struct parsed *p, int worker, unsigned long long cycles)
{
	struct worker_block *blk;

	if (worker < 0 || worker >= WORKERS_MAX) {
		p->bad_worker_seen = true;
		p->bad_worker = worker;
		return;
	}
	blk = worker_block(p, worker);
	if (p->nopen) {
		blk->tests = xrealloc(blk->tests, (blk->ntests + p->nopen) * sizeof(*blk->tests));
		memcpy(blk->tests + blk->ntests, p->open, p->nopen * sizeof(*p->open));
		blk->ntests += p->nopen;
	}
	blk->cycles += cycles;
	free(p->open);
	p->open = NULL;
	p->nopen = 0;
}

static void read_lines(const char *out, struct parsed *p)
{
	const char *line = out;

	while (line && *line) {
		char buf[512];
		size_t len = strcspn(line, "\n");
		struct test_line t;
		int worker;
		unsigned long long cycles;

		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), line);
		if (strstr(buf, "test_vmalloc: unknown parameter") && !p->ignored_param) {
			p->ignored_param = xstrdup(strstr(buf, "unknown parameter"));
		} else if (parse_summary(buf, &t)) {
			p->open = xrealloc(p->open, (p->nopen + 1) * sizeof(*p->open));
			p->open[p->nopen++] = t;
		} else if (parse_took(buf, &worker, &cycles)) {
			close_block(p, worker, cycles);
		}
		line = line[len] ? line + len + 1 : NULL;
	}
}

static void free_parsed(struct parsed *p)
{
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i].tests);
	free(p->blocks);
	free(p->open);
	free(p->ignored_param);
	free(p->block_of);
}

/* Failed runs of a test are a failed job, except for the test that always fails. */
static char *check_blocks(const struct parsed *p)
{
	if (p->ignored_param)
		return xasprintf("the module says: %s (so it ran with other settings than asked)",
				 p->ignored_param);
	if (p->bad_worker_seen)
		return xasprintf("'All test took worker%d': not a worker number (0 to %d)", p->bad_worker,
				 WORKERS_MAX - 1);
	if (p->nopen)
		return xstrdup("Summary lines without the closing 'All test took' line (output cut?)");
	if (!p->nblocks)
		return xstrdup("no 'Summary:' or 'All test took' lines in the kernel log");
	for (size_t b = 0; b < p->nblocks; b++) {
		if (!p->blocks[b].ntests)
			return xasprintf("worker%d reported no tests", p->blocks[b].worker);
		for (size_t i = 0; i < p->blocks[b].ntests; i++) {
			const struct test_line *t = &p->blocks[b].tests[i];
			if (t->failed && strcmp(t->name, EXPECTED_TO_FAIL))
				return xasprintf("%s failed %d of %d runs (worker%d)", t->name, t->failed,
						 t->passed + t->failed, p->blocks[b].worker);
		}
	}
	return NULL;
}

static void emit_blocks(const struct parsed *p, metric_emit_fn emit, void *ctx)
{
	bool per_worker = p->nblocks > 1;
	char name[TEST_NAME_MAX + 32];

	for (size_t b = 0; b < p->nblocks; b++) {
		const struct worker_block *blk = &p->blocks[b];
		char prefix[32] = "";
		if (per_worker)
			snprintf(prefix, sizeof(prefix), "worker%d/", blk->worker);
		for (size_t i = 0; i < blk->ntests; i++) {
			snprintf(name, sizeof(name), "%s%s", prefix, blk->tests[i].name);
			emit(ctx, name, (double)blk->tests[i].avg_usec);
		}
		snprintf(name, sizeof(name), "%stotal_cycles", prefix);
		emit(ctx, name, (double)blk->cycles);
	}
}

static int test_vmalloc_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx,
			      char **why)
{
	struct parsed p = { 0 };

	(void)err;
	read_lines(out, &p);
	if ((*why = check_blocks(&p))) {
		free_parsed(&p);
		return -1;
	}
	emit_blocks(&p, emit, ctx);
	free_parsed(&p);
	return 0;
}

const struct workload_parser test_vmalloc_parser = {
	.name = "test_vmalloc",
	.jobs = test_vmalloc_jobs,
	.parse = test_vmalloc_parse,
};
