/* meta.json of a run: the rs_meta_new() skeleton (version, time, command line, and the
 * host facts, which the run collects here so that results/ need not know hostinfo/) plus
 * how the guests ran (accel and why, overcommit), the kernels, the variants, the workload
 * parameters, and the plan that --resume rebuilds. Key names: results/store.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/qemu_version.h"
#include "common/paths.h"
#include "run/profile.h"
#include "results/jsonfmt.h"
#include "results/provenance.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "hostinfo/hostinfo.h"
#include "run/run.h"
#include "workload/workload.h"

static json_object *strv_json(char *const *v)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; v && v[i]; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

static json_object *plan_json(const struct run *r)
{
	json_object *p = json_object_new_object(), *cores = json_object_new_array();
	const struct plan *pl = &r->plan;

	for (size_t i = 0; i < pl->ncores; i++)
		json_object_array_add(cores, json_object_new_int((int)pl->cores[i]));
	json_object_object_add(p, "kernels", strv_json(pl->lines));
	json_object_object_add(p, "variants", strv_json(pl->variants));
	json_object_object_add(p, "workloads", strv_json(pl->workloads));
	if (pl->keep) /* the main job's groups: a resume plans the same cells */
		json_object_object_add(p, "keep", strv_json(pl->keep));
	json_object_object_add(p, "cores", cores);
	json_object_object_add(p, "reps", json_object_new_int(pl->reps));
	json_object_object_add(p, "boots", json_object_new_int(pl->boots));
	if (pl->workload_boots) /* the main job's own rounds of some workloads */
		json_object_object_add(p, "workload_boots", strv_json(pl->workload_boots));
	if (r->opts->until_ci > 0) { /* boots is then the most rounds; the rule adds them */
		json_object *u = json_object_new_object();
		json_object_object_add(u, "pct", json_object_new_double(r->opts->until_ci));
		json_object_object_add(u, "min_boots", json_object_new_int(r->opts->boots));
		json_object_object_add(u, "max_boots", json_object_new_int(pl->boots));
		json_object_object_add(p, "until_ci", u);
	}
	json_object_object_add(p, "order", json_object_new_string(pl->order == ORDER_GROUPED ? "grouped" : "interleaved"));
	json_object_object_add(p, "seed", json_object_new_int64((int64_t)pl->seed));
	json_object_object_add(p, "params", strv_json(r->opts->params));
	json_object_object_add(p, "mem_mib", json_object_new_int64(r->mem_mib));
	if (r->opts->profile) /* --resume profiles the rest too */
		json_object_object_add(p, "profile", json_object_new_boolean(1));
	json_object_object_add(p, "cells", json_object_new_int((int)pl->ncells));
	return p;
}

/* The kernels of one line, build -> entry. */
static json_object *kernels_json(const struct run *r, const char *line)
{
	json_object *k = json_object_new_object();

	for (size_t i = 0; i < r->nkernels; i++) {
		const struct kernel_image *ki = &r->kernels[i];
		json_object *e;

		if (strcmp(r->kernel_lines[i], line))
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "line", json_object_new_string(line));
		json_object_object_add(e, "release", json_object_new_string(ki->release ? ki->release : ""));
		json_object_object_add(e, "key", json_object_new_string(ki->key ? ki->key : ""));
		json_object_object_add(e, "image", json_object_new_string(ki->bzimage ? ki->bzimage : ""));
		json_object_object_add(k, r->kernel_builds[i], e);
	}
	return k;
}

/* line -> its kernels, for every line of the plan. */
static json_object *kernel_lines_json(const struct run *r)
{
	json_object *l = json_object_new_object();

	for (size_t i = 0; r->plan.lines && r->plan.lines[i]; i++)
		json_object_object_add(l, r->plan.lines[i], kernels_json(r, r->plan.lines[i]));
	return l;
}

static json_object *variants_json(const struct run *r)
{
	json_object *v = json_object_new_object();

	for (size_t i = 0; i < r->nvariants; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "build", json_object_new_string(r->variants[i].build));
		json_object_object_add(e, "cmdline", json_object_new_string(r->variants[i].cmdline));
		json_object_object_add(v, r->variants[i].name, e);
	}
	return v;
}

