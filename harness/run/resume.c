/* --resume: the plan comes back from meta.json, the journal says which repetitions were
 * measured, and samples.jsonl is pruned of repetitions the journal does not confirm. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "boot/clock.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "run/journal.h"
#include "run/run.h"
#include "workload/workload.h"

char **strv_from_json(json_object *a)
{
	size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	char **v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(json_object_get_string(json_object_array_get_idx(a, i)));
	return v;
}

/* meta.json, or NULL with a one-line *why: a damaged file (a torn write, an edit) is
 * named as such, rather than the folder called "not a result set". */
static json_object *read_meta(const char *dir, char **why)
{
	char *path = hb_path_join(dir, RS_META_FILE);
	json_object *meta = hb_is_file(path) ? hb_json_from_file_nofollow(path) : NULL;

	if (!json_object_is_type(meta, json_type_object)) {
		*why = hb_is_file(path)
			? xasprintf("--resume: %s is damaged (not a JSON object), so the plan cannot be "
				    "read; nothing was changed (restore it, or start a new run)", path)
			: xasprintf("--resume: '%s' is not a result set of 'harness run' (no %s)", dir,
				    RS_META_FILE);
		json_object_put(meta);
		meta = NULL;
	}
	free(path);
	return meta;
}

static const char *plan_option_given(const struct run_opts *o)
{
	const char *given = o->lines ? "--kernels" : o->variants ? "--variants" : o->workloads ? "--workloads" : o->vm.cores ? "--cores"
		: o->reps_given ? "--reps" : o->boots_given ? "--boots" : o->params[0] ? "--param" : o->order_given ? "--order"
		: o->seed_given ? "--seed" : o->vm.mem_mib ? "--mem" : o->out ? "--out"
		: o->profile ? "--profile" : o->until_ci ? "--until-ci" : o->max_boots_given ? "--max-boots" : o->vm.clock_given ? "--clock"
		: NULL;
	return given;
}

int resume_read_plan(const char *dir, struct run_opts *o, char **why)
{
	const char *given = plan_option_given(o);
	json_object *meta, *plan, *v;
	const char *bad;

	if (given) {
		*why = xasprintf("%s: not accepted with --resume (the plan comes from the result set's "
				 "meta.json)", given);
		return -1;
	}
	if (!(meta = read_meta(dir, why)))
		return -1;
	plan = hb_json_get(meta, "plan");
	if (!plan) {
		json_object_put(meta);
		*why = xasprintf("--resume: '%s' is not a result set of 'harness run' (no meta.json "
				 "with a plan)", dir);
		return -1;
	}
	/* Sets from before lines have no "kernels": their plan was the default line alone. */
	o->lines = hb_json_get(plan, "kernels") ? strv_from_json(hb_json_get(plan, "kernels")) : NULL;
	o->variants = strv_from_json(hb_json_get(plan, "variants"));
	o->workloads = strv_from_json(hb_json_get(plan, "workloads"));
	o->keep = hb_json_get(plan, "keep") ? strv_from_json(hb_json_get(plan, "keep")) : NULL;
	o->workload_boots = hb_json_get(plan, "workload_boots")
		? strv_from_json(hb_json_get(plan, "workload_boots")) : NULL;
	hb_free_strv(o->params);
	o->params = strv_from_json(hb_json_get(plan, "params"));
	v = hb_json_get(plan, "cores");
	o->vm.ncores = v ? json_object_array_length(v) : 0;
	o->vm.cores = xcalloc(o->vm.ncores + 1, sizeof(long));
	for (size_t i = 0; i < o->vm.ncores; i++)
		o->vm.cores[i] = json_object_get_int(json_object_array_get_idx(v, i));
	o->reps = json_object_get_int(hb_json_get(plan, "reps"));
	o->boots = json_object_get_int(hb_json_get(plan, "boots"));
	if ((v = hb_json_get(plan, "until_ci"))) { /* the same stop rule goes on */
		o->until_ci = json_object_get_double(hb_json_get(v, "pct"));
		o->max_boots = o->boots;
		o->boots = json_object_get_int(hb_json_get(v, "min_boots"));
	}
	/* The clock as asked (auto resolves again, from the same accel); sets from before
	 * auto name only the one clock they ran under; none: the host clock. */
	o->vm.clock = CLOCK_HOST;
	if ((v = hb_json_get(meta, RS_META_CLOCK))) {
		enum guest_clock c;
		json_object *asked = hb_json_get(v, "asked");
		if (guest_clock_parse(json_object_get_string(asked ? asked : hb_json_get(v, "name")), &c) == 0)
			o->vm.clock = c;
	}
	o->order = !strcmp(json_object_get_string(hb_json_get(plan, "order")) ?: "", "grouped") ? ORDER_GROUPED : ORDER_INTERLEAVED;
	o->seed = (unsigned long)json_object_get_int64(hb_json_get(plan, "seed"));
	o->vm.mem_mib = json_object_get_int64(hb_json_get(plan, "mem_mib"));
	o->profile = hb_json_get(plan, "profile") && json_object_get_boolean(hb_json_get(plan, "profile"));
	if (hb_json_get(meta, "overcommit") && json_object_get_boolean(hb_json_get(meta, "overcommit")))
		o->vm.overcommit = true;
	json_object_put(meta);
	if (!o->variants[0] || !o->workloads[0] || !o->vm.ncores || o->reps < 1 || o->boots < 1) {
		*why = xasprintf("--resume: the plan in %s/meta.json is incomplete", dir);
		return -1;
	}
	if ((bad = plan_bad_workload_boots(o->workload_boots, o->workloads))) {
		*why = xasprintf("--resume: workload_boots '%s' in %s/meta.json is not WORKLOAD=N of "
				 "the plan's workloads (N from 1 to 1000, each workload once)", bad, dir);
		return -1;
	}
	return 0;
}

