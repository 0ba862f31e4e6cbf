/* The local executor: builds the kernels, boots every pending cell here in plan order
 * (until --until-ci is met or a stop is asked), then reports. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/accel.h"
#include "boot/clock.h"
#include "boot/qemu_version.h"
#include "commands.h"
#include "common/argparse.h"
#include "common/json.h"
#include "common/log.h"
#include "common/tmpdir.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "executor/executor.h"
#include "plot/plot.h"
#include "report/report.h"
#include "results/provenance.h"
#include "results/store.h"
#include "run/profile.h"
#include "run/run.h"
#include "run/vcpus.h"
#include "run/stop_rule.h"
#include "workload/workload.h"

static bool has_samples(const char *dir)
{
	char *path = hb_path_join(dir, RS_SAMPLES_FILE);
	struct stat st;
	bool yes = stat(path, &st) == 0 && st.st_size > 0;
	free(path);
	return yes;
}

/* Where the estimate's seconds come from: this host's recorded pace (run/pace.h) for how
 * many of the cells, or workload.ini's figures alone. */
static void print_pace(FILE *out, const struct plan_estimate *pe)
{
	const size_t *matched = pe->matched;
	char buf[32];

	if (!pe->cells)
		return;
	if (!matched[PACE_KIND] && !matched[PACE_GROUP]) {
		fputs("pace: no earlier run of these cells on this host: workload.ini's seconds "
		      "(measured on the project's 2-core host; this host may be 40% faster or slower)\n", out);
		return;
	}
	fprintf(out, "pace: this host's latest runs (%s): %zu of %zu cells of the same kind, %zu of the "
		"same workload and params, %zu from workload.ini alone; %.2fx of workload.ini's "
		"%s\n", PACE_FILE, matched[PACE_KIND], pe->cells, matched[PACE_GROUP], matched[PACE_NONE],
		pe->reference_s > 0 ? pe->seconds / pe->reference_s : 1.0,
		hb_format_duration(pe->reference_s, buf, sizeof(buf)));
}

static void print_plan(const struct run *r, FILE *out)
{
	const struct plan *p = &r->plan;
	size_t pending = plan_count_pending(p), missing = run_kernels_missing(r);
	struct plan_estimate pe;
	double at_min = 0;
	char buf[32], bbuf[32], mbuf[32], shuffle[48] = "";

	estimate_plan(&r->est, p, 0, &pe);
	if (p->order == ORDER_INTERLEAVED && p->seed)
		snprintf(shuffle, sizeof(shuffle), " (shuffled: --seed %lu)", p->seed);
	if (p->keep) /* the main job: not a cross product */
		fprintf(out, "plan: the main job, each workload's seed cells (workload.ini default_variants, "
			"default_kernel, icount_cores, icount_params): %zu groups x %d boots",
			hb_strv_len(p->keep), p->boots);
	else
		fprintf(out, "plan: %zu kernel line%s x %zu variants x %zu workloads x %zu vCPU counts x %d boots",
			hb_strv_len(p->lines), hb_strv_len(p->lines) == 1 ? "" : "s", hb_strv_len(p->variants),
			r->nworkloads, p->ncores, p->boots);
	for (size_t i = 0; p->workload_boots && p->workload_boots[i]; i++) /* "hackbench=8" */
		fprintf(out, "%s%.*s %s", i ? ", " : " (", (int)strcspn(p->workload_boots[i], "="),
			p->workload_boots[i], strchr(p->workload_boots[i], '=') + 1);
	if (p->workload_boots && p->workload_boots[0])
		fputs(": workload.ini icount_boots)", out);
	fprintf(out, " = %zu cells, %d repetition%s each, %s order%s; guest memory %ldM\n", p->ncells,
		p->reps, p->reps == 1 ? "" : "s", p->order == ORDER_GROUPED ? "grouped" : "interleaved",
		shuffle, r->mem_mib);
	for (size_t i = 0; i < p->ncells; i++) {
		const struct plan_cell *c = &p->cells[i];
		int k = plan_cell_missing(p, c);
		double s = k ? estimate_cell_s(&r->est, c, k) : 0;
		at_min += c->boot < r->opts->boots ? s : 0;
		if (r->opts->dry_run)
			fprintf(out, "  %3zu  %-5s %-16s %-14s %3d vCPUs  boot %d  %s  ~%s\n", i + 1, c->line, c->variant,
				c->workload, c->cores, c->boot, k ? "to run" : "done  ",
				hb_format_duration(s, buf, sizeof(buf)));
	}
	if (r->opts->until_ci > 0)
		fprintf(out, "rounds: %d to %d (--until-ci %g: stops once every variant's cost on each "
			"workload's primary metric is known to +/- %g points); %s to %s of guest time\n",
			r->opts->boots, p->boots, r->opts->until_ci, r->opts->until_ci,
			hb_format_duration(at_min, mbuf, sizeof(mbuf)), hb_format_duration(pe.seconds, buf, sizeof(buf)));
	if (r->opts->dry_run && hb_strv_len(r->opts->params)) {
		char *params = hb_join_names(r->opts->params);
		fprintf(out, "params: %s\n", params);
		free(params);
	}
	if (r->opts->dry_run) { /* a real run says both once KVM is probed */
		fprintf(out, "accel: %s (%s)\n", r->accel == ACCEL_KVM ? "kvm" : "tcg", r->accel_reason);
		run_print_clocks(r, out);
		run_print_vcpus(r, out);
	}
	fprintf(out, "kernels: %zu (%zu to build, roughly %s each here)\n", r->nkernels, missing,
		hb_format_duration(estimate_kernel_build_s(r->opts->jobs ? r->opts->jobs : r->host_cores), bbuf, sizeof(bbuf)));
	print_pace(out, &pe);
	fprintf(out, "estimate: %zu cells to run, about %s of guest time%s%s\n", pending,
		hb_format_duration(pe.seconds, buf, sizeof(buf)), missing ? " plus the kernel builds" : "",
		r->accel == ACCEL_KVM ? "" : " (estimated for TCG; KVM is much faster)");
}

