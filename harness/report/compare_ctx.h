/* What the comparison's renderers share (compare.c loads it, compare_render.c writes it).
 * Internal to report/. */
#ifndef HB_REPORT_COMPARE_CTX_H
#define HB_REPORT_COMPARE_CTX_H

#include <json-c/json.h>

#include "analysis/rows.h"
#include "gate/gate.h"
#include "report/compare.h"
#include "results/dataset.h"

struct compare_run {
	const char *name, *dir;
	struct dataset ds;
	json_object *meta;
	int baseline;
	struct rows_opts rows;
	struct gate_set gate; /* the same set as the gate reads it, for the changes */
};

/* One run's cell of a row: its headline against its baseline. */
struct compare_cost {
	bool present;
	struct group_row r;
};

struct compare_row {
	const struct ds_group *g;     /* the first run's group holding the row (its names) */
	const char *variant;
	struct compare_cost *costs;   /* per run */
	struct gate_result *changes;  /* per consecutive pair: [i] is run i vs run i+1 */
};

struct compare {
	const struct compare_opts *opts;
	struct compare_run *runs;
	size_t nruns;
	const char *baseline;         /* its name (each run's own baseline variant) */
	const char *clock;
	struct compare_row *rows;
	size_t nrows, cap;
	FILE *out;
};

void compare_render_text(const struct compare *c, bool markdown);
void compare_render_json(const struct compare *c);
void compare_render_html(const struct compare *c);
/* "ok", "regression", "improvement", "not comparable" (compare_render.c). */
const char *compare_flag(const struct gate_result *g);

#endif
