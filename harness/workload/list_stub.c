/* Placeholder until `harness list` lands. */
#include "commands.h"
#include "common/log.h"

int cmd_list(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
