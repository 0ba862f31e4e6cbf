#include "boot/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/qemu_version.h"
#include "common/spawn.h"
#include "common/xalloc.h"

#define ICOUNT_SMP_QEMU 801 /* 8.1: the round-robin fairness fix */

const char *guest_clock_name(enum guest_clock c)
{
	return c == CLOCK_ICOUNT ? "icount" : "host";
}

int guest_clock_parse(const char *name, enum guest_clock *out)
{
	if (!name)
		return -1;
	if (!strcmp(name, "host"))
		*out = CLOCK_HOST;
	else if (!strcmp(name, "icount"))
		*out = CLOCK_ICOUNT;
	else
		return -1;
	return 0;
}

int clock_accel_want(enum guest_clock c, enum accel_kind want, enum accel_kind *out,
		     char **reason, char **why)
{
	*out = want;
	if (c != CLOCK_ICOUNT)
		return 0;
	if (want == ACCEL_KVM) {
		*why = xstrdup("--clock icount: needs --accel tcg or auto (QEMU's instruction "
			       "counter exists only under TCG; KVM runs guest code natively)");
		return -1;
	}
	if (reason)
		*reason = xstrdup(want == ACCEL_AUTO ? "--clock icount (the instruction counter is "
				  "TCG-only)" : "asked for (--accel tcg)");
	*out = ACCEL_TCG;
	return 0;
}

bool clock_needs_hotplug(enum guest_clock c, int cores)
{
	return c == CLOCK_ICOUNT && cores > 1 && qemu_version_number() < ICOUNT_SMP_QEMU;
}
