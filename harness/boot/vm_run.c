/* vm_run: boot a kernel under QEMU, run jobs through the guest init, collect results. The
 * steps live in vm_setup.c (before the guest runs), vm_start.c (starting it), vm_loop.c
 * (while it runs) and vm_finish.c (what happened). The accel comes resolved: choosing it
 * may itself boot (boot/accel.h), so it happens above this. */
#include <stdlib.h>

#include "boot/vm.h"
#include "boot/clock.h"
#include "boot/vm_session.h"
#include "common/xalloc.h"

int vm_run(const struct kernel_image *k, const char *variant_cmdline,
	   const struct guest_job *jobs, size_t njobs, const struct vm_opts *o,
	   struct vm_result *r)
{
	struct vm_session s;
	char *why = NULL;

	session_init(&s, k, variant_cmdline, jobs, njobs, o, r);
	if (o->accel != ACCEL_KVM && o->accel != ACCEL_TCG)
		return session_fail(&s, VM_ERR_USAGE, "vm_run: accel '%s' is not resolved "
				    "(accel_resolve() gives kvm or tcg)", vm_accel_name(o->accel));
	if (vm_check_opts(o, &why) < 0) {
		session_fail(&s, VM_ERR_USAGE, "%s", why);
		free(why);
		return r->status;
	}
	r->accel = xstrdup(vm_accel_name(s.accel));
	r->clock = guest_clock_name(o->clock);
	r->accel_reason = xstrdup(o->accel_reason ? o->accel_reason : "chosen by the caller");
	s.timeout_s = o->timeout_s > 0 ? o->timeout_s : vm_default_timeout(s.accel);
	s.boot_timeout_s = s.timeout_s < vm_boot_timeout(s.accel) ? s.timeout_s
				: vm_boot_timeout(s.accel);
	if (session_prepare(&s) == 0) {
		if (o->dry_run) {
			session_print_dry_run(&s);
		} else if (session_start(&s) == 0) {
			session_run_loop(&s);
			session_finish(&s);
		}
	}
	session_cleanup(&s);
	return r->status;
}
