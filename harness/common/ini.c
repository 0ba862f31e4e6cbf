#include "common/ini.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

/* inih reads at most INI_MAX_LINE - 1 (199) characters of a line and parses the rest as a
 * line of its own, so an over-long help line came out as a puzzling "unknown key"
 * further on. The first such line's number, or 0. */
static int first_long_line(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0, found = 0;

	while (f && !found && (len = getline(&buf, &cap, f)) >= 0) {
		n++;
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		if (len > 0 && buf[len - 1] == '\r')
			len--;
		if (len > INI_MAX_LINE - 1)
			found = n;
	}
	free(buf);
	if (f)
		fclose(f);
	return found;
}

int hb_ini_load(const char *path, ini_handler handler, void *user, char *const *why)
{
	int long_line = first_long_line(path), line;

	if (long_line) {
		hb_error("%s:%d: longer than %d characters, inih's limit (accepted: a shorter line)",
			 path, long_line, INI_MAX_LINE - 1);
		return -1;
	}
	line = ini_parse(path, handler, user);

	if (line == 0 && !*why)
		return 0;
	if (line < 0)
		hb_error("%s: cannot read: %s", path, line == -1 ? strerror(errno) : "out of memory");
	else
		hb_error("%s:%d: %s", path, line,
			 *why ? *why : "not an INI line (expected key = value, at most 199 characters)");
	return -1;
}
