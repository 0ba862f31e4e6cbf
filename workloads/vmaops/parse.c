/* vmaops: the helper prints one row per (operation, VMA count):
 *   mprotect 8 calls 1000 ns_per_call 6755.0 ns_per_vma 844.4 [cycles_per_call 9978]
 * and "# ..." notes (no mseal on this kernel, no cycle counter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "workload/parser.h"

#define OP_NAME_MAX 16

static const char *const required_ops[] = { "mprotect", "munmap", "madvise" };
static const char *const known_ops[] = { "mprotect", "munmap", "madvise", "mseal" };
static const int spans[] = { 1, 2, 4, 8, 16, 32 };
#define NSPANS (sizeof(spans) / sizeof(spans[0]))
#define NREQUIRED (sizeof(required_ops) / sizeof(required_ops[0]))

static int vmaops_jobs(const struct workload *w, struct workload_cell *cell, char **why)
{
	char *helper = workload_helper_path(w, why);
	const char *argv[10] = { helper, "--iterations", workload_param(w, "iterations"), "--passes",
				 workload_param(w, "passes"), "--settle-ms", workload_param(w, "settle_ms") };
	size_t n = 7;

	if (!helper)
		return -1;
	if (!strcmp(workload_param(w, "touch"), "yes"))
		argv[n++] = "--touch";
	if (!strcmp(workload_param(w, "layout"), "fixed"))
		argv[n++] = "--fixed-layout";
	workload_add_job(cell, w, NULL, argv, NULL);
	free(helper);
	return 0;
}

struct row {
	char op[OP_NAME_MAX];
	int vmas;
	long calls;
	double ns_call, ns_vma, cycles;
	bool has_cycles;
};

static bool known(const char *op)
{
	for (size_t i = 0; i < sizeof(known_ops) / sizeof(known_ops[0]); i++)
		if (!strcmp(op, known_ops[i]))
			return true;
	return false;
}

static bool parse_row(const char *line, struct row *r)
{
	int used = 0;

	if (sscanf(line, "%15s %d calls %ld ns_per_call %lf ns_per_vma %lf%n", r->op, &r->vmas,
		   &r->calls, &r->ns_call, &r->ns_vma, &used) != 5)
		return false;
	r->has_cycles = sscanf(line + used, " cycles_per_call %lf", &r->cycles) == 1;
	return known(r->op) && r->vmas > 0 && r->calls > 0 && r->ns_call >= 0 && r->ns_vma >= 0;
}

static void emit_row(const struct row *r, metric_emit_fn emit, void *ctx)
{
	char name[OP_NAME_MAX + 32];

	snprintf(name, sizeof(name), "%s/%d", r->op, r->vmas);
	emit(ctx, name, r->ns_call);
	snprintf(name, sizeof(name), "%s/%d/per_vma", r->op, r->vmas);
	emit(ctx, name, r->ns_vma);
	if (r->has_cycles) {
		snprintf(name, sizeof(name), "%s/%d/cycles", r->op, r->vmas);
		emit(ctx, name, r->cycles);
	}
}

/* Index of a required (op, span) pair in the seen[] table, or -1. */
static int required_index(const struct row *r)
{
	for (size_t o = 0; o < NREQUIRED; o++)
		for (size_t s = 0; s < NSPANS; s++)
			if (!strcmp(r->op, required_ops[o]) && r->vmas == spans[s])
				return (int)(o * NSPANS + s);
	return -1;
}

static char *read_rows(const char *out, struct row **rows, size_t *n)
{
	bool seen[NREQUIRED * NSPANS] = { false };

	for (const char *line = out; line && *line;) {
		size_t len = strcspn(line, "\n");
		char buf[256];
		struct row r;
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), line);
		line = line[len] ? line + len + 1 : NULL;
		if (!buf[0] || buf[0] == '#')
			continue;
		if (!parse_row(buf, &r))
			return xasprintf("unexpected line '%s'", buf);
		int idx = required_index(&r);
		if (idx >= 0)
			seen[idx] = true;
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		(*rows)[(*n)++] = r;
	}
	for (size_t i = 0; i < NREQUIRED * NSPANS; i++)
		if (!seen[i])
			return xasprintf("no row for %s over %d VMAs", required_ops[i / NSPANS], spans[i % NSPANS]);
	return NULL;
}

static int vmaops_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx, char **why)
{
	struct row *rows = NULL;
	size_t n = 0;

	(void)err;
	if ((*why = read_rows(out, &rows, &n))) {
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		emit_row(&rows[i], emit, ctx);
	free(rows);
	return 0;
}

const struct workload_parser vmaops_parser = {
	.name = "vmaops",
	.jobs = vmaops_jobs,
	.parse = vmaops_parse,
};
