/* What each workloads/<name>/parse.c defines: `const struct workload_parser <name>_parser`
 * (workloads/meson.build generates the registry from its workload_names list). The
 * workload's metadata (units, directions, parameters) stays in its workload.ini. */
#ifndef HB_WORKLOAD_PARSER_H
#define HB_WORKLOAD_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "workload/workload.h"

/* Receives one parsed metric; unit and direction come from the workload's metadata. */
typedef void (*metric_emit_fn)(void *ctx, const char *metric, double value);

struct workload_parser {
	const char *name;
	/* Adds the cell's guest jobs with workload_add_job() (and disks, memory needs, notes)
	 * from workload_param*() and cell->target. 0, or -1 with *why set (malloc'd one
	 * line); WORKLOAD_BAD_PARAM with *why when the cell shows a --param value wrong. */
	int (*jobs)(const struct workload *w, struct workload_cell *cell, char **why);
	/* Parses one repetition's stdout (and stderr). Returns 0, or -1 with *why set
	 * (malloc'd one-line reason) when the output holds no valid result. */
	int (*parse)(const char *out, const char *err, metric_emit_fn emit, void *ctx, char **why);
};

extern const struct workload_parser *const workload_parsers[];

/* For the jobs callbacks. */
/* Appends a job (argv and env are copied; env may be NULL). section: NULL for the
 * workload itself, else one of the workload's sections: its samples are filed under
 * "<name>-<section>". */
void workload_add_job(struct workload_cell *cell, const struct workload *w, const char *section,
		      const char *const argv[], const char *const env[]);
void workload_add_disk(struct workload_cell *cell, const char *path);
/* workload_add_share: workload/cell.h. */
void workload_add_note(struct workload_cell *cell, const char *note);
void workload_need_mem(struct workload_cell *cell, long mib);
/* Absolute path of the workload's helper in the build tree (the guest sees that folder),
 * or NULL with *why when it has not been built. */
char *workload_helper_path(const struct workload *w, char **why);

/* For the parsers: "key value" lines. The value of the first line whose first word is
 * key (rest of the line, trailing blanks cut), newly allocated; NULL when absent. */
char *workload_line_value(const char *text, const char *key);
/* Same, as a finite number; false when absent or not a number. */
bool workload_line_number(const char *text, const char *key, double *out);
/* The last non-empty line of text, newly allocated ("" when none): for reasons. */
char *workload_last_line(const char *text);

/* A "key <seconds>" line that a program prints, and the metric its value becomes. */
struct workload_seconds_line {
	const char *key;
	const char *metric;
};
/* For programs that print their timings as "key <seconds>" lines: emits every line's value
 * (a finite number >= 0) as its metric and returns 0; or emits none and returns -1 with
 * *why = "no '<key> <seconds>' line in <program>'s output" for the first bad or missing one. */
int workload_emit_seconds(const char *out, const struct workload_seconds_line *lines, size_t n,
			  const char *program, metric_emit_fn emit, void *ctx, char **why);

#endif
