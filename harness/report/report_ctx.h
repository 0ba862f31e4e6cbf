/* What the report's renderers share: the loaded run and the resolved options, and the
 * selection and layout rules every format follows. Internal to report/. The dispatcher
 * (report.c) fills it and picks a renderer (render.h); renderers only read it. */
#ifndef HB_REPORT_REPORT_CTX_H
#define HB_REPORT_REPORT_CTX_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "analysis/view.h"

/* Is this group selected by --metric / --workload? */
bool report_wants(const struct report_ctx *ctx, const struct ds_group *g);
/* Is the section gs[0..n) (selected groups of one workload and cores) shown as one wide
 * per-test table? --layout, else the workload's metadata, else its metrics. */
bool report_section_wide(const struct report_ctx *ctx, struct ds_group *const *gs, size_t n);
/* "kbuild" or "kbuild cores=4", with " clock=icount" when the group's clock is not the
 * host's or the set mixes clocks. Caller frees. */
char *report_place(const struct report_ctx *ctx, const struct ds_group *g);
/* End of the block of groups starting at ds.groups[from] that share one (clock, line,
 * workload), whatever their metrics and vCPUs: a workload's part of the page or the mail. */
size_t report_block_end(const struct report_ctx *ctx, size_t from);
/* Is g's clock worth naming in its label (not host, or the set has several)? */
bool report_show_clock(const struct report_ctx *ctx, const struct ds_group *g);
/* The same for the kernel line: shown when the set has several or it is not 6.1. */
bool report_show_line(const struct report_ctx *ctx, const struct ds_group *g);
/* The set's clock: meta.json's "clock" name, else its samples' one clock; "mixed" when
 * the samples have several; "host" for sets from before the choice. */
const char *report_clock(const struct report_ctx *ctx);
/* The text and markdown header (report_header.c): set, accel, clock, headline rule. */
void report_text_header(const struct report_ctx *ctx, bool md);
/* One sentence: which estimate the headline figures of this report are. */
const char *report_headline_rule(const struct report_ctx *ctx);
/* report_hosts.c: warning and per-host figures when the set spans hosts (text only). */
void report_hosts(const struct report_ctx *ctx);

#endif
