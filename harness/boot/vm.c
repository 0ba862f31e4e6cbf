/* vm_run: boot a kernel under QEMU, run jobs through the guest init, collect results. The
 * steps live in vm_setup.c (before the guest runs) and vm_loop.c (while and after). */
#include "boot/vm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/accel.h"
#include "boot/qemu_argv.h"
#include "boot/vm_options.h"
#include "boot/vm_session.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "pin/pin.h"

/* The limits are the option table's (boot/vm_options.h): one set for every command. */
#define MAX_VCPUS VM_MAX_CORES
#define MIN_MEM_MIB VM_MIN_MEM_MIB
#define MAX_MEM_MIB VM_MAX_MEM_MIB

const char *vm_accel_name(enum accel_kind a)
{
	return a == ACCEL_KVM ? "kvm" : a == ACCEL_TCG ? "tcg" : "auto";
}

/* microvm: no PCI enumeration, no i8042/legacy probing; about half of q35's boot time
 * under TCG here (tests/bench/boot-machines.sh). */
const char *vm_default_machine(void) { return "microvm"; }

/* A normal boot takes 2-10 s under TCG here (a loaded host included) and well under
 * 1 s under KVM; a guest that has not said hello long after is stuck in early boot
 * (seen rarely on an overloaded host), and waiting for the job timeout would waste it. */
double vm_boot_timeout(enum accel_kind resolved)
{
	return resolved == ACCEL_KVM ? 30.0 : 120.0;
}

/* Covers the jobs too: TCG runs workloads 10-50x slower than KVM. */
double vm_default_timeout(enum accel_kind resolved)
{
	return resolved == ACCEL_KVM ? 600.0 : 3600.0;
}

int session_fail(struct vm_session *s, enum vm_status status, const char *fmt, ...)
{
	va_list ap;

	if (s->r->status == VM_OK) {
		s->r->status = status;
		free(s->r->error);
		va_start(ap, fmt);
		s->r->error = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return s->r->status;
}

static int host_cores(void)
{
	hwloc_topology_t topo;
	int n = 0;

	if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0)
		n = pin_count_cores(topo);
	hwloc_topology_destroy(topo);
	return n;
}

int vm_check_opts(const struct vm_opts *o, char **why)
{
	static const char *const rootfs_choices[] = { "auto", "virtiofs", "9p", NULL };

	*why = NULL;
	if (o->cores < 1 || o->cores > MAX_VCPUS)
		*why = xasprintf("--cores %d: accepted 1..%d", o->cores, MAX_VCPUS);
	else if (vm_check_cores(o->cores, host_cores(), o->overcommit, why) < 0)
		return -1;
	else if (o->mem_mib < MIN_MEM_MIB || o->mem_mib > MAX_MEM_MIB)
		*why = xasprintf("--mem %ldM: accepted %ldM..%ldM", o->mem_mib, MIN_MEM_MIB, MAX_MEM_MIB);
	else if (o->machine && !qemu_machine_known(o->machine))
		*why = xasprintf("--machine '%s': accepted q35, microvm", o->machine);
	else if (o->rootfs && !hb_strv_contains((char *const *)rootfs_choices, o->rootfs))
		*why = xasprintf("--rootfs '%s': accepted auto, virtiofs, 9p", o->rootfs);
	else if (o->entry && strcmp(o->entry, "bzimage") && strcmp(o->entry, "pvh"))
		*why = xasprintf("--entry '%s': accepted bzimage, pvh", o->entry);
	else if (o->timeout_s < 0)
		*why = xasprintf("--timeout %g: accepted a positive number of seconds", o->timeout_s);
	return *why ? -1 : 0;
}

int vm_run(const struct kernel_image *k, const char *variant_cmdline,
	   const struct guest_job *jobs, size_t njobs, const struct vm_opts *o,
	   struct vm_result *r)
{
	struct vm_session s = { .k = k, .variant_cmdline = variant_cmdline, .o = o, .r = r,
				.jobs = jobs, .njobs = njobs, .sigfd = -1,
				.port_log_fd = { -1, -1 } };
	char *why = NULL;

	*r = (struct vm_result){ .status = VM_OK };
	proto_init(&s.proto);
	for (int i = 0; i < PORT_COUNT; i++)
		s.listen_fd[i] = s.conn_fd[i] = -1;
	if (vm_check_opts(o, &why) < 0) {
		session_fail(&s, VM_ERR_USAGE, "%s", why);
		free(why);
		return r->status;
	}
	s.accel = accel_resolve(o->accel, k, !o->dry_run, &why);
	r->accel = xstrdup(vm_accel_name(s.accel));
	r->accel_reason = why;
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

void vm_result_free(struct vm_result *r)
{
	job_rep_result_free_all(r->reps, r->nreps);
	free(r->error);
	free(r->phase);
	free(r->log_dir);
	free(r->console_log);
	free(r->accel);
	free(r->accel_reason);
	free(r->machine);
	free(r->rootfs);
	json_object_put(r->pin_map);
	free(r->pin_note);
	free(r->rootfs_reason);
	free(r->kernel_entry);
	hb_free_strv(r->notes);
	*r = (struct vm_result){ 0 };
}
