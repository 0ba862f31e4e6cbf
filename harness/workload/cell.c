/* One cell's guest side: the workload's jobs callback fills it through these helpers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "workload/internal.h"

static char **copy_strv(const char *const *v)
{
	size_t n = 0;
	char **out;

	if (!v)
		return NULL;
	while (v[n])
		n++;
	out = xcalloc(n + 1, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

static void append_str(char ***list, const char *s)
{
	size_t n = hb_strv_len(*list);

	*list = xrealloc(*list, (n + 2) * sizeof(**list));
	(*list)[n] = xstrdup(s);
	(*list)[n + 1] = NULL;
}

/* The rows the workload's irq.LABEL metrics count, each once, or NULL: the guest reads
 * /proc/interrupts only for jobs that ask. */
static char **irq_labels(const struct workload *w)
{
	char **labels = NULL;

	for (size_t i = 0; i < w->nmetrics; i++)
		if (w->metrics[i].source == METRIC_IRQ && !hb_strv_contains(labels, w->metrics[i].irq_label))
			append_str(&labels, w->metrics[i].irq_label);
	return labels;
}

void workload_add_job(struct workload_cell *cell, const struct workload *w, const char *section,
		      const char *const argv[], const char *const env[])
{
	size_t n = cell->njobs;

	if (section && !hb_strv_contains(w->sections, section)) /* its parser's bug */
		hb_fatal("workload %s: job section '%s' is not in its %s sections", w->name, section,
			 WORKLOAD_INI);
	cell->jobs = xrealloc(cell->jobs, (n + 1) * sizeof(*cell->jobs));
	cell->job_workload = xrealloc(cell->job_workload, (n + 2) * sizeof(*cell->job_workload));
	cell->jobs[n] = (struct guest_job){
		.argv = copy_strv(argv),
		.env = copy_strv(env),
		.cwd = NULL,
		.reps = cell->target.reps,
		.irq = irq_labels(w),
	};
	cell->job_workload[n] = section ? xasprintf("%s-%s", w->name, section) : xstrdup(w->name);
	cell->job_workload[n + 1] = NULL;
	cell->njobs = n + 1;
}

void workload_add_disk(struct workload_cell *cell, const char *path)
{
	append_str(&cell->disks, path);
}

void workload_add_share(struct workload_cell *cell, const char *path)
{
	append_str(&cell->shares, path);
}

void workload_add_note(struct workload_cell *cell, const char *note)
{
	append_str(&cell->notes, note);
}

void workload_need_mem(struct workload_cell *cell, long mib)
{
	if (mib > cell->min_mem_mib)
		cell->min_mem_mib = mib;
}

char *workload_helper_path(const struct workload *w, char **why)
{
	char *path;

	if (!w->helper) {
		*why = xasprintf("workload %s has no helper in its %s", w->name, WORKLOAD_INI);
		return NULL;
	}
	path = xasprintf("%s/workloads/%s/%s", hb_build_dir(), w->name, w->helper);
	if (path[0] != '/' || access(path, X_OK) != 0) {
		*why = xasprintf("the guest helper %s is not built (expected %s): run ninja -C %s",
				 w->helper, path, hb_build_dir());
		free(path);
		return NULL;
	}
	return path;
}

int workload_cell_init_target(const struct workload *w, const struct workload_target *t,
			      struct workload_cell *cell)
{
	char *why = NULL;

	*cell = (struct workload_cell){
		.target = *t,
		.disks = xcalloc(1, sizeof(char *)),
		.shares = xcalloc(1, sizeof(char *)),
		.notes = xcalloc(1, sizeof(char *)),
	};
	if (t->cores < 1 || t->reps < 1 || !w->parser || !w->parser->jobs) {
		hb_error("workload %s: cannot plan jobs (cores %d, reps %d%s)", w->name, t->cores,
			 t->reps, w->parser ? "" : ", no parser");
		workload_cell_free(cell);
		return -1;
	}
	int rc = w->parser->jobs(w, cell, &why);
	if (rc < 0 || !cell->njobs) {
		if (rc == WORKLOAD_BAD_PARAM)
			hb_usage("%s", why); /* one line, as for any other bad --param */
		else
			hb_error("workload %s: %s", w->name, why ? why : "its jobs callback added no job");
		free(why);
		workload_cell_free(cell);
		return rc < 0 ? rc : -1;
	}
	return 0;
}

int workload_cell_init(const struct workload *w, int cores, long mem_mib, int reps, bool prepare,
		       struct workload_cell *cell)
{
	struct workload_target t = { .cores = cores, .mem_mib = mem_mib, .reps = reps, .prepare = prepare };
	return workload_cell_init_target(w, &t, cell);
}

void workload_cell_free(struct workload_cell *cell)
{
	for (size_t i = 0; i < cell->njobs; i++) {
		hb_free_strv(cell->jobs[i].argv);
		hb_free_strv(cell->jobs[i].env);
		hb_free_strv(cell->jobs[i].irq);
	}
	free(cell->jobs);
	hb_free_strv(cell->job_workload);
	hb_free_strv(cell->disks);
	hb_free_strv(cell->shares);
	hb_free_strv(cell->notes);
	*cell = (struct workload_cell){ 0 };
}
