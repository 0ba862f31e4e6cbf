#include "common/ini.h"

#include <errno.h>
#include <string.h>

#include "common/log.h"

int hb_ini_load(const char *path, ini_handler handler, void *user, char *const *why)
{
	int line = ini_parse(path, handler, user);

	if (line == 0 && !*why)
		return 0;
	if (line < 0)
		hb_error("%s: cannot read: %s", path, line == -1 ? strerror(errno) : "out of memory");
	else
		hb_error("%s:%d: %s", path, line,
			 *why ? *why : "not an INI line (expected key = value, at most 199 characters)");
	return -1;
}
