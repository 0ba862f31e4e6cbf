/* One reader of QEMU's version: the KVM probe's cache key wants the whole line, the
 * clock setup the number (icount with SMP needs 8.1). */
#include "boot/qemu_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/qemu_argv.h"
#include "common/spawn.h"
#include "common/xalloc.h"

char *qemu_version_line(void)
{
	char *argv[] = { QEMU_BINARY, "--version", NULL };
	int rc;
	char *out = hb_have_program(QEMU_BINARY) ? hb_run_capture(argv, &rc) : NULL;
	const char *text = out ? out : "none";
	char *line = xstrndup(text, strcspn(text, "\n"));

	free(out);
	return line;
}

int qemu_version_number(void)
{
	char *line = qemu_version_line();
	const char *p = strstr(line, "version ");
	int major, minor, v = -1;

	if (p && sscanf(p, "version %d.%d", &major, &minor) == 2)
		v = major * 100 + minor;
	free(line);
	return v;
}
