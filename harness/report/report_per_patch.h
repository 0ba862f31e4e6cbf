/* "Which patch costs": the series a run measured step by step (`run --patch NAME=SERIES
 * --per-patch`, `run --kernels PATH@A..B`; analysis/per_patch.h), in the report's formats:
 * text and markdown (a table per series, place and metric: each step's mean, its own cost
 * against the step before it and the cost in all against step 0, each with its 95% CI),
 * json (a flat "per_patch" list), html (a section of the page) and mail (a line per step
 * of the primary metric: "patch 2/3 'af_unix: ...': +4.10% time [+2.90%, +5.30%]").
 * Nothing at all for a run without such a series. Internal to report/.
 *
 * JSON, one record per step (step 0 has none) and place:
 *   {"series", "kind" (patch, commit), "step", "of", "subject", "commit" (commit steps),
 *    "variant", "kernel_line" (the step's cell), "against" (the variant or line of the step
 *    before it), "workload", "metric", "unit", "cores", "clock", "lower_is_better",
 *    "mean", "n", "cost_pct", "ci95_low_pct", "ci95_high_pct", "p_value", "mde_pct",
 *    "paired", "n_pairs", "same_every_round", "cumulative_pct", "cumulative_ci95_low_pct",
 *    "cumulative_ci95_high_pct", "error" (when not measured)}
 * Unknown numbers are null. */
#ifndef HB_REPORT_REPORT_PER_PATCH_H
#define HB_REPORT_REPORT_PER_PATCH_H

#include <stdbool.h>

#include <json-c/json.h>

#include "report/report_ctx.h"

/* Does the set's meta.json record a series measured step by step? */
bool report_per_patch_any(const struct report_ctx *ctx);
void report_per_patch_text(struct report_ctx *ctx, bool markdown);
/* The "per_patch" list; NULL when the set has no series. */
json_object *report_per_patch_json(struct report_ctx *ctx);
void report_per_patch_html(struct report_ctx *ctx);
void report_per_patch_mail(struct report_ctx *ctx);

#endif
