/* Crash lines from console logs captured in real boots: a sysrq-triggered panic, and a
 * normal boot that must not look like one. */
#include <stdlib.h>
#include <string.h>

#include "boot/console_scan.h"
#include "check.h"
#include "common/fileutil.h"
#include "common/xalloc.h"

static char *load(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = hb_read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	free(path);
	return text;
}

int main(int argc, char **argv)
{
	int failed = 0, *failures = &failed;
	char *panic, *normal, *crash, *last;

	if (argc != 2)
		return 2;
	panic = load(argv[1], "sysrq-panic.console.log");
	normal = load(argv[1], "normal-boot.console.log");

	crash = console_find_crash(panic);
	CHECK_STR(crash, "Kernel panic - not syncing: sysrq triggered crash");
	free(crash);
	CHECK(console_find_crash(normal) == NULL);

	last = console_last_line(normal);
	CHECK(last && last[0] != '[' && strstr(last, "Power down"));
	free(last);

	/* An oops followed by the panic it causes: both quoted, timestamps gone. */
	const char *oops = "[    1.0] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
			   "[    1.1] Oops: 0002 [#1] PREEMPT SMP\n[    1.2] RIP: 0010:foo+0x1/0x2\n"
			   "[    1.3] Kernel panic - not syncing: Fatal exception\n";
	crash = console_find_crash(oops);
	CHECK_STR(crash, "BUG: kernel NULL pointer dereference, address: 0000000000000000 | "
		  "Oops: 0002 [#1] PREEMPT SMP | Kernel panic - not syncing: Fatal exception");
	free(crash);
	CHECK(console_last_line("") == NULL);
	free(panic);
	free(normal);
	return failed ? 1 : 0;
}
