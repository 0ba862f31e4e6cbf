/* The "irq LABEL" counts of a job (PROTOCOL.md): /proc/interrupts read before and after
 * each rep, and per label the row's sum over all CPUs, after minus before.
 *
 * /proc/interrupts (kernel/irq/proc.c, arch/x86/kernel/irq.c): a header naming the online
 * CPUs ("CPU0 CPU1"), then one row per interrupt: the label right-aligned before a colon,
 * one count per online CPU, then a description ("Function call interrupts"). A few rows
 * carry a single global count (x86's ERR and MIS), so a row's counts end at the CPU count
 * or at the first word that is not a number, whichever comes first. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init.h"

#define PROC_INTERRUPTS "/proc/interrupts"

/* The number of "CPUn" words on the header line; 0 when the first line has none. */
static int header_cpus(const char *text)
{
	const char *end = strchr(text, '\n');
	int n = 0;

	if (!end)
		end = text + strlen(text);
	for (const char *p = text; p < end; p++)
		if (!strncmp(p, "CPU", 3) && (p == text || isspace((unsigned char)p[-1])))
			n++;
	return n;
}

/* The row whose label is label: a pointer just past its colon, or NULL. */
static const char *find_row(const char *text, const char *label)
{
	size_t len = strlen(label);

	for (const char *line = text; *line;) {
		const char *p = line + strspn(line, " \t"), *next = strchr(line, '\n');
		if (!strncmp(p, label, len) && p[len] == ':')
			return p + len + 1;
		if (!next)
			break;
		line = next + 1;
	}
	return NULL;
}

int irq_row_sum(const char *text, const char *label, unsigned long long *sum,
		char why[INIT_WHY_MAX])
{
	int cpus = header_cpus(text), counted = 0;
	const char *p;

	*sum = 0;
	if (cpus == 0) {
		init_set_why(why, 0, "no CPU header in " PROC_INTERRUPTS);
		return -1;
	}
	if (!(p = find_row(text, label))) {
		init_set_why(why, 0, "no row '%s' in the guest's " PROC_INTERRUPTS, label);
		return -1;
	}
	while (counted < cpus) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break; /* the description, or the end of the line */
		errno = 0;
		unsigned long long v = strtoull(p, &end, 10);
		if (errno || (*end && !isspace((unsigned char)*end)))
			break;
		*sum += v;
		counted++;
		p = end;
	}
	if (!counted) {
		init_set_why(why, 0, "row '%s' of " PROC_INTERRUPTS " has no count", label);
		return -1;
	}
	return 0;
}

char *irq_snapshot(char why[INIT_WHY_MAX])
{
	int fd = open(PROC_INTERRUPTS, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 16384;
	char *text = malloc(cap);

	if (fd < 0 || !text) {
		init_set_why(why, errno, "cannot read " PROC_INTERRUPTS);
		free(text);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		if (len + 1 >= cap) {
			char *bigger = realloc(text, cap * 2);
			if (!bigger)
				break;
			text = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	return text;
}

void irq_report(int port, char *const *labels, const char *before, const char *after,
		const char *snap_why)
{
	char why[INIT_WHY_MAX];

	for (size_t i = 0; labels && labels[i]; i++) {
		unsigned long long a, b;
		why[0] = '\0';
		if (!before || !after)
			port_line(port, HB_LINE_NOIRQ, labels[i], snap_why);
		else if (irq_row_sum(before, labels[i], &a, why) < 0 ||
			 irq_row_sum(after, labels[i], &b, why) < 0)
			port_line(port, HB_LINE_NOIRQ, labels[i], why);
		else if (b < a) /* a CPU went offline during the rep: its counts left the sum */
			port_line(port, "noirq %s row '%s' went down from %llu to %llu (a CPU went offline?)",
				  labels[i], labels[i], a, b);
		else
			port_line(port, HB_LINE_IRQ, labels[i], b - a);
	}
}
