/* Choosing KVM or TCG, above vm_run: callers resolve the accel with accel_resolve() and
 * hand vm_run the answer (KVM or TCG, never AUTO); the KVM probe is itself a vm_run.
 *
 * Opening /dev/kvm is not enough: nested KVM can create a VM whose guest then hangs in
 * early boot. So "auto" boots the kernel once under KVM with no job and a short timeout,
 * looking for the init's hello; the answer is cached per host (kernel, CPU model, QEMU
 * binary) for a day in hb_cache_dir()/accel-probes.json. */
#ifndef HB_BOOT_ACCEL_H
#define HB_BOOT_ACCEL_H

#include <stdbool.h>

#include "boot/vm.h"

#define ACCEL_PROBE_TIMEOUT_S 8.0
/* After a failed KVM probe, the same kernel under TCG (about 1.5 s to the init here):
 * whose fault the failure was. */
#define ACCEL_PROBE_TCG_TIMEOUT_S 60.0
#define ACCEL_CACHE_TTL_S (24 * 3600)

/* want as given by --accel -> ACCEL_KVM or ACCEL_TCG, and *reason (malloc'd, one line:
 * why that one). AUTO probes KVM with k (a short real boot) unless the cache answers;
 * may_probe false (a dry run): the cached answer or TCG, never a boot.
 * Only KVM's failures are cached: no KVM_CREATE_VM, or a guest that fails under KVM but
 * boots under TCG. A kernel that boots under neither gives ACCEL_NONE (*reason says so):
 * the kernel's fault, reported as such by the caller, and nothing is cached. */
enum accel_kind accel_resolve(enum accel_kind want, const struct kernel_image *k,
			      bool may_probe, char **reason);

/* The accel under clock c: TCG when c is ICOUNT (the counter is TCG-only; --accel kvm
 * was refused by clock_accel_want), else accel_resolve(want, k, may_probe): --clock
 * auto's clock follows the accel, so the accel is resolved first. */
enum accel_kind accel_resolve_for_clock(enum guest_clock c, enum accel_kind want,
					const struct kernel_image *k, bool may_probe, char **reason);

/* "6.1.0-28-amd64 | AMD EPYC ... | /usr/bin/qemu-system-x86_64 dev .. ino .. size ..
 * mtime ..": what a host's answers depend on (the probe's, and run/pace.h's speed). A new
 * host kernel, CPU or QEMU binary asks again. */
char *accel_host_key(void);

#endif
