/* A workload's host-side parser: turns the job's captured output into metrics. Each
 * workloads/<name>/parse.c defines `const struct workload_parser <name>_parser`. */
#ifndef HB_WORKLOAD_PARSER_H
#define HB_WORKLOAD_PARSER_H

#include <stdbool.h>
#include <stddef.h>

/* Receives one parsed metric; unit and direction come from the workload's metadata. */
typedef void (*metric_emit_fn)(void *ctx, const char *metric, double value);

struct workload_parser {
	const char *name;
	/* Parses one repetition's stdout (and stderr). Returns 0, or -1 with *why set
	 * (malloc'd one-line reason) when the output holds no valid result. */
	int (*parse)(const char *out, const char *err, metric_emit_fn emit, void *ctx, char **why);
};

extern const struct workload_parser *const workload_parsers[];

#endif
