#include "boot/tsc.h"

#include <libcpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* The TSC rate does not change while the host runs: measure once per host boot. */
long host_tsc_khz(void)
{
	char *path = hb_cache_file("host-tsc-khz");
	char *text = hb_read_file(path, NULL), *boot_id = hb_read_file("/proc/sys/kernel/random/boot_id", NULL);
	long khz = 0;
	char id[64] = "";

	if (text && boot_id && sscanf(text, "%63s %ld", id, &khz) == 2 && !strncmp(id, boot_id, strlen(id)))
		goto out;
	khz = cpuid_present() ? (long)cpu_clock_measure(100, 1) * 1000 : 0;
	if (khz > 0 && boot_id) {
		char *line = xasprintf("%.*s %ld\n", (int)strcspn(boot_id, "\n"), boot_id, khz);
		hb_write_file_atomic(path, line, strlen(line));
		free(line);
	}
out:
	free(text);
	free(boot_id);
	free(path);
	return khz > 0 ? khz : 0;
}