static void mark_done(const struct journal_entry *e, void *ctx)
{
	struct run *r = ctx;
	struct plan_cell *c = plan_find_cell(&r->plan, e->cell);

	for (size_t i = 0; c && i < e->nreps_done; i++)
		if (e->reps_done[i] >= 0 && e->reps_done[i] < r->plan.reps)
			c->rep_done[e->reps_done[i]] = true;
}

/* Is this samples.jsonl line a repetition the journal confirms? Lines that are not
 * samples of this plan are kept: resume never deletes what it does not understand. */
static bool keep_line(const struct run *r, const char *line)
{
	json_object *o = json_tokener_parse(line);
	const char *variant, *workload, *kline;
	bool keep = true;

	if (!o)
		return true;
	variant = json_object_get_string(hb_json_get(o, "variant"));
	workload = json_object_get_string(hb_json_get(o, "workload"));
	kline = hb_json_get(o, "kernel_line") ? json_object_get_string(hb_json_get(o, "kernel_line")) : NULL;
	for (size_t w = 0; variant && workload && w < r->nworkloads; w++) {
		struct plan_cell probe = { .line = kline, .variant = variant, .workload = r->workloads[w]->name,
					   .cores = json_object_get_int(hb_json_get(o, "cores")),
					   .boot = json_object_get_int(hb_json_get(o, "boot")) };
		char *key;
		struct plan_cell *c;
		int rep = json_object_get_int(hb_json_get(o, "rep"));

		if (!workload_sample_belongs(r->workloads[w]->name, workload))
			continue;
		key = plan_cell_key(&probe);
		c = plan_find_cell(&r->plan, key);
		free(key);
		if (c && rep >= 0 && rep < r->plan.reps)
			keep = c->rep_done[rep];
		break;
	}
	json_object_put(o);
	return keep;
}

static int prune_samples(const struct run *r)
{
	char *path = hb_path_join(r->dir, RS_SAMPLES_FILE);
	size_t len = 0;
	char *text = hb_read_file_nofollow(path, &len), *out, *line, *save = NULL;
	size_t used = 0;
	long dropped = 0;
	int rc = 0;

	if (!text) {
		free(path);
		return errno == ENOENT ? 0 : -1;
	}
	out = xmalloc(len + 2); /* + a newline the last line may lack, + NUL */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!keep_line(r, line)) {
			dropped++;
			continue;
		}
		used += (size_t)sprintf(out + used, "%s\n", line);
	}
	if (dropped) {
		hb_warn("%s: dropped %ld samples of repetitions the journal does not confirm "
			"(the run stopped between them and their journal line); they are measured again",
			path, dropped);
		rc = hb_write_file_atomic(path, out, used);
		if (rc)
			hb_error("cannot rewrite %s: %s", path, strerror(errno));
	}
	free(out);
	free(text);
	free(path);
	return rc;
}

int resume_load(struct run *r)
{
	if (journal_read(r->dir, mark_done, r) < 0)
		return -1;
	return prune_samples(r);
}
