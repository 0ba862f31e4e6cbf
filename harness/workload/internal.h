/* Shared by the files of harness/workload/ (and its unit tests); not for other stages. */
#ifndef HB_WORKLOAD_INTERNAL_H
#define HB_WORKLOAD_INTERNAL_H

#include "workload/parser.h"
#include "workload/workload.h"

/* Loads a workload.ini from path for the workload called name (parser may be NULL).
 * NULL after printing "path:line: why". */
struct workload *workload_load_path(const char *name, const char *path,
				    const struct workload_parser *parser);
/* The registry entry, or NULL. */
const struct workload_parser *workload_find_parser(const char *name);
/* NULL when value is acceptable for p, else a malloc'd reason. */
char *workload_param_check(const struct workload_param *p, const char *value);
/* Fills p->accepted from the type and limits (the ini may give its own for strings). */
void workload_param_describe(struct workload_param *p);
struct workload_param *workload_find_param(const struct workload *w, const char *key);
/* "a, b, c" of a NULL-terminated list (newly allocated). */
char *workload_join(char *const *items, const char *sep);

#endif
