/* Placeholder until the analysis commands land: each says so and exits 2. */
#include "commands.h"
#include "common/log.h"

int cmd_import(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int cmd_report(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int cmd_plot(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int cmd_gate(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int cmd_hostinfo(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
