#include "run/main_job.h"

#include <stdlib.h>
#include <string.h>

#include "boot/accel.h"
#include "boot/clock.h"
#include "boot/vm_options.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"
#include "run/matrix.h"
#include "run/run.h"
#include "run/vcpus.h"
#include "workload/workload.h"

bool main_job_asked(const struct run *r)
{
	const struct run_opts *o = r->opts;

	return !o->variants && !o->lines && !o->resume && !hb_strv_len(r->adhoc.variants) &&
	       !r->nprebuilt;
}

static void push_once(struct hb_strv *list, const char *name)
{
	if (!hb_strv_contains(list->v, name))
		hb_strv_push(list, xstrdup(name));
}

static int compare_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static void add_cores(long **all, size_t *n, long cores)
{
	for (size_t i = 0; i < *n; i++)
		if ((*all)[i] == cores)
			return;
	*all = xrealloc(*all, (*n + 2) * sizeof(long));
	(*all)[(*n)++] = cores;
	(*all)[*n] = 0;
}

static int check_line(const char *workload, const char *line, char **why)
{
	char *what = xasprintf("workload '%s': default_kernel %s", workload, line);
	int rc = config_check_line(line, what, why);

	free(what);
	return rc;
}

/* A variant of the default set, or one a workload names whose build has a series for line. */
static bool can_run(const char *variant, const char *line, char *const *available)
{
	struct variant_def v;
	char *reason = NULL;
	bool ok;

	if (hb_strv_contains(available, variant))
		return true;
	if (config_load_variant(variant, &v) != 0)
		return false;
	ok = config_require_series(v.build, line, &reason) == 0;
	free(reason);
	variant_def_free(&v);
	return ok;
}

/* The groups of one workload: its variants (those of the default set it names) x its
 * line x its vCPU counts. */
static int add_workload(const struct workload *w, char *const *available, const long *cores,
			size_t ncores, struct hb_strv *keep, struct hb_strv *lines,
			struct hb_strv *variants, long **all_cores, size_t *nall, char **why)
{
	const char *line = w->default_kernel ? w->default_kernel : HB_DEFAULT_LINE;
	char *const *names = w->default_variants ? w->default_variants : available;

	if (check_line(w->name, line, why) < 0)
		return -1;
	push_once(lines, line);
	for (size_t v = 0; names[v]; v++) {
		if (!can_run(names[v], line, available))
			continue; /* its build cannot be made from this tree (a missing series) */
		push_once(variants, names[v]);
		for (size_t c = 0; c < ncores; c++) {
			add_cores(all_cores, nall, cores[c]);
			hb_strv_push(keep, plan_group_key(line, names[v], w->name, (int)cores[c]));
		}
	}
	return 0;
}

/* Was WORKLOAD.KEY given by --param, for item "KEY=VALUE"? */
static bool param_given(char *const *params, const char *workload, const char *item)
{
	size_t wlen = strlen(workload), klen = strcspn(item, "=") + 1; /* the key and its '=' */

	for (size_t i = 0; params && params[i]; i++)
		if (!strncmp(params[i], workload, wlen) && params[i][wlen] == '.' &&
		    !strncmp(params[i] + wlen + 1, item, klen))
			return true;
	return false;
}

/* A workload's icount_params as if given by --param, so that meta.json's plan keeps them
 * and --resume sets them again. */
static int add_icount_params(struct run *r, struct workload *w, char **why)
{
	struct run_opts *o = r->opts;

	for (size_t i = 0; w->icount_params && w->icount_params[i]; i++) {
		char *spec;
		int rc;

		if (param_given(o->params, w->name, w->icount_params[i]))
			continue;
		spec = xasprintf("%s.%s", w->name, w->icount_params[i]);
		rc = workload_apply_param(r->workloads, r->nworkloads, spec, why);
		if (rc == 0)
			hb_strv_append_once(&o->params, spec);
		free(spec);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void add_workload_boots(struct run_opts *o, const struct workload *w)
{
	char *item = xasprintf("%s=%d", w->name, w->icount_boots);

	hb_strv_append_once(&o->workload_boots, item);
	free(item);
}

/* The used variants in the default set's order (baseline first), then the others. */
static char **in_default_order(char *const *available, char *const *used)
{
	struct hb_strv out = { 0 };

	for (size_t i = 0; available[i]; i++)
		if (hb_strv_contains(used, available[i]))
			hb_strv_push(&out, xstrdup(available[i]));
	for (size_t i = 0; used[i]; i++)
		if (!hb_strv_contains(available, used[i]))
			hb_strv_push(&out, xstrdup(used[i]));
	hb_strv_push(&out, NULL);
	return out.v;
}

int main_job_fill(struct run *r, bool cores_given, char **why)
{
	struct run_opts *o = r->opts;
	char **available = matrix_default_variants();
	struct hb_strv keep = { 0 }, lines = { 0 }, variants = { 0 };
	long *all_cores = NULL;
	size_t nall = 0;
	int rc = 0;

	/* The accel as far as it is known before any boot (--accel, or the cached KVM probe;
	 * a host never probed counts as TCG), and so each workload's clock. */
	char *reason = NULL;
	enum accel_kind accel = accel_resolve_for_clock(vm_cli_clock(&o->vm), vm_cli_accel(&o->vm),
							NULL, false, &reason);

	free(reason);
	for (size_t i = 0; rc == 0 && i < r->nworkloads; i++) {
		struct workload *w = r->workloads[i];
		char *clock_why = NULL;
		bool icount = clock_runs_icount(clock_resolve(vm_cli_clock(&o->vm), accel, w->name,
							      w->icount_caveat, &clock_why));
		bool own = !cores_given && w->icount_cores && icount;

		free(clock_why);
		/* Its own rounds under icount, where one boot is cheap and the clock exact: more
		 * pairs narrow a small effect's interval (t with n - 1 degrees of freedom). */
		if (icount && w->icount_boots && !o->boots_given && !o->until_ci &&
		    w->icount_boots != o->boots)
			add_workload_boots(o, w);
		if (own && add_icount_params(r, w, why) < 0)
			rc = -1;
		else
			rc = add_workload(w, available, own ? w->icount_cores : o->vm.cores,
					  own ? w->nicount_cores : o->vm.ncores, &keep, &lines,
					  &variants, &all_cores, &nall, why);
	}
	hb_strv_push(&lines, NULL);
	hb_strv_push(&variants, NULL);
	hb_strv_push(&keep, NULL);
	if (rc == 0 && all_cores) {
		qsort(all_cores, nall, sizeof(long), compare_long);
		rc = run_check_cores(r, all_cores, nall, why);
	}
	if (rc < 0) {
		hb_free_strv(keep.v);
		hb_free_strv(lines.v);
		free(all_cores);
	} else {
		hb_free_strv(o->lines);
		hb_free_strv(o->variants);
		hb_free_strv(o->keep);
		free(o->vm.cores);
		o->lines = lines.v;
		o->variants = in_default_order(available, variants.v);
		o->keep = keep.v;
		o->vm.cores = all_cores;
		o->vm.ncores = nall;
	}
	hb_free_strv(variants.v);
	hb_free_strv(available);
	return rc;
}

bool main_job_uses(char *const *keep, const char *line, const char *variant)
{
	size_t n;
	char *prefix;
	bool found = !keep;

	if (found)
		return true;
	prefix = xasprintf("%s:%s/", line, variant);
	n = strlen(prefix);
	for (size_t i = 0; keep[i] && !found; i++)
		found = !strncmp(keep[i], prefix, n);
	free(prefix);
	return found;
}
