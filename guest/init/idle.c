/* The guest's own account of its idle time, in nanoseconds, for `harness run --profile`.
 *
 * Why: under icount with sleep=off a halted guest lets the virtual clock jump to its next
 * timer without executing anything, so a timed section's clock time is its instructions
 * plus those jumps. The profile plugin counts the instructions; the kernel's tick-sched
 * accounting (idle_sleeptime and iowait_sleeptime per CPU, ktime nanoseconds, printed by
 * /proc/timer_list since 2.6) measures the halted time. With one vCPU the two add up to
 * the section's time. /proc/stat and /proc/uptime round the same figures to 10 ms. */
#include <stdlib.h>
#include <string.h>

#include "helper.h"
#include "init.h"

long long idle_sleep_ns(void)
{
	static const char *const keys[] = { ".idle_sleeptime", ".iowait_sleeptime" };
	char *text = helper_read_file("/proc/timer_list");
	long long total = 0;
	int found = 0;

	if (!text)
		return -1;
	for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *p = line + strspn(line, " ");
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k]);
			char *colon;
			if (strncmp(p, keys[k], n) || (p[n] != ' ' && p[n] != ':'))
				continue;
			colon = strchr(p, ':');
			if (colon) {
				total += strtoll(colon + 1, NULL, 10);
				found++;
			}
		}
	}
	free(text);
	return found ? total : -1;
}
