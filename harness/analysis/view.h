/* A loaded result set as a report sees it: the set, its meta.json and the resolved report
 * options. report/ fills it (report.c) and its renderers read it; the seeds comparison
 * (seeds/) reads the same, which is why it sits here, below both. */
#ifndef HB_ANALYSIS_VIEW_H
#define HB_ANALYSIS_VIEW_H

#include <stdio.h>

#include <json-c/json.h>

#include "analysis/report_opts.h"
#include "analysis/rows.h"
#include "results/dataset.h"

struct profile_view;

struct report_ctx {
	const struct report_opts *opts;
	const char *dir;
	struct dataset ds;
	json_object *meta; /* may be NULL */
	int baseline;
	int ratio_to;      /* -1: none */
	struct rows_opts rows; /* no pairing for imported sets unless --paired */
	FILE *out;
	/* --profile's "where the cost goes" (analysis/profile_view.h), NULL: the set has none */
	const struct profile_view *profile;
};

#endif
