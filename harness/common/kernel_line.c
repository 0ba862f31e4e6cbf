#include "common/kernel_line.h"

#include <string.h>

bool hb_is_default_line(const char *line)
{
	return !line || !strcmp(line, HB_DEFAULT_LINE);
}
