/* A vm_result: freeing it, and as JSON (`harness boot` writes it to <log_dir>/vm.json; the
 * run stage may embed it, accel and why, machine, root share, pin map, in meta.json). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "boot/proto.h"
#include "boot/vm.h"
#include "common/argparse.h"

static json_object *str_or_null(const char *s) { return s ? json_object_new_string(s) : NULL; }

void vm_result_free(struct vm_result *r)
{
	job_rep_result_free_all(r->reps, r->nreps);
	free(r->error);
	free(r->phase);
	free(r->log_dir);
	free(r->console_log);
	free(r->accel);
	free(r->accel_reason);
	free(r->machine);
	free(r->rootfs);
	json_object_put(r->pin_map);
	free(r->pin_note);
	free(r->rootfs_reason);
	free(r->kernel_entry);
	hb_free_strv(r->notes);
	*r = (struct vm_result){ 0 };
}

/* {"CAL": 1234, "XYZ": {"missing": "no row 'XYZ' in ..."}}, or null when none was asked. */
static json_object *irq_json(const struct job_rep_result *p)
{
	json_object *o;

	if (!p->nirq)
		return NULL;
	o = json_object_new_object();
	for (size_t k = 0; k < p->nirq; k++) {
		const struct irq_count *c = &p->irq[k];
		json_object *v;
		if (c->missing) {
			v = json_object_new_object();
			json_object_object_add(v, "missing", json_object_new_string(c->missing));
		} else {
			v = json_object_new_int64((int64_t)c->delta);
		}
		json_object_object_add(o, c->label, v);
	}
	return o;
}

/* A timing the host refused is NAN, which JSON cannot hold: null (and "refused" says why). */
static json_object *seconds_or_null(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

json_object *vm_result_to_json(const struct vm_result *r)
{
	json_object *o = json_object_new_object(), *reps = json_object_new_array();

	json_object_object_add(o, "status", json_object_new_int(r->status));
	json_object_object_add(o, "error", str_or_null(r->error));
	json_object_object_add(o, "phase", str_or_null(r->phase));
	json_object_object_add(o, "accel", str_or_null(r->accel));
	json_object_object_add(o, "clock", str_or_null(r->clock));
	json_object_object_add(o, "accel_reason", str_or_null(r->accel_reason));
	json_object_object_add(o, "machine", str_or_null(r->machine));
	json_object_object_add(o, "rootfs", str_or_null(r->rootfs));
	json_object_object_add(o, "rootfs_reason", str_or_null(r->rootfs_reason));
	json_object_object_add(o, "kernel_entry", str_or_null(r->kernel_entry));
	json_object_object_add(o, "pin_map", json_object_get(r->pin_map));
	json_object_object_add(o, "pin_note", str_or_null(r->pin_note));
	json_object_object_add(o, "overcommitted", json_object_new_boolean(r->overcommitted));
	json_object_object_add(o, "shared_cores", json_object_new_boolean(r->shared_cores));
	json_object_object_add(o, "boot_s", json_object_new_double(r->boot_s));
	json_object_object_add(o, "total_s", json_object_new_double(r->total_s));
	json_object_object_add(o, "prepare_s", json_object_new_double(r->prepare_s));
	json_object_object_add(o, "done_s", json_object_new_double(r->done_s));
	json_object *notes = json_object_new_array();
	for (char **n = r->notes; n && *n; n++)
		json_object_array_add(notes, json_object_new_string(*n));
	json_object_object_add(o, "notes", notes);
	for (size_t i = 0; i < r->nreps; i++) {
		const struct job_rep_result *p = &r->reps[i];
		json_object *e = json_object_new_object();
		json_object_object_add(e, "job", json_object_new_int(p->job));
		json_object_object_add(e, "rep", json_object_new_int(p->rep));
		json_object_object_add(e, "exit_code", json_object_new_int(p->exit_code));
		json_object_object_add(e, "term_signal", json_object_new_int(p->term_signal));
		json_object_object_add(e, "wall_s", seconds_or_null(p->wall_s));
		json_object_object_add(e, "user_s", seconds_or_null(p->user_s));
		json_object_object_add(e, "sys_s", seconds_or_null(p->sys_s));
		json_object_object_add(e, "guest_user_s", seconds_or_null(p->guest_user_s));
		json_object_object_add(e, "guest_sys_s", seconds_or_null(p->guest_sys_s));
		json_object_object_add(e, "guest_idle_s", seconds_or_null(p->guest_idle_s));
		if (p->idle_sleep_s >= 0)
			json_object_object_add(e, "idle_sleep_s", seconds_or_null(p->idle_sleep_s));
		json_object_object_add(e, "irq", irq_json(p));
		if (p->refused)
			json_object_object_add(e, "refused", json_object_new_string(p->refused));
		json_object_array_add(reps, e);
	}
	json_object_object_add(o, "reps", reps);
	return o;
}

