/* What a report is asked for: the options of `harness report` (report.h), apart so that
 * the renderers and their shared context can read them without the dispatcher's header. */
#ifndef HB_ANALYSIS_REPORT_OPTS_H
#define HB_ANALYSIS_REPORT_OPTS_H

#include <stdbool.h>

/* The --format values; each has a renderer (report/render.h). */
enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_CSV, REPORT_JSON, REPORT_HTML, REPORT_MAIL };
#define REPORT_NFORMATS (REPORT_MAIL + 1)
/* Their names, in enum order, NULL-terminated: what --format accepts (render.c). */
extern const char *const report_format_names[];
enum report_layout { REPORT_LAYOUT_AUTO, REPORT_LAYOUT_LONG, REPORT_LAYOUT_WIDE };

struct report_opts {
	enum report_format format;
	enum report_layout layout; /* text/markdown: per-test tables auto-detected, or forced */
	const char *baseline;      /* NULL: the variant "baseline", else the first one seen */
	const char *ratio_to;      /* NULL, or a variant for an extra "x VARIANT" column */
	const char *metric;        /* NULL, or only this metric */
	const char *workload;      /* NULL, or only this workload */
	bool paired;               /* pair an imported set's rounds (its CSV's boot column) */
	const char *seeds;         /* NULL; or --against-seeds: a published.json, or a folder of
				    * <workload>/published.json (seeds/seeds.h), compared with
				    * the run instead of the ordinary report */
};

#endif
