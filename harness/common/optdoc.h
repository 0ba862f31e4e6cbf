/* Documentation generated from the option tables (common/options.h), so it cannot drift
 * from what getopt accepts and --help prints: a man page per command and harness(1), and
 * a bash completion script. The build runs `harness help --man NAME` and `harness help
 * --completion bash` (main.c) and installs what they print, as fio and virtme-ng
 * generate theirs from their parsers. */
#ifndef HB_COMMON_OPTDOC_H
#define HB_COMMON_OPTDOC_H

#include <stddef.h>
#include <stdio.h>

#include "common/options.h"

/* One command as the index lists it. */
struct hb_doc_cmd {
	const char *name;
	const char *summary;
	const struct hb_cmdspec *spec;
};

/* harness-CMD(1): NAME, SYNOPSIS, DESCRIPTION, OPTIONS (by group; hidden ones left out),
 * EXAMPLES, EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO. */
void hb_doc_man_command(const struct hb_doc_cmd *c, const struct hb_doc_cmd *all, size_t n,
			const char *version, FILE *f);
/* harness(1): the commands, then what every command shares. */
void hb_doc_man_index(const struct hb_doc_cmd *all, size_t n, const char *version, FILE *f);
/* A bash completion script for `harness`: commands, each command's options, the choices
 * of CHOICE options, and data values (variants, builds, workloads, kernel lines,
 * parameters) asked of `harness list --names` when completing, --configs folders given on
 * the line included. */
void hb_doc_completion_bash(const struct hb_doc_cmd *all, size_t n, FILE *f);

#endif