static int open_result_set(struct run *r, int argc, char **argv)
{
	if (r->opts->resume) {
		json_object *resumes, *entry = json_object_new_object();
		r->meta = rs_read_meta(r->dir);
		r->rs = rs_open_append(r->dir);
		if (!r->meta || !r->rs)
			return -1;
		if (!json_object_object_get_ex(r->meta, "resumes", &resumes)) {
			resumes = json_object_new_array();
			json_object_object_add(r->meta, "resumes", resumes);
		}
		json_object *fresh = run_meta_build(r, argc, argv);
		json_object_object_add(entry, "created", json_object_get(json_object_object_get(fresh, RS_META_CREATED)));
		json_object_object_add(entry, "command_line", json_object_get(json_object_object_get(fresh, RS_META_COMMAND)));
		json_object_array_add(resumes, entry);
		json_object_put(fresh);
		return rs_write_meta(r->rs, r->meta);
	}
	r->meta = run_meta_build(r, argc, argv);
	r->rs = rs_create(r->dir, r->meta);
	return r->rs ? 0 : -1;
}

/* A resumed run must count with the QEMU it started with (results/provenance.h). */
static int check_resumed_qemu(const struct run *r)
{
	json_object *now;
	char *why = NULL;
	int rc;

	if (!r->opts->resume)
		return 0;
	now = json_object_new_object();
	json_object_object_add(now, RS_META_CLOCK, json_object_get(hb_json_get(r->meta, RS_META_CLOCK)));
	json_object_object_add(now, RS_META_QEMU, qemu_provenance_json(r->accel == ACCEL_KVM ? "kvm" : "tcg", NULL));
	rc = rs_qemu_check(r->meta, now, "this run", "this host", &why);
	if (rc < 0)
		hb_error("%s: start a new run instead of resuming", why);
	else if (rc > 0)
		hb_warn("resume: %s", why);
	free(why);
	json_object_put(now);
	return rc < 0 ? -1 : 0;
}

/* A resumed run must measure with the kernels it started with. */
static int check_resumed_kernels(const struct run *r)
{
	json_object *e, *key;

	if (!r->opts->resume || !hb_json_get(r->meta, "kernels"))
		return 0;
	for (size_t k = 0; k < r->nkernels; k++) {
		json_object *of_line = rs_meta_line_kernels(r->meta, r->kernel_lines[k]);
		if (!of_line)
			continue;
		if (!json_object_object_get_ex(of_line, r->kernel_builds[k], &e) ||
		    !json_object_object_get_ex(e, "key", &key))
			continue;
		if (strcmp(json_object_get_string(key), r->kernels[k].key ? r->kernels[k].key : "")) {
			hb_error("kernel '%s' changed since this run started (cache key %.12s, now %.12s): "
				 "start a new run instead of resuming", r->kernel_builds[k],
				 json_object_get_string(key), r->kernels[k].key ? r->kernels[k].key : "?");
			return -1;
		}
	}
	return 0;
}

static bool stop_requested(void)
{
	sigset_t pending;
	sigpending(&pending);
	return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM);
}

static double remaining_estimate(const struct run *r, size_t from)
{
	struct plan_estimate pe;

	estimate_plan(&r->est, &r->plan, from, &pe);
	return pe.seconds;
}

/* --until-ci, before the first cell of round `round` (or after the last round, `last`):
 * are rounds 0..round-1 precise enough? Judged once per round, from the minimum (--boots)
 * on; meta.json "stop" keeps the latest verdict. */
