#include "fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "workload/parser.h"

static char *first_arg(int argc, char **argv, const char *what)
{
	if (argc < 2)
		hb_fatal("usage: %s %s", argv[0], what);
	return argv[1];
}

const char *fixture_dir(int argc, char **argv)
{
	return first_arg(argc, argv, "TESTDATA_DIR");
}

char *fixture_helper(int argc, char **argv)
{
	return first_arg(argc, argv, "HELPER");
}

char *fixture_read(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = hb_read_file(path, NULL);

	if (!text)
		hb_fatal("test data %s is missing", path);
	free(path);
	return text;
}

char *fixture_first_lines(const char *dir, const char *name, int n)
{
	char *text = fixture_read(dir, name), *p = text;

	while (n-- > 0 && (p = strchr(p, '\n')))
		p++;
	if (p)
		*p = '\0';
	return text;
}

static int sink(const struct sample *s, void *ctx)
{
	struct got *g = ctx;
	struct got_sample *o;

	if (g->n >= GOT_MAX)
		return 1;
	o = &g->s[g->n++];
	snprintf(o->workload, sizeof(o->workload), "%s", s->workload);
	snprintf(o->metric, sizeof(o->metric), "%s", s->metric);
	snprintf(o->unit, sizeof(o->unit), "%s", s->unit);
	snprintf(o->variant, sizeof(o->variant), "%s", s->variant);
	o->value = s->value;
	o->lower_is_better = s->lower_is_better;
	o->rep = s->rep;
	o->cores = s->cores;
	o->boot = s->boot;
	return 0;
}

void fixture_run(const struct fake_rep *f, struct got *g)
{
	struct workload *w = workload_require(f->workload, &(char *){ NULL });
	struct workload_cell cell = { .target = { .cores = 2, .mem_mib = 2048, .reps = 3 } };
	const char *argv[] = { "/some/where/prog", NULL };
	struct sample base = { .variant = "baseline", .cores = 2, .boot = 1, .rep = -1 };
	struct job_rep_result r = {
		.job = 0, .rep = 2, .exit_code = f->exit_code, .term_signal = f->term_signal,
		.wall_s = FAKE_WALL, .user_s = FAKE_USER, .sys_s = FAKE_SYS,
		.guest_user_s = FAKE_GUEST_USER, .guest_sys_s = FAKE_GUEST_SYS,
	};
	struct irq_count irq[] = {
		{ .label = "CAL", .delta = FAKE_IRQ_CAL },
		{ .label = "TLB", .delta = f->no_tlb_row ? 0 : FAKE_IRQ_TLB,
		  .missing = f->no_tlb_row ? FAKE_NO_TLB_ROW : NULL },
	};

	memset(g, 0, sizeof(*g));
	if (!w)
		hb_fatal("workload %s does not load", f->workload);
	workload_add_job(&cell, w, f->section, argv, NULL);
	if (f->out_text)
		r.out = xstrdup(f->out_text);
	else
		r.out = f->out_file ? fixture_read(f->dir, f->out_file) : xstrdup("");
	r.err = f->err_file ? fixture_read(f->dir, f->err_file) : xstrdup("");
	r.out_len = strlen(r.out);
	r.err_len = strlen(r.err);
	r.irq = irq;
	r.nirq = 2;
	g->ret = workload_rep_samples(w, &cell, &r, &base, sink, g, &g->why);
	g->gaps = g->ret == 0 ? workload_rep_gaps(w, &r) : NULL;
	free(r.out);
	free(r.err);
	workload_cell_free(&cell);
	workload_free(w);
}

void got_free(struct got *g)
{
	free(g->why);
	g->why = NULL;
	free(g->gaps);
	g->gaps = NULL;
}

const struct got_sample *got_find(const struct got *g, const char *metric)
{
	for (int i = 0; i < g->n; i++)
		if (!strcmp(g->s[i].metric, metric))
			return &g->s[i];
	return NULL;
}

void fixture_check_sample(int *failures, const char *file, int line, const struct got *g,
			  const char *metric, const char *unit, double value)
{
	const struct got_sample *s = got_find(g, metric);

	if (!s) {
		check_failed_at(failures, file, line, metric);
		fprintf(stderr, ": no such sample\n");
		return;
	}
	if (strcmp(s->unit, unit)) {
		check_failed_at(failures, file, line, metric);
		fprintf(stderr, ": unit %s, want %s\n", s->unit, unit);
	}
	if (!s->lower_is_better) {
		check_failed_at(failures, file, line, metric);
		fprintf(stderr, ": should be lower-is-better\n");
	}
	check_near(failures, file, line, metric, s->value, value, 1e-9 * fabs(value) + 1e-12);
}

/* Exit status and (the start of) stderr of argv. */
static int run_err(char *const argv[], char **err)
{
	char path[] = "/tmp/hb-test-helper.XXXXXX";
	int fd = mkstemp(path), status;
	struct spawn_opts so = { .stderr_path = path, .stdout_path = "/dev/null", .stdin_null = true };
	char buf[1024] = "";
	FILE *f;

	close(fd);
	status = hb_run(argv, &so);
	if ((f = fopen(path, "r"))) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	*err = xstrdup(buf);
	unlink(path);
	return status;
}

void fixture_check_refuses(int *failures, const char *file, int line, char *const argv[],
			   const char *part)
{
	char *err;
	int status = run_err(argv, &err);

	if (status != 2) {
		check_failed_at(failures, file, line, argv[0]);
		fprintf(stderr, " %s: exit %d, want 2\n", argv[1] ? argv[1] : "", status);
	}
	check_has(failures, file, line, "stderr", err, part);
	free(err);
}
