/* --clock model in a cell: the guest's time metrics of each repetition priced by the model
 * plugin's sections (model/model.h, docs/model.md), and each repetition's counts kept in
 * the set's model.jsonl, so that the icount and one-parameter readings of the same boots
 * can be derived afterwards (bench/model-validation.py). */
#include "run/model_cell.h"

#include <stdlib.h>

#include "common/paths.h"
#include "common/xalloc.h"
#include "run/journal.h"

int model_cell_load(const char *log_dir, struct model_log *log, char **why)
{
	char *path = hb_path_join(log_dir, "qemu.log");
	int rc = model_read_log(path, log, why);

	free(path);
	return rc;
}

static json_object *counts_json(const uint64_t *f)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < HB_MODEL_NFIELDS; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)f[i]));
	return a;
}

static void note_section(json_object *sections, const struct model_section *s)
{
	size_t n = json_object_array_length(sections);
	json_object *o;

	for (size_t i = 0; i < n; i++) {
		json_object *id;
		if (json_object_object_get_ex(json_object_array_get_idx(sections, i), "id", &id) &&
		    json_object_get_int(id) == s->id)
			return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(s->id));
	json_object_object_add(o, "kernel", counts_json(s->c.v[HB_MODEL_KERNEL]));
	json_object_object_add(o, "user", counts_json(s->c.v[HB_MODEL_USER]));
	json_object_array_add(sections, o);
}

/* The section that times a metric: its own marker's, else its repetition's (id 0). */
static const struct model_section *section_of(const struct model_log *log, int ordinal,
					      const struct workload_metric *m)
{
	const struct model_section *s = NULL;
	int id = workload_metric_marker(m);

	if (id > 0)
		s = model_log_find(log, ordinal, id);
	return s ? s : model_log_find(log, ordinal, 0);
}

int model_cell_price(const struct workload *w, const struct model_log *log, int ordinal,
		     struct sample *items, size_t n, json_object *record, char **why)
{
	json_object *sections, *metrics;

	if (!model_log_find(log, ordinal, 0)) {
		*why = xasprintf("no model section for repetition %d of the boot (the plugin saw %zu "
				 "sections: did the guest mark its repetitions?)", ordinal, log->n);
		return -1;
	}
	if (!json_object_object_get_ex(record, "sections", &sections)) {
		sections = json_object_new_array();
		json_object_object_add(record, "sections", sections);
	}
	if (!json_object_object_get_ex(record, "metrics", &metrics)) {
		metrics = json_object_new_array();
		json_object_object_add(record, "metrics", metrics);
	}
	for (size_t i = 0; i < n; i++) {
		const struct workload_metric *m = workload_find_metric(w, items[i].metric);
		enum model_scope scope = m ? workload_metric_model(m) : MODEL_SCOPE_NONE;
		const struct model_section *s = m ? section_of(log, ordinal, m) : NULL;
		json_object *o;

		if (scope == MODEL_SCOPE_NONE || !s)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "workload", json_object_new_string(items[i].workload));
		json_object_object_add(o, "metric", json_object_new_string(items[i].metric));
		json_object_object_add(o, "id", json_object_new_int(s->id));
		json_object_object_add(o, "scope", json_object_new_string(model_scope_name(scope)));
		json_object_object_add(o, "guest", json_object_new_double(items[i].value));
		json_object_array_add(metrics, o);
		note_section(sections, s);
		items[i].value = model_scale(items[i].value, &s->c, scope, MODEL_FULL, &model_constants);
	}
	return 0;
}

int model_cell_record(const char *run_dir, json_object *record)
{
	return run_append_jsonl(run_dir, MODEL_COUNTS_FILE, record);
}

json_object *model_constants_json(void)
{
	const struct model_constants *k = &model_constants;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "t_insn_ns", json_object_new_double(k->t_insn));
	json_object_object_add(o, "t_stos_ns_per_byte", json_object_new_double(k->t_stos));
	json_object_object_add(o, "t_movs_ns_per_byte", json_object_new_double(k->t_movs));
	json_object_object_add(o, "t_start_ns", json_object_new_double(k->t_start));
	json_object_object_add(o, "t_l2_hit_ns", json_object_new_double(k->t_l2));
	json_object_object_add(o, "t_l2_miss_ns", json_object_new_double(k->t_mem));
	json_object_object_add(o, "onep_stos_ns_per_byte", json_object_new_double(k->onep_stos));
	return o;
}
