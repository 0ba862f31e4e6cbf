/* "Where the cost goes" (report_profile.c): the --profile rows of a set in each format.
 * Every function prints nothing when the set has no profile. Internal to report/. */
#ifndef HB_REPORT_REPORT_PROFILE_H
#define HB_REPORT_REPORT_PROFILE_H

#include <stdbool.h>
#include <json-c/json.h>

#include "analysis/view.h"

void report_profile_text(const struct report_ctx *ctx, bool markdown);
/* The "profile" array of the json report, or NULL. */
json_object *report_profile_json(const struct report_ctx *ctx);
void report_profile_html(const struct report_ctx *ctx);
/* Up to five lines under a mail's one-liner of (line, workload, cores, variant, metric). */
void report_profile_mail(const struct report_ctx *ctx, const char *line, const char *workload,
			 int cores, const char *variant, const char *metric);

/* `harness report RUN1 RUN2 --compare` (text, markdown): each run's "where the cost goes"
 * against baseline, run after run, for the runs that have a profile. */
void report_profile_compare(char *const *dirs, char *const *names, size_t n,
			    const struct report_opts *opts, const char *baseline, FILE *out);

#endif
