/* The guest init's /proc/interrupts counting (guest/init/interrupts.c, compiled in), on
 * rows captured from real guests (tests/data/guest/interrupts-*.txt, README.md there says
 * how): sums over CPUs, single-count rows, numbered rows, missing rows, and the lines
 * irq_report sends (read back through a pipe).
 * usage: test_interrupts DATA_DIR (TAP) */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "init.h"
#include "scratch.h"
#include "test.h"

static char *capture(int *failures, const struct test_state *t, const char *name)
{
	const char *dir = test_arg(failures, t, 1);
	char *text = dir ? scratch_read(dir, name) : NULL;

	CHECK(!dir || text, "cannot read %s/%s", dir, name);
	return text;
}

/* The row's sum, or -1 when irq_row_sum refuses it (why in *why_out when asked). */
static long long row(const char *text, const char *label, char *why_out)
{
	char why[INIT_WHY_MAX] = "";
	unsigned long long sum;
	int rc = irq_row_sum(text, label, &sum, why);

	if (why_out)
		strcpy(why_out, why);
	return rc < 0 ? -1 : (long long)sum;
}

TEST(two_cpus)
{
	char *text = capture(failures, t, "interrupts-baseline-c2.txt");
	char why[INIT_WHY_MAX];

	if (!text)
		return;
	CHECK(row(text, "CAL", NULL) == 691 + 644, "CAL: %lld", row(text, "CAL", NULL));
	CHECK(row(text, "LOC", NULL) == 196 + 164);
	CHECK(row(text, "RES", NULL) == 8 + 7);
	CHECK(row(text, "TLB", NULL) == 0);      /* present, zero: a count, not a gap */
	CHECK(row(text, "50", NULL) == 116);     /* numbered rows: the description is no count */
	CHECK(row(text, "ERR", NULL) == 0);      /* one global count, not one per CPU */
	CHECK(row(text, "IO", NULL) == -1);      /* a word of a description is no label */
	CHECK(row(text, "cal", why) == -1);      /* labels are case-sensitive */
	CHECK(row(text, "XYZ", why) == -1);
	CHECK_STR(why, "no row 'XYZ' in the guest's /proc/interrupts");
	free(text);
}

TEST(one_cpu_and_xpfo)
{
	char *c1 = capture(failures, t, "interrupts-baseline-c1.txt");
	char *xp = capture(failures, t, "interrupts-xpfo-c2.txt");

	if (c1) {
		CHECK(row(c1, "LOC", NULL) == 209);
		CHECK(row(c1, "50", NULL) == 115); /* "IO-APIC  22-fasteoi" must not add 22 */
		CHECK(row(c1, "CAL", NULL) == 0);
	}
	if (xp)
		CHECK(row(xp, "CAL", NULL) == 762 + 690);
	free(c1);
	free(xp);
}

TEST(malformed)
{
	char why[INIT_WHY_MAX];

	CHECK(row("CAL: 5 6 Function call interrupts\n", "CAL", why) == -1);
	CHECK_HAS(why, "no CPU header");
	CHECK(row("  CPU0 CPU1\nCAL: Function call interrupts\n", "CAL", why) == -1);
	CHECK_HAS(why, "row 'CAL' of /proc/interrupts has no count");
	/* more numbers than CPUs: the rest is the description's */
	CHECK(row("  CPU0 CPU1\n 7: 1 2 3 edge\n", "7", NULL) == 3);
	CHECK(row("  CPU0 CPU1\nCAL: 1 2x\n", "CAL", NULL) == 1);
	CHECK(row("  CPU0\nCAL: 99999999999999999999999\n", "CAL", why) == -1); /* overflow */
}

/* What irq_report writes for before/after snapshots, read back from a pipe. */
static char *report(const char *before, const char *after, const char *const *labels)
{
	int fds[2];
	char buf[4096];
	ssize_t n;

	if (pipe(fds) < 0)
		return NULL;
	irq_report(fds[1], (char *const *)labels, before, after, "cannot read /proc/interrupts: EACCES");
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	return xstrdup(buf);
}

TEST(report_lines)
{
	char *base = capture(failures, t, "interrupts-baseline-c2.txt");
	char *xp = capture(failures, t, "interrupts-xpfo-c2.txt");
	const char *labels[] = { "CAL", "TLB", "NOPE", NULL };
	char *out;

	if (!base || !xp)
		return;
	out = report(base, xp, labels);
	CHECK_STR(out, "irq CAL 117\nirq TLB 0\nnoirq NOPE no row 'NOPE' in the guest's /proc/interrupts\n");
	free(out);
	out = report(xp, base, (const char *[]){ "CAL", NULL });
	CHECK_STR(out, "noirq CAL row 'CAL' went down from 1452 to 1335 (a CPU went offline?)\n");
	free(out);
	out = report(NULL, NULL, (const char *[]){ "CAL", NULL });
	CHECK_STR(out, "noirq CAL cannot read /proc/interrupts: EACCES\n");
	free(out);
	free(base);
	free(xp);
}

TEST_MAIN()
