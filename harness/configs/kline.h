/* Kernel lines: which upstream series a kernel is built from (Debian's linux-source-6.1,
 * linux-source-6.12), read from kernel-configs/lines/<line>.line:
 *
 *   [line]
 *   description = Debian linux-source-6.12 (6.12.117)
 *   source = /usr/src/linux-source-6.12.tar.xz     ; the default source of the line
 *   fragments = line-6.12                          ; stacked after base.config
 *
 * The option entries below are shared by build, boot and run so the names and checks
 * are one: --kernel-line LINE (build, boot), --source [LINE=]DIR|TARBALL (all three). */
#ifndef HB_CONFIGS_KLINE_H
#define HB_CONFIGS_KLINE_H

#include "common/kernel_line.h"
#include "common/options.h"

struct line_def {
	char *name;
	char *description;
	char *source;      /* tarball or tree */
	char **fragments;  /* absolute paths, without base.config; NULL-terminated */
};

/* 0 and *out filled; -1 no such file; -2 after printing a parse error. */
int config_load_line(const char *name, struct line_def *out);
/* Sorted, NULL-terminated line names (hb_free_strv). */
char **config_list_lines(void);
/* 0; or -1 with *why "unknown kernel line 'x' (accepted: 6.1, 6.12)". */
int config_require_line(const char *name, struct line_def *out, char **why);
/* The same check without the definition: 0; or -1 with *why "WHAT: unknown kernel line ...". */
int config_check_line(const char *name, const char *what, char **why);
void line_def_free(struct line_def *l);

/* The source of a line given --source values (each "LINE=PATH", or a plain PATH that
 * means the default line's, as before lines): the matching value, else NULL (the line's
 * own). */
const char *kline_source_for(char *const *sources, const char *line);
/* Checks every --source value: a known line before '=', and a tree or tarball. */
int kline_check_sources(char *const *sources, char **why);
/* Every --source value is for one of lines (a plain path: the default line's), so none is
 * silently ignored: 0, or -1 with *why naming the value and the lines. */
int kline_check_sources_used(char *const *sources, char *const *lines, char **why);

/* Option checks for the entries below (base unused). */
int kline_check_option(void *base, const char *value, char **why);
int kline_check_source_option(void *base, const char *value, char **why);

#define KLINE_OPTION(offset)                                                                  \
	{ "kernel-line", 0, HB_OPT_STRING, "LINE", "kernel line (default " HB_DEFAULT_LINE           \
	  "; kernel-configs/lines/)", .off = (offset), .set = kline_check_option,              \
	  .group = HB_OG_WHAT, .complete = HB_CMP_LINES }
#define KLINE_SOURCE_OPTION(offset)                                                           \
	{ "source", 0, HB_OPT_STR_REPEAT, "[LINE=]DIR|TARBALL", "kernel source of a line\n"      \
	  "(default: the line's Debian tarball; a plain path is " HB_DEFAULT_LINE "'s)",              \
	  .off = (offset), .set = kline_check_source_option, .group = HB_OG_ADVANCED,          \
	  .complete = HB_CMP_FILE }

#endif