static bool precise_enough(struct run *r, int round, bool last)
{
	struct stop_verdict v;
	char buf[64];

	if (r->opts->until_ci <= 0 || round < r->opts->boots || round <= r->rounds_judged)
		return false;
	r->rounds_judged = round;
	if (stop_rule_check(r, round, &v) < 0)
		return false;
	snprintf(buf, sizeof(buf), isnan(v.widest) ? "unknown" : "%.2f pp", v.widest);
	hb_info("--until-ci %g: after %d rounds the widest 95%% CI half-width is %s (%s)%s",
		r->opts->until_ci, round, buf, v.widest_what ? v.widest_what : "-",
		v.precise ? ": precise enough, stopping" : "");
	r->precise = v.precise;
	run_meta_set_stop(r, round, v.precise ? "every CI half-width within --until-ci"
			  : last ? "--max-boots reached before the precision" : "not yet precise",
			  v.widest, v.widest_what);
	stop_verdict_free(&v);
	return v.precise;
}

static int measure(struct run *r)
{
	struct progress pr;
	size_t total = plan_count_pending(&r->plan), done = 0;

	progress_start(&pr, "run", total);
	for (size_t i = 0; i < r->plan.ncells; i++) {
		struct plan_cell *c = &r->plan.cells[i];
		char label[160];

		if (!plan_cell_missing(&r->plan, c))
			continue;
		if (precise_enough(r, c->boot, false))
			break;
		if (stop_requested()) {
			r->interrupted = true;
			break;
		}
		/* With several kernel lines the variant alone does not say which kernel boots. */
		snprintf(label, sizeof(label), "%s%s%s %s %d vCPUs boot %d", r->plan.lines ? c->line : "",
			 r->plan.lines ? " " : "", c->variant, c->workload, c->cores, c->boot);
		progress_update(&pr, done, label, remaining_estimate(r, i));
		if (run_cell(r, c) != 0)
			break;
		done++;
		rs_write_meta(r->rs, r->meta);
		if (r->failures > r->opts->max_failures) {
			hb_error("%d cells failed (more than --max-failures %d): stopping", r->failures,
				 r->opts->max_failures);
			break;
		}
	}
	progress_update(&pr, done, "", 0);
	progress_finish(&pr);
	if (r->opts->until_ci > 0 && !r->precise && !r->interrupted &&
	    plan_count_pending(&r->plan) == 0)
		precise_enough(r, r->plan.boots, true);
	return 0;
}

static int finish(struct run *r)
{
	bool complete = plan_count_pending(&r->plan) == 0 || r->precise;

	run_meta_set_status(r, complete ? "complete" : "incomplete");
	if (!complete)
		fprintf(stderr, "harness: %s: %zu cells not measured%s; continue with: harness run --resume %s\n",
			r->dir, plan_count_pending(&r->plan), r->interrupted ? " (interrupted)" : "", r->dir);
	if (!r->opts->no_report && has_samples(r->dir)) {
		struct report_opts ro = { .format = REPORT_TEXT };
		report_run_dir(r->dir, &ro, stdout);
		plot_run_dir(r->dir, NULL, "both");
		report_write_html(r->dir); /* RUN/report.html: tables and charts on one page */
	}
	printf("result set: %s\n", r->dir);
	if (r->interrupted)
		return 130;
	return complete && r->failures == 0 ? HB_EXIT_OK : HB_EXIT_FAIL;
}

static int execute(struct run *r, int argc, char **argv)
{
	sigset_t stop;
	char *why;
	int rc;

	if (run_build_kernels(r) != 0)
		return HB_EXIT_FAIL;
	if ((rc = run_resolve_accel(r, true)) != 0)
		return rc < 0 ? HB_EXIT_FAIL : rc;
	if (r->opts->profile && run_profile_check(r, &why) != 0) /* the probe may say KVM now */
		return hb_usage_why(why);
	hb_info("accel: %s (%s)", r->accel == ACCEL_KVM ? "kvm" : "tcg", r->accel_reason ? r->accel_reason : "");
	run_print_clocks(r, stderr);
	run_print_vcpus(r, stderr);
	if (check_resumed_kernels(r) != 0 || check_resumed_qemu(r) != 0 || open_result_set(r, argc, argv) != 0)
		return HB_EXIT_FAIL;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL); /* checked between cells; boots read them from a signalfd */
	measure(r);
	estimator_save_pace(&r->est); /* the next estimate runs at this host's pace */
	return finish(r);
}

int local_run(struct run *r, int argc, char **argv)
{
	const struct run_opts *o = r->opts;
	int rc;

	if (!o->resume && has_samples(r->dir))
		return hb_usage("--out: %s already holds samples (accepted: a new or empty directory; "
				"or continue it with --resume)", r->dir);
	if (!o->dry_run && lock_run_dir(r) != 0)
		return HB_EXIT_FAIL;
	if (!o->dry_run)
		hb_clean_stale_vm_tmp(); /* what a killed harness left in hb_tmp_root() */
	if (o->resume && resume_load(r) != 0)
		return HB_EXIT_FAIL;
	print_plan(r, o->dry_run ? stdout : stderr);
	if (o->dry_run)
		return HB_EXIT_OK;
	rc = execute(r, argc, argv);
	rs_close(r->rs);
	return rc;
}
