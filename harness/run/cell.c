/* One cell of the plan: one guest boot running the workload's jobs for the repetitions
 * still missing. A repetition's samples are appended only when every job of that
 * repetition produced them, so a set never holds half a repetition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "configs/kline.h"
#include "run/journal.h"
#include "run/profile.h"
#include "run/model_cell.h"
#include "run/run.h"
#include "workload/cell.h"

struct sample_buf {
	struct sample *items;
	size_t n, cap;
	int rep;              /* the plan's repetition index written into each sample */
	char *gap;            /* the first metric a good repetition had no sample of, and why */
	/* --clock model: the plugin's sections of the boot, and this repetition's record for
	 * model.jsonl; NULL under the other clocks. */
	const struct model_log *model;
	json_object *model_record;
};

static int collect_sample(const struct sample *s, void *ctx)
{
	struct sample_buf *b = ctx;
	struct sample *d;

	b->items = xgrow(b->items, &b->cap, b->n + 1, sizeof(*b->items));
	d = &b->items[b->n++];
	*d = *s;
	d->variant = xstrdup(s->variant);
	d->workload = xstrdup(s->workload);
	d->metric = xstrdup(s->metric);
	d->unit = xstrdup(s->unit ? s->unit : "");
	d->rep = b->rep;
	return 0;
}

static void sample_buf_clear(struct sample_buf *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free((char *)b->items[i].variant);
		free((char *)b->items[i].workload);
		free((char *)b->items[i].metric);
		free((char *)b->items[i].unit);
	}
	b->n = 0;
}

/* Samples of repetition i (index within this boot) from every job; NULL or a reason. */
static char *gather_rep(const struct workload *w, const struct workload_cell *wc,
			const struct vm_result *res, const struct sample *base, int i,
			struct sample_buf *buf)
{
	for (size_t job = 0; job < wc->njobs; job++) {
		const struct job_rep_result *jr = NULL;
		char *why = NULL;

		for (size_t k = 0; k < res->nreps && !jr; k++)
			if (res->reps[k].job == (int)job && res->reps[k].rep == i)
				jr = &res->reps[k];
		if (!jr)
			return xasprintf("job %zu repetition %d: no result (%s)", job, i,
					 res->error ? res->error : "the guest stopped before it");
		size_t first = buf->n;
		if (workload_rep_samples(w, wc, jr, base, collect_sample, buf, &why) != 0 ||
		    (buf->model && model_cell_price(w, buf->model, (int)job * wc->target.reps + i,
						    buf->items + first, buf->n - first,
						    buf->model_record, &why) != 0)) {
			char *r = xasprintf("job %zu repetition %d: %s", job, i, why ? why : "failed");
			free(why);
			return r;
		}
		if (!buf->gap)
			buf->gap = workload_rep_gaps(w, jr);
	}
	return NULL;
}

/* A fresh folder per attempt (a boot-hang retry or a --resume): "-try2", "-try3", ... so the
 * logs of the attempt that failed stay next to the one that worked. */
static char *cell_log_dir(const struct run *r, const struct plan_cell *c)
{
	for (int attempt = 1;; attempt++) {
		bool other = !hb_is_default_line(c->line); /* default line: names as before */
		char *d = xasprintf("%s/logs/%s%s%s-%s-c%d-b%d%s%.0d", r->dir, other ? c->line : "",
				    other ? "-" : "", c->variant, c->workload, c->cores, c->boot,
				    attempt > 1 ? "-try" : "", attempt > 1 ? attempt : 0);
		if (!hb_is_dir(d)) {
			hb_mkdir_p(d, 0755);
			return d;
		}
		free(d);
	}
}