static json_object *workloads_json(const struct run *r)
{
	json_object *w = json_object_new_object();
	for (size_t i = 0; i < r->nworkloads; i++)
		json_object_object_add(w, r->workloads[i]->name, workload_params_json(r->workloads[i]));
	return w;
}

/* In a shard's meta.json: "shard": {"id", "of", "node", "job_id"}. */
static void shard_meta_note(const struct run *r, json_object *meta)
{
	json_object *s;
	char host[256] = "";
	const char *job = getenv("SLURM_JOB_ID");

	if (!r->opts->exec.shard_of)
		return;
	gethostname(host, sizeof(host) - 1);
	s = json_object_new_object();
	json_object_object_add(s, "id", json_object_new_string(r->opts->exec.shard));
	json_object_object_add(s, "of", json_object_new_string(r->opts->exec.shard_of));
	json_object_object_add(s, "node", json_object_new_string(host));
	if (job)
		json_object_object_add(s, "job_id", json_object_new_string(job));
	json_object_object_add(meta, "shard", s);
}

/* What the plan printed before the first boot: its seconds, workload.ini's alone, and the
 * cells this host's pace covered, so that a set shows how far its estimate was off. */
static json_object *estimate_json(const struct run *r)
{
	json_object *e = json_object_new_object();
	struct plan_estimate pe;

	estimate_plan(&r->est, &r->plan, 0, &pe);
	json_object_object_add(e, "seconds", json_object_new_double(pe.seconds));
	json_object_object_add(e, "workload_ini_seconds", json_object_new_double(pe.reference_s));
	json_object_object_add(e, "cells", json_object_new_int((int)pe.cells));
	json_object_object_add(e, "paced_cells", json_object_new_int((int)(pe.cells - pe.matched[PACE_NONE])));
	return e;
}

/* Which QEMU counted (gate, merge and --compare refuse icount sets of two) and the TCG
 * plugin every boot loads: --profile's (run/profile.c). */
static json_object *qemu_json(const struct run *r)
{
	char *plugins[2] = { NULL, NULL };
	json_object *q;

	if (r->opts->profile)
		plugins[0] = hb_path_join(hb_build_dir(), PROFILE_PLUGIN_RELPATH);
	q = qemu_provenance_json(r->accel == ACCEL_KVM ? "kvm" : "tcg", plugins);
	free(plugins[0]);
	return q;
}

json_object *run_meta_build(const struct run *r, int argc, char **argv)
{
	char **args = xcalloc((size_t)argc + 2, sizeof(char *));
	json_object *m;

	args[0] = "harness";
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	m = rs_meta_new(args, hostinfo_collect());
	free(args);
	json_object_object_add(m, RS_META_ACCEL, json_object_new_string(r->accel == ACCEL_KVM ? "kvm" : "tcg"));
	json_object_object_add(m, RS_META_ACCEL_REASON, json_object_new_string(r->accel_reason ? r->accel_reason : ""));
	json_object_object_add(m, RS_META_CLOCK, run_clocks_json(r));
	json_object_object_add(m, RS_META_QEMU, qemu_json(r));
	json_object_object_add(m, RS_META_OVERCOMMIT, json_object_new_boolean(r->opts->vm.overcommit));
	json_object_object_add(m, "pinning", json_object_new_boolean(r->opts->vm.pin));
	/* "kernels" is the first line's, keyed by build as before lines (report --against-seeds
	 * reads it); "kernels_by_line" has every line's. */
	json_object_object_add(m, "kernels", kernels_json(r, r->plan.lines[0]));
	json_object_object_add(m, "kernels_by_line", kernel_lines_json(r));
	json_object_object_add(m, "variants", variants_json(r));
	json_object_object_add(m, "workloads", workloads_json(r));
	json_object_object_add(m, "plan", plan_json(r));
	json_object_object_add(m, "estimate", estimate_json(r));
	if (r->adhoc.record && json_object_object_length(r->adhoc.record))
		json_object_object_add(m, "own_change", json_object_get(r->adhoc.record));
	json_object_object_add(m, "status", json_object_new_string("running"));
	shard_meta_note(r, m);
	return m;
}

