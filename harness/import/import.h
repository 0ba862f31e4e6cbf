/* CSV of published numbers -> result set. Header line with the column names, required
 * variant,workload,metric,value; optional unit,cores,rep,boot,lower_is_better (default
 * true); other columns are ignored with a warning. Lines starting with '#' between rows
 * are comments (the seed CSVs keep their provenance there). Quoting follows RFC 4180
 * (libcsv, strict mode). */
#ifndef HB_IMPORT_IMPORT_H
#define HB_IMPORT_IMPORT_H

#include <stdbool.h>

#include "results/store.h"

/* Checks the whole file (rs NULL) or appends its rows to rs, counting them in *rows.
 * HB_EXIT_OK; HB_EXIT_USAGE with *why for bad input (naming file, line, column and value;
 * the checking pass finds it before anything is written); HB_EXIT_FAIL with *why when rs
 * cannot be written. */
int import_csv(const char *path, struct result_set *rs, long *rows, char **why);

#endif
