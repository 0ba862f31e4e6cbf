/* Choosing KVM or TCG. /dev/kvm opening is not enough: nested KVM can create a VM whose
 * guest then hangs in early boot (seen on nested development hosts). So "auto" boots the kernel once under KVM
 * with no job and a short timeout, looking for the init's hello; the answer is cached per
 * host (kernel, CPU model, QEMU version) for a day in hb_cache_dir()/accel-probe.json. */
#ifndef HB_BOOT_ACCEL_H
#define HB_BOOT_ACCEL_H

#include <stdbool.h>

#include "boot/vm.h"

#define ACCEL_PROBE_TIMEOUT_S 8.0
#define ACCEL_CACHE_TTL_S (24 * 3600)

/* may_probe false (dry run): the cached answer or TCG, never a boot. *reason malloc'd. */
enum accel_kind accel_resolve(enum accel_kind want, const struct kernel_image *k,
			      bool may_probe, char **reason);
/* The host TSC rate in kHz (TCG guests read the host TSC), measured once and cached
 * with the probe; 0 when unknown. */
long host_tsc_khz(void);

#endif