static struct vm_opts cell_vm_opts(const struct run *r, const struct plan_cell *c,
				   const struct workload_cell *wc, const char *log_dir, int reps)
{
	struct vm_opts o = { .accel_reason = r->accel_reason, .round = c->boot, .log_dir = log_dir,
			     .prealloc = true, .disks = (const char *const *)wc->disks };
	struct vm_cli cli = r->opts->vm;

	cli.cores = NULL; /* the plan owns the --cores list; a cell has its own count */
	cli.ncores = 0;
	vm_cli_apply(&cli, &o); /* machine, rootfs, entry, pin, overcommit, timeout */
	o.clock = run_clock_of(r, c->workload); /* --clock auto answers per workload */
	o.cores = c->cores;
	o.mem_mib = r->mem_mib; /* raised to what the workloads need */
	o.accel = r->accel;     /* resolved before the first boot */
	if (o.timeout_s <= 0)   /* generous: four times the estimate, at least ten minutes */
		o.timeout_s = 600 + 4 * estimate_cell_s(&r->est, c, reps);
	o.shares = (const char *const *)wc->shares; /* --share and the workload's */
	return o;
}

/* Appends the samples of every complete repetition; fills done[] and returns the first
 * reason a repetition failed (or NULL). -1 in *write_failed when the set cannot be written. */
static char *append_reps(struct run *r, const struct plan_cell *c, const struct workload_cell *wc,
			 const struct vm_result *res, const struct cell_profile *prof,
			 const int *missing, int k, int *done, int *ndone, bool *write_failed)
{
	const struct workload *w = run_workload(r, c->workload);
	struct sample base = { .variant = c->variant, .kernel_line = c->line, .cores = c->cores, .boot = c->boot,
			       .clock = guest_clock_name(run_clock_of(r, c->workload)) };
	struct sample_buf buf = { 0 };
	char *first_reason = NULL, *prof_why = NULL;
	struct model_log log = { 0 };
	char *model_why = NULL;

	if (run_clock_of(r, c->workload) == CLOCK_MODEL) {
		if (model_cell_load(res->log_dir, &log, &model_why) < 0)
			first_reason = model_why; /* no repetition can be priced */
		else
			buf.model = &log;
	}
	for (int i = 0; i < k && !*write_failed && !model_why; i++) {
		char *why;
		buf.rep = missing[i];
		buf.model_record = buf.model ? plan_cell_rep_json(c, missing[i]) : NULL;
		why = gather_rep(w, wc, res, &base, i, &buf);
		for (size_t s = 0; !why && s < buf.n; s++)
			if (rs_append(r->rs, &buf.items[s]) != 0)
				*write_failed = true;
		if (!why && !*write_failed && buf.model_record &&
		    model_cell_record(r->dir, buf.model_record) != 0)
			*write_failed = true;
		json_object_put(buf.model_record);
		if (!why && !*write_failed)
			done[(*ndone)++] = missing[i];
		if (!why && !*write_failed && prof && !prof_why) /* --profile: its sections */
			cell_profile_rep(r, c, prof, res, i, missing[i], buf.items, buf.n, &prof_why);
		if (why && !first_reason)
			first_reason = why;
		else
			free(why);
		sample_buf_clear(&buf);
	}
	if (prof_why) { /* the samples stand; the profile of the rest of the cell does not */
		hb_warn("%s/%s boot %d: --profile: %s", c->variant, c->workload, c->boot, prof_why);
		free(prof_why);
	}
	if (buf.gap) { /* the set has the rest; say once per cell what it lacks */
		char *key = plan_cell_key(c);
		hb_warn("%s: %s", key, buf.gap);
		run_meta_note_gap(r, key, buf.gap);
		free(key);
		free(buf.gap);
	}
	free(buf.items);
	model_log_free(&log);
	return first_reason;
}

/* A guest that never says hello (a rare early-boot hang seen under heavy host load, with
 * nothing on the console) measured nothing: boot it once more before calling the cell
 * failed. Any later failure is the variant's or the workload's and is not retried. */
static bool hung_in_boot(const struct vm_result *res)
{
	return res->status == VM_ERR_TIMEOUT && res->phase && !strcmp(res->phase, "boot");
}

