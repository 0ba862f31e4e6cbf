/* Placeholder until the guest path lands. */
#include "commands.h"
#include "common/log.h"

int cmd_boot(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
