/* The guest's clock: the host's (plain TCG or KVM: guest time is wall time, so host load
 * lands in every sample) or QEMU's instruction counter (-icount: guest time is the count
 * of guest instructions, 2^shift ns each, and host load no longer changes it).
 *
 * An icount number counts instructions, not cycles: a `rep stosb` clearing a page counts
 * every iteration, cache and TLB misses cost nothing. Its slowdowns are biased (memory
 * clearing looks expensive) but reproducible, like the instruction counts projects track
 * in CI because cycles are too noisy on shared machines. Never mixed with host-clock
 * samples: each sample and meta.json say which clock measured them. */
#ifndef HB_BOOT_CLOCK_H
#define HB_BOOT_CLOCK_H

#include <stdbool.h>

#include "boot/vm_types.h"

/* 1 ns per instruction: a 1 GHz in-order guest. Timers (HZ ticks, hrtimers) fire every
 * 10^6 instructions; a larger shift would only stretch time, not add resolution. */
#define ICOUNT_SHIFT 0
/* Under icount the guest's TSC counts virtual nanoseconds (QEMU's cpu_get_ticks returns
 * the icount clock), so it runs at exactly 1 GHz whatever the host does. */
#define ICOUNT_TSC_KHZ (1000000L >> ICOUNT_SHIFT)

/* QEMU's APIC timer counts virtual nanoseconds: its input clock is 1 GHz, which
 * lapic_timer_khz= (kernel-configs/patches/common) gives the guest so that it does not
 * spin 100 ms of guest time calibrating it: under icount that spin cost 9.0 s of an
 * 11.5 s boot (every pause of its rdtsc loop leaves TCG's translated code). */
#define ICOUNT_LAPIC_TIMER_KHZ 1000000L

/* The guest's RTC start under icount (see qemu_argv.c). */
#define ICOUNT_RTC_BASE "2030-01-01T00:00:00"

/* "host", "icount", "auto" or "model". */
const char *guest_clock_name(enum guest_clock c);
/* "host", "icount", "auto" or "model" -> 0, else (NULL included) -1. */
int guest_clock_parse(const char *name, enum guest_clock *out);
/* Whether the guest runs under QEMU's instruction counter: icount, and model (icount with
 * a plugin that prices the marked sections; docs/model.md). */
bool clock_runs_icount(enum guest_clock c);

/* The clock a workload runs under, once the accel is known (KVM or TCG). HOST and ICOUNT,
 * as asked, are kept. AUTO: icount under TCG, where the host clock's noise (hackbench cv
 * 4-29%, kbuild ~12% on the development machine) is larger than the seeds' effects (+0.5%
 * to +8%) and the instruction count repeats from boot to boot; host under KVM, where the
 * guest runs natively and QEMU has no instruction counter. A workload whose workload.ini
 * says it is not deterministic under icount (icount_caveat, its reason; NULL: it is) gets
 * host from AUTO under TCG too. *why (malloc'd): "auto: TCG", "auto: KVM", "asked for
 * (--clock host)", or "auto: kbuild is not deterministic under icount: <reason>". */
enum guest_clock clock_resolve(enum guest_clock asked, enum accel_kind accel, const char *workload,
			       const char *icount_caveat, char **why);

/* The accel to ask for under this clock: icount and model are TCG-only, so AUTO becomes
 * TCG (with *reason) and KVM is refused (-1, *why: one line for the usage error). */
int clock_accel_want(enum guest_clock c, enum accel_kind want, enum accel_kind *out,
		     char **reason, char **why);

/* Whether `cores` vCPUs under icount need bringing up after boot: QEMU before 8.1 gives
 * the whole instruction budget up to the next timer to the first vCPU of its round-robin
 * thread, so a second vCPU that the first busy-waits for during SMP bring-up never runs
 * (the boot livelocks at "Booting SMP configuration"; fixed upstream by
 * "accel/tcg/tcg-accel-ops-rr: ensure fairness with icount", QEMU 8.1). Once booted, the
 * first vCPU's one-shot timer re-arms hand the others their turns: so the guest boots with
 * maxcpus=1 and its init brings the rest online. The virtual clock counts the
 * instructions of all vCPUs together: SMP under icount has SMP's semantics (IPIs, TLB
 * shootdowns, locks) but no parallel speed-up. */
bool clock_needs_hotplug(enum guest_clock c, int cores);

#endif
