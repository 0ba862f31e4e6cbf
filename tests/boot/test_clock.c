/* --clock auto's rule (boot/clock.c: clock_resolve): icount under TCG, host under KVM, host
 * for a workload that says it is not deterministic under icount; an asked-for clock is
 * kept whatever the accel and the workload say. And the names the option accepts. */
#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "test.h"

/* Each row: what was asked, the accel, the workload's caveat; the answer and its reason. */
static const struct {
	enum guest_clock asked;
	enum accel_kind accel;
	const char *caveat;
	enum guest_clock want;
	const char *why;
} rule[] = {
	{ CLOCK_AUTO, ACCEL_TCG, NULL, CLOCK_ICOUNT, "auto: TCG" },
	{ CLOCK_AUTO, ACCEL_KVM, NULL, CLOCK_HOST, "auto: KVM" },
	/* KVM's answer does not depend on the workload's caveat; TCG's does. */
	{ CLOCK_AUTO, ACCEL_KVM, "waits on I/O", CLOCK_HOST, "auto: KVM" },
	{ CLOCK_AUTO, ACCEL_TCG, "waits on I/O", CLOCK_HOST,
	  "auto: kbuild is not deterministic under icount: waits on I/O" },
	/* An asked-for clock is kept, caveat or not. */
	{ CLOCK_HOST, ACCEL_TCG, NULL, CLOCK_HOST, "asked for (--clock host)" },
	{ CLOCK_ICOUNT, ACCEL_TCG, "waits on I/O", CLOCK_ICOUNT, "asked for (--clock icount)" },
	{ CLOCK_MODEL, ACCEL_TCG, "waits on I/O", CLOCK_MODEL, "asked for (--clock model)" },
};

TEST(auto_rule)
{
	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++) {
		char *why = NULL;
		CHECK(clock_resolve(rule[i].asked, rule[i].accel, "kbuild", rule[i].caveat, &why) ==
		      rule[i].want);
		CHECK_STR(why, rule[i].why);
		free(why);
	}
}

TEST(icount_forces_tcg_and_refuses_kvm)
{
	enum accel_kind out = ACCEL_NONE;
	char *reason = NULL, *why = NULL;

	CHECK(clock_accel_want(CLOCK_ICOUNT, ACCEL_KVM, &out, NULL, &why) == -1);
	CHECK(why && strstr(why, "--clock icount"));
	free(why);
	CHECK(clock_accel_want(CLOCK_ICOUNT, ACCEL_AUTO, &out, &reason, &why) == 0);
	CHECK(out == ACCEL_TCG);
	free(reason);
	/* auto and host leave the accel to its own resolution, KVM included. */
	CHECK(clock_accel_want(CLOCK_AUTO, ACCEL_KVM, &out, NULL, &why) == 0);
	CHECK(out == ACCEL_KVM);
}

/* --clock model runs the guest under icount: TCG only, KVM refused in one line that names
 * the model (not icount), and QEMU gets -icount and the SMP hotplug like icount. */
TEST(model_runs_icount_and_refuses_kvm)
{
	enum accel_kind out = ACCEL_NONE;
	char *reason = NULL, *why = NULL;

	CHECK(clock_runs_icount(CLOCK_MODEL));
	CHECK(clock_runs_icount(CLOCK_ICOUNT));
	CHECK(!clock_runs_icount(CLOCK_HOST));
	CHECK(!clock_runs_icount(CLOCK_AUTO));
	CHECK(clock_accel_want(CLOCK_MODEL, ACCEL_KVM, &out, NULL, &why) == -1);
	CHECK(why && strstr(why, "--clock model") && !strchr(why, '\n'));
	free(why);
	why = NULL;
	CHECK(clock_accel_want(CLOCK_MODEL, ACCEL_AUTO, &out, &reason, &why) == 0);
	CHECK(out == ACCEL_TCG);
	CHECK(reason && strstr(reason, "--clock model"));
	free(reason);
}

TEST(clock_names_round_trip)
{
	enum guest_clock c;

	for (int i = CLOCK_HOST; i <= CLOCK_MODEL; i++) {
		CHECK(guest_clock_parse(guest_clock_name((enum guest_clock)i), &c) == 0);
		CHECK(c == (enum guest_clock)i);
	}
	CHECK(guest_clock_parse("tsc", &c) == -1);
	CHECK(guest_clock_parse(NULL, &c) == -1);
}
TEST_MAIN()
