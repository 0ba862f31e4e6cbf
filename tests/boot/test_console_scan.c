/* Crash lines from console logs captured in real boots: a sysrq-triggered panic, and a
 * normal boot that must not look like one. */
#include <stdlib.h>
#include <string.h>

#include "boot/console_scan.h"
#include "test.h"
#include "common/fileutil.h"
#include "common/xalloc.h"

/* DATA_DIR/name's text; NULL after a failed check. */
static char *load(int *failures, const struct test_state *t, const char *name)
{
	const char *dir = test_arg(failures, t, 1);
	char *path, *text;

	if (!dir)
		return NULL;
	path = xasprintf("%s/%s", dir, name);
	text = hb_read_file(path, NULL);
	CHECK(text != NULL, "cannot read %s", path);
	free(path);
	return text;
}

/* A sysrq-triggered panic: its line, quoted. */
TEST(sysrq_panic)
{
	char *panic = load(failures, t, "sysrq-panic.console.log"), *crash;

	if (!panic)
		return;
	crash = console_find_crash(panic);
	CHECK_STR(crash, "Kernel panic - not syncing: sysrq triggered crash");
	free(crash);
	free(panic);
}

/* A normal boot is no crash; its last line is the power-off, without the timestamp. */
TEST(normal_boot)
{
	char *normal = load(failures, t, "normal-boot.console.log"), *last;

	if (!normal)
		return;
	CHECK(console_find_crash(normal) == NULL);
	last = console_last_line(normal);
	CHECK(last && last[0] != '[' && strstr(last, "Power down"));
	free(last);
	free(normal);
	CHECK(console_last_line("") == NULL);
}

/* An oops followed by the panic it causes: both quoted, timestamps gone. */
TEST(oops_then_panic)
{
	const char *oops = "[    1.0] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
			   "[    1.1] Oops: 0002 [#1] PREEMPT SMP\n[    1.2] RIP: 0010:foo+0x1/0x2\n"
			   "[    1.3] Kernel panic - not syncing: Fatal exception\n";
	char *crash = console_find_crash(oops);

	CHECK_STR(crash, "BUG: kernel NULL pointer dereference, address: 0000000000000000 | "
		  "Oops: 0002 [#1] PREEMPT SMP | Kernel panic - not syncing: Fatal exception");
	free(crash);
}

TEST_MAIN()
