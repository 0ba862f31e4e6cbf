/* --clock model in a cell (run/model_cell.c): samples priced by the model plugin's counts. */
#ifndef HB_RUN_MODEL_CELL_H
#define HB_RUN_MODEL_CELL_H

#include <json-c/json.h>

#include "model/model.h"
#include "results/store.h"
#include "workload/meta.h"

/* One line per repetition of a --clock model run: the cell, the sections it used (counts
 * per mode, in plugins/model/model_format.h's order) and each priced metric's guest
 * (icount) value, its section and its scope. */
#define MODEL_COUNTS_FILE "model.jsonl"

/* The plugin's sections of one boot, from <log_dir>/qemu.log. 0, or -1 with *why. */
int model_cell_load(const char *log_dir, struct model_log *log, char **why);
/* Prices items[0..n) of one repetition (ordinal: its place among the boot's repetitions,
 * job-major) in place, and adds its sections and metrics to record. -1 with *why when the
 * plugin has no section for it. */
int model_cell_price(const struct workload *w, const struct model_log *log, int ordinal,
		     struct sample *items, size_t n, json_object *record, char **why);
/* Appends record to the set's model.jsonl. 0, or -1 after printing why. */
int model_cell_record(const char *run_dir, json_object *record);
/* The constants a run priced with, for meta.json. */
json_object *model_constants_json(void);

#endif
