#include "boot/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/qemu_version.h"
#include "common/spawn.h"
#include "common/xalloc.h"

#define ICOUNT_SMP_QEMU 801 /* 8.1: the round-robin fairness fix */

static const char *const clock_names[] = { [CLOCK_HOST] = "host", [CLOCK_ICOUNT] = "icount",
					   [CLOCK_AUTO] = "auto", [CLOCK_MODEL] = "model" };

const char *guest_clock_name(enum guest_clock c)
{
	return c == CLOCK_ICOUNT || c == CLOCK_AUTO || c == CLOCK_MODEL ? clock_names[c]
									 : clock_names[CLOCK_HOST];
}

bool clock_runs_icount(enum guest_clock c)
{
	return c == CLOCK_ICOUNT || c == CLOCK_MODEL;
}

int guest_clock_parse(const char *name, enum guest_clock *out)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(clock_names) / sizeof(clock_names[0]); i++)
		if (!strcmp(name, clock_names[i])) {
			*out = (enum guest_clock)i;
			return 0;
		}
	return -1;
}

enum guest_clock clock_resolve(enum guest_clock asked, enum accel_kind accel, const char *workload,
			       const char *icount_caveat, char **why)
{
	if (asked != CLOCK_AUTO) {
		*why = xasprintf("asked for (--clock %s)", guest_clock_name(asked));
		return asked;
	}
	if (accel == ACCEL_KVM) {
		*why = xstrdup("auto: KVM");
		return CLOCK_HOST;
	}
	if (icount_caveat) {
		*why = xasprintf("auto: %s is not deterministic under icount: %s", workload, icount_caveat);
		return CLOCK_HOST;
	}
	*why = xstrdup("auto: TCG");
	return CLOCK_ICOUNT;
}

int clock_accel_want(enum guest_clock c, enum accel_kind want, enum accel_kind *out,
		     char **reason, char **why)
{
	*out = want;
	if (!clock_runs_icount(c))
		return 0;
	if (want == ACCEL_KVM) {
		*why = c == CLOCK_MODEL
			? xstrdup("--clock model: needs --accel tcg or auto (the model prices what a "
				  "TCG plugin counts under QEMU's instruction counter; KVM runs guest "
				  "code natively, where --clock host is the hardware's own time)")
			: xstrdup("--clock icount: needs --accel tcg or auto (QEMU's instruction "
				  "counter exists only under TCG; KVM runs guest code natively)");
		return -1;
	}
	if (reason)
		*reason = want == ACCEL_AUTO
			? xasprintf("--clock %s (the instruction counter is TCG-only)", guest_clock_name(c))
			: xstrdup("asked for (--accel tcg)");
	*out = ACCEL_TCG;
	return 0;
}

bool clock_needs_hotplug(enum guest_clock c, int cores)
{
	return clock_runs_icount(c) && cores > 1 && qemu_version_number() < ICOUNT_SMP_QEMU;
}
