/* One entry point per subcommand; each lives in the folder of its stage. */
#ifndef HB_COMMANDS_H
#define HB_COMMANDS_H

#include <stdbool.h>

#include "common/options.h"

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	bool uses_cache; /* the cache is checked (common/paths.h hb_cache_check) first */
	const struct hb_cmdspec *spec; /* its option table: --help, man page, completion */
};

int cmd_import(int argc, char **argv);   /* import/ */
int cmd_report(int argc, char **argv);   /* report/ */
int cmd_plot(int argc, char **argv);     /* plot/ */
int cmd_gate(int argc, char **argv);     /* gate/ */
int cmd_hostinfo(int argc, char **argv); /* hostinfo/ */
int cmd_list(int argc, char **argv);     /* workload/ (with configs/list.c) */
int cmd_build(int argc, char **argv);    /* kernel/ */
int cmd_boot(int argc, char **argv);     /* boot/ */
int cmd_run(int argc, char **argv);      /* executor/ */
int cmd_merge(int argc, char **argv);    /* results/ */

/* Each command's option table, beside its entry point: main.c lists them for the man
 * pages and the shell completion (common/optdoc.h). */
extern const struct hb_cmdspec run_spec, build_spec, boot_spec, report_spec, plot_spec,
	gate_spec, merge_spec, import_spec, list_spec, hostinfo_spec;

#endif