void run_meta_set_status(struct run *r, const char *status)
{
	char buf[64];

	json_object_object_add(r->meta, "status", json_object_new_string(status));
	json_object_object_add(r->meta, "failed_cells", json_object_new_int(r->failures));
	json_object_object_add(r->meta, "pending_cells", json_object_new_int((int)plan_count_pending(&r->plan)));
	json_object_object_add(r->meta, "finished", json_object_new_string(rs_meta_time_now(buf, sizeof(buf))));
	rs_write_meta(r->rs, r->meta);
}

/* The host's 1-minute load average as each boot ends, for the report's conditions (a list
 * reply states the load its numbers were measured under): readings, mean and max. */
static void note_host_load(struct run *r)
{
	json_object *load = NULL, *v;
	FILE *f = fopen("/proc/loadavg", "re");
	double now, mean = 0, max = 0;
	int n = 0;

	if (!f)
		return;
	if (fscanf(f, "%lf", &now) != 1) {
		fclose(f);
		return;
	}
	fclose(f);
	if (json_object_object_get_ex(r->meta, "host_load", &load) && json_object_is_type(load, json_type_object)) {
		n = json_object_object_get_ex(load, "readings", &v) ? json_object_get_int(v) : 0;
		mean = json_object_object_get_ex(load, "mean", &v) ? json_object_get_double(v) : 0;
		max = json_object_object_get_ex(load, "max", &v) ? json_object_get_double(v) : 0;
	}
	load = json_object_new_object();
	json_object_object_add(load, "what", json_object_new_string(
		"the host's 1-minute load average as each boot ended (the guests' own QEMU included)"));
	json_object_object_add(load, "readings", json_object_new_int(n + 1));
	json_object_object_add(load, "mean", json_object_new_double((mean * n + now) / (n + 1)));
	json_object_object_add(load, "max", json_object_new_double(now > max ? now : max));
	json_object_object_add(r->meta, "host_load", load);
}

/* Counted, and said at once: such a boot's timings hold the other guest's load. */
static void note_shared_cores(struct run *r)
{
	json_object *v = NULL;
	int n = json_object_object_get_ex(r->meta, RS_META_SHARED_CORES, &v) ? json_object_get_int(v) : 0;

	json_object_object_add(r->meta, RS_META_SHARED_CORES, json_object_new_int(n + 1));
	hb_warn("this boot's vCPUs shared cores with another hardbench guest (every core was "
		"claimed): its timings hold that guest's load");
}

void run_meta_note_boot(struct run *r, const struct vm_result *res, int cores)
{
	json_object *maps = NULL;
	char key[16];

	note_host_load(r);
	if (res->shared_cores)
		note_shared_cores(r);

	if (res->machine)
		json_object_object_add(r->meta, "machine", json_object_new_string(res->machine));
	if (res->rootfs)
		json_object_object_add(r->meta, "rootfs", json_object_new_string(res->rootfs));
	if (!res->pin_map)
		return;
	if (!json_object_object_get_ex(r->meta, "pin_maps", &maps)) {
		maps = json_object_new_object();
		json_object_object_add(r->meta, "pin_maps", maps);
	}
	snprintf(key, sizeof(key), "%d", cores);
	if (!json_object_object_get_ex(maps, key, NULL))
		json_object_object_add(maps, key, json_object_get(res->pin_map));
}

void run_meta_note_gap(struct run *r, const char *cell, const char *gap)
{
	json_object *gaps = NULL;

	if (!json_object_object_get_ex(r->meta, "metric_gaps", &gaps)) {
		gaps = json_object_new_object();
		json_object_object_add(r->meta, "metric_gaps", gaps);
	}
	json_object_object_add(gaps, cell, json_object_new_string(gap));
}

void run_meta_set_stop(struct run *r, int rounds, const char *reason, double widest,
		       const char *widest_what)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "rounds", json_object_new_int(rounds));
	json_object_object_add(o, "reason", json_object_new_string(reason));
	json_object_object_add(o, "widest_halfwidth_pp", hb_json_double(widest));
	json_object_object_add(o, "widest", widest_what ? json_object_new_string(widest_what) : NULL);
	json_object_object_add(r->meta, "stop", o);
	if (r->rs)
		rs_write_meta(r->rs, r->meta);
}
