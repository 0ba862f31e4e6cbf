/* The clock each workload of a run measures under (boot/clock.h: clock_resolve), the
 * lines that say it, and its meta.json record. --clock auto answers per workload: one
 * that is not deterministic under icount runs under the host clock while the others
 * count instructions. The accel is resolved here too: auto's clock follows it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boot/accel.h"
#include "boot/clock.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "run/model_cell.h"
#include "run/run.h"
#include "run/vcpus.h"
#include "workload/workload.h"

int run_resolve_accel(struct run *r, bool may_probe)
{
	json_object *v;
	char *why;

	free(r->accel_reason);
	if (r->opts->resume && r->opts->vm.accel == ACCEL_AUTO && r->meta &&
	    json_object_object_get_ex(r->meta, RS_META_ACCEL, &v)) {
		r->accel = !strcmp(json_object_get_string(v), "kvm") ? ACCEL_KVM : ACCEL_TCG;
		r->accel_reason = xasprintf("same as the run being resumed");
	} else {
		r->accel = accel_resolve_for_clock(vm_cli_clock(&r->opts->vm), vm_cli_accel(&r->opts->vm),
						   &r->kernels[0], may_probe, &r->accel_reason);
	}
	if (r->accel == ACCEL_NONE) {
		hb_error("%s: no cell was run", r->accel_reason);
		return -1;
	}
	run_choose_clocks(r);
	if (run_check_vcpus(r, &why) < 0) /* --clock auto chose the host clock (KVM) */
		return hb_usage_why(why);
	estimator_free(&r->est);
	estimator_init(&r->est, (const struct workload *const *)r->workloads, r->nworkloads, r->accel,
		       r->clocks);
	estimator_use_pace(&r->est, r->opts->params);
	return 0;
}

void run_choose_clocks(struct run *r)
{
	enum guest_clock asked = vm_cli_clock(&r->opts->vm);

	run_free_clocks(r);
	r->clocks = xcalloc(r->nworkloads ? r->nworkloads : 1, sizeof(*r->clocks));
	r->clock_why = xcalloc(r->nworkloads + 1, sizeof(char *));
	for (size_t i = 0; i < r->nworkloads; i++)
		r->clocks[i] = clock_resolve(asked, r->accel, r->workloads[i]->name,
					     r->workloads[i]->icount_caveat, &r->clock_why[i]);
}

void run_free_clocks(struct run *r)
{
	free(r->clocks);
	hb_free_strv(r->clock_why);
	r->clocks = NULL;
	r->clock_why = NULL;
}

enum guest_clock run_clock_of(const struct run *r, const char *workload)
{
	for (size_t i = 0; i < r->nworkloads; i++)
		if (!strcmp(r->workloads[i]->name, workload))
			return r->clocks[i];
	hb_fatal("workload '%s' is not in this run", workload); /* the plan holds only its own */
}

/* The answer for a workload with no caveat: what the run as a whole runs under. */
static enum guest_clock run_wide_clock(const struct run *r, char **why)
{
	return clock_resolve(vm_cli_clock(&r->opts->vm), r->accel, NULL, NULL, why);
}

void run_print_clocks(const struct run *r, FILE *out)
{
	char *why;
	enum guest_clock wide = run_wide_clock(r, &why);

	fprintf(out, "clock: %s (%s)\n", guest_clock_name(wide), why);
	free(why);
	for (size_t i = 0; i < r->nworkloads; i++) {
		const struct workload *w = r->workloads[i];
		if (r->clocks[i] != wide)
			fprintf(out, "clock: %s for %s (%s)\n", guest_clock_name(r->clocks[i]), w->name,
				r->clock_why[i]);
		else if (r->clocks[i] == CLOCK_ICOUNT && w->icount_caveat)
			fprintf(out, "clock: note: %s is not deterministic under icount (%s)\n",
				w->name, w->icount_caveat);
	}
}

/* {"name": "icount" (or "host", or "mixed" when the workloads differ), "asked": "auto",
 *  "why": "auto: TCG", "workloads": {"kbuild": {"name": "host", "why": "..."}, ...},
 *  "shift": 0, "means": "..." (when any workload counts instructions)}. */
json_object *run_clocks_json(const struct run *r)
{
	json_object *o = json_object_new_object(), *ws = json_object_new_object();
	bool mixed = false, icount = false, model = false;
	char *why;
	enum guest_clock wide = run_wide_clock(r, &why);

	for (size_t i = 0; i < r->nworkloads; i++) {
		json_object *w = json_object_new_object();
		json_object_object_add(w, "name", json_object_new_string(guest_clock_name(r->clocks[i])));
		json_object_object_add(w, "why", json_object_new_string(r->clock_why[i]));
		json_object_object_add(ws, r->workloads[i]->name, w);
		mixed |= r->clocks[i] != r->clocks[0];
		icount |= clock_runs_icount(r->clocks[i]);
		model |= r->clocks[i] == CLOCK_MODEL;
	}
	json_object_object_add(o, "name", json_object_new_string(
		mixed ? "mixed" : guest_clock_name(r->nworkloads ? r->clocks[0] : wide)));
	json_object_object_add(o, "asked", json_object_new_string(
		guest_clock_name(vm_cli_clock(&r->opts->vm))));
	json_object_object_add(o, "why", json_object_new_string(why));
	json_object_object_add(o, "workloads", ws);
	if (icount) {
		json_object_object_add(o, "shift", json_object_new_int(ICOUNT_SHIFT));
		json_object_object_add(o, "means", json_object_new_string(
			"guest instructions at 2^shift ns each: not cycles; rep-string clearing "
			"counts per iteration; reproducible"));
	}
	if (model) {
		json_object_object_add(o, "model", model_constants_json());
		json_object_object_add(o, "model_means", json_object_new_string(
			"modelled time: the guest ran under icount and each time metric is scaled "
			"by its section's modelled time over its instruction count (docs/model.md); "
			"the counts are in model.jsonl"));
	}
	free(why);
	return o;
}
