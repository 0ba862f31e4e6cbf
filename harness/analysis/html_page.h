/* The frame of every hardbench page (the report's, the comparison's, the seeds'): a
 * Content-Security-Policy that admits only the page's own script (by its hash) and inline
 * styles, so that nothing is fetched and nothing injected could run; one style readable in
 * greyscale; and a few lines of plain JavaScript that sort tables.sortable, filter
 * [data-metric] elements, and list script errors in #js-errors (the browser test reads
 * them). A page reads the same without the script, minus the filter box. */
#ifndef HB_ANALYSIS_HTML_PAGE_H
#define HB_ANALYSIS_HTML_PAGE_H

#include <stdio.h>

/* <!DOCTYPE> to <body> and the <h1>; title escaped. */
void html_page_head(FILE *out, const char *title);
/* The script and </html>. */
void html_page_foot(FILE *out);

#endif
