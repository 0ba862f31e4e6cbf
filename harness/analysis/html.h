/* Writing HTML safely: everything that comes from a run (variant, workload and metric
 * names, meta.json text, guest output) is hostile and goes through html_text. Internal
 * to report/ and seeds/. */
#ifndef HB_ANALYSIS_HTML_H
#define HB_ANALYSIS_HTML_H

#include <stdio.h>

#include "analysis/table.h"

/* s with & < > " ' as character references: safe in text and in quoted attributes. */
void html_text(FILE *out, const char *s);
/* printf, then html_text of the result. */
__attribute__((format(printf, 2, 3))) void html_textf(FILE *out, const char *fmt, ...);
/* An id or class from a name: letters, digits, '-' and '_' kept, the rest '_'. */
void html_id(FILE *out, const char *prefix, const char *name);
/* A table: header cells say their unit; left columns (names) as the table says, the
 * others right-aligned (class "num"). Every cell escaped. */
void html_table(FILE *out, const struct table *t, const char *cls);

#endif
