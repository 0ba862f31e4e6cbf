#include "report/cliopt.h"

#include <getopt.h>
#include <stdio.h>

#include "common/log.h"

void hb_getopt_begin(void)
{
	optind = 0; /* glibc: 0 re-initialises the scanner, in case a command runs twice */
	opterr = 0;
}

void hb_option_error(const char *cmd, int c, char **argv, const char *accepted)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		hb_usage_error("%s: option '%s' needs a value (accepted options: %s)", cmd, arg, accepted);
	hb_usage_error("%s: unknown option '%s' (accepted options: %s)", cmd, arg, accepted);
}