static void boot_cell(struct run *r, const struct plan_cell *c, const struct run_variant *v,
		      const struct workload_cell *wc, int k, char **log_dir, struct vm_result *res)
{
	for (int attempt = 0;; attempt++) {
		struct vm_opts o = cell_vm_opts(r, c, wc, *log_dir, k);
		struct profile_vm prof = { 0 };
		if (r->opts->profile) /* the plugin, and hbprofile=1 for the init */
			run_profile_vm(r, v, v->cmdline, *log_dir, &o, &prof);
		vm_run(v->kernel, prof.cmdline ? prof.cmdline : v->cmdline, wc->jobs, wc->njobs, &o, res);
		run_profile_vm_free(&prof);
		if (attempt > 0 || !hung_in_boot(res))
			return;
		hb_warn("%s/%s: the guest hung before its init started (%s); booting it once more",
			c->variant, c->workload, res->error ? res->error : "no detail");
		vm_result_free(res);
		*res = (struct vm_result){ 0 };
		free(*log_dir);
		*log_dir = cell_log_dir(r, c);
	}
}

/* -1 when the journal cannot record the cell (journal_append said why): the run stops, as
 * a resume would otherwise measure the cell again. */
static int journal_cell(struct run *r, const char *key, bool ok, const int *done, int ndone,
			double secs, double cpu, const char *reason, const char *console)
{
	struct journal_entry e = { .cell = key, .ok = ok, .reps_done = done, .nreps_done = (size_t)ndone,
				   .seconds = secs, .cpu_seconds = cpu, .reason = ok ? NULL : reason,
				   .console_log = console };

	if (journal_append(r->dir, &e) == 0)
		return 0;
	hb_error("stopping: the journal of %s cannot record cell %s", r->dir, key);
	return -1;
}

int run_cell(struct run *r, struct plan_cell *c)
{
	const struct workload *w = run_workload(r, c->workload);
	const struct run_variant *v = run_variant(r, c->line, c->variant);
	int *missing = xcalloc((size_t)r->plan.reps, sizeof(int));
	int *done = xcalloc((size_t)r->plan.reps, sizeof(int));
	int k = 0, ndone = 0;
	char *key = plan_cell_key(c), *log_dir = cell_log_dir(r, c), *reason = NULL;
	struct workload_cell wc;
	struct vm_result res = { 0 };
	bool write_failed = false, ok;
	double t0 = hb_now(), cpu0 = hb_children_cpu_s(), secs, booted = 0;

	struct workload_target target = { .cores = c->cores, .mem_mib = r->mem_mib,
					  .prepare = true, .kernel = v->kernel };

	for (int rep = 0; rep < r->plan.reps; rep++)
		if (!c->rep_done[rep])
			missing[k++] = rep;
	target.reps = k;
	if (workload_cell_init_target(w, &target, &wc) != 0) {
		reason = xasprintf("%s: preparing the workload failed", key);
	} else {
		for (char **p = r->opts->vm.shares; p && *p; p++) /* --share */
			workload_add_share(&wc, *p);
		double tb = hb_now(); /* after the workload's one-time preparation (cached) */

		struct cell_profile *prof = NULL;
		char *prof_why = NULL;

		boot_cell(r, c, v, &wc, k, &log_dir, &res);
		run_meta_note_boot(r, &res, c->cores);
		if (r->opts->profile && !(prof = cell_profile_read(log_dir, &prof_why))) {
			hb_warn("%s/%s boot %d: --profile: %s", c->variant, c->workload, c->boot, prof_why);
			free(prof_why);
		}
		reason = append_reps(r, c, &wc, &res, prof, missing, k, done, &ndone, &write_failed);
		cell_profile_free(prof);
		booted = hb_now() - tb;
		if (res.status != VM_OK && res.error) {
			free(reason);
			reason = xstrdup(res.error);
		}
		workload_cell_free(&wc);
	}
	secs = hb_now() - t0;
	for (int i = 0; i < ndone; i++)
		c->rep_done[done[i]] = true;
	ok = ndone == k && !write_failed;
	if (journal_cell(r, key, ok, done, ndone, secs, hb_children_cpu_s() - cpu0, reason,
			 res.console_log) < 0)
		write_failed = true;
	if (ok)
		estimator_observe(&r->est, c, k, secs, booted);
	else
		r->failures++;
	if (!ok)
		hb_error("%s failed after %.1fs: %s", key, secs, reason ? reason : "unknown reason");
	r->interrupted = r->interrupted || res.status == VM_ERR_INTERRUPTED;
	vm_result_free(&res);
	free(reason);
	free(key);
	free(log_dir);
	free(missing);
	free(done);
	return write_failed || r->interrupted ? -1 : 0;
}
