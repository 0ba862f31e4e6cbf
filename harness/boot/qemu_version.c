/* One reader of QEMU's version: the
 * clock setup the number (icount with SMP needs 8.1), meta.json the record of which QEMU
 * counted (results/provenance.h); and the binary's identity, which the KVM probe's cache
 * key wants without running QEMU on every boot. */
#include "boot/qemu_version.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

char *qemu_binary_identity(void)
{
	char *path = hb_find_program(QEMU_BINARY), *id;
	struct stat st;

	if (!path || stat(path, &st) < 0) {
		free(path);
		return xstrdup("none");
	}
	id = xasprintf("%s dev %ju ino %ju size %jd mtime %jd.%09ld", path, (uintmax_t)st.st_dev,
		       (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
		       st.st_mtim.tv_nsec);
	free(path);
	return id;
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

json_object *qemu_provenance_json(const char *accel, char *const *plugins)
{
	json_object *q = json_object_new_object(), *pl = json_object_new_array();
	char *line = qemu_version_line();
	const char *v = strstr(line, "version ");

	json_object_object_add(q, "version", json_object_new_string(v ? v + strlen("version ") : line));
	json_object_object_add(q, "binary", json_object_new_string(QEMU_BINARY));
	json_object_object_add(q, "cpu", json_object_new_string(qemu_cpu_model(accel)));
	for (size_t i = 0; plugins && plugins[i]; i++)
		json_object_array_add(pl, json_object_new_string(plugins[i]));
	json_object_object_add(q, "plugins", pl);
	free(line);
	return q;
}
