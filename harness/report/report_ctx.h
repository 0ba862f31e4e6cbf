/* What the report renderers share. Internal to report/. */
#ifndef HB_REPORT_REPORT_CTX_H
#define HB_REPORT_REPORT_CTX_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "report/dataset.h"
#include "report/report.h"
#include "report/rows.h"

struct report_ctx {
	const struct report_opts *opts;
	const char *dir;
	struct dataset ds;
	json_object *meta; /* may be NULL */
	int baseline;
	int ratio_to;      /* -1: none */
	FILE *out;
};

/* Is this group selected by --metric / --workload? */
bool report_wants(const struct report_ctx *ctx, const struct ds_group *g);
/* End of the section starting at groups[from]: same workload and cores. */
size_t report_section_end(const struct report_ctx *ctx, size_t from);
/* "kbuild" or "kbuild cores=4". Caller frees. */
char *report_place(const struct ds_group *g);

void report_text(struct report_ctx *ctx, bool markdown);
void report_json(struct report_ctx *ctx);
void report_csv(struct report_ctx *ctx);
/* report_hosts.c: warning and per-host figures when the set spans hosts (text only). */
void report_hosts(const struct report_ctx *ctx);

#endif
