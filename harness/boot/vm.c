/* The VM options: their limits (vm_check_opts) and defaults per accel. vm_run itself is
 * in vm_run.c. */
#include "boot/vm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "boot/qemu_argv.h"
#include "boot/vm_limits.h"
#include "common/argparse.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "pin/pin.h"

/* The limits are the option table's (boot/vm_options.h): one set for every command. */
#define MAX_VCPUS VM_MAX_CORES
#define MIN_MEM_MIB VM_MIN_MEM_MIB
#define MAX_MEM_MIB VM_MAX_MEM_MIB

const char *vm_accel_name(enum accel_kind a)
{
	return a == ACCEL_KVM ? "kvm" : a == ACCEL_TCG ? "tcg" : a == ACCEL_NONE ? "none" : "auto";
}

/* microvm: no PCI enumeration, no i8042/legacy probing; about half of q35's boot time
 * under TCG here (bench/boot-machines.sh). */
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

static int host_cores(void)
{
	hwloc_topology_t topo;
	int n = 0;

	if (pin_topology_load(&topo) == 0) {
		n = pin_count_cores(topo);
		hwloc_topology_destroy(topo);
	}
	return n;
}

/* NULL, or why the path cannot be shared. */
static char *check_share(const char *path)
{
	char *real = realpath(path, NULL), *why = NULL;

	if (!real)
		why = xasprintf("--share %s: %s (accepted: an existing file or folder, which the guest "
				"then sees read-only)", path, strerror(errno));
	else if (!strcmp(real, "/"))
		why = xasprintf("--share %s: the whole host root is never shared (accepted: a folder "
				"or file below it)", path);
	free(real);
	return why;
}

int vm_check_shares(const char *const *shares, char **why)
{
	*why = NULL;
	for (size_t i = 0; !*why && shares && shares[i]; i++)
		*why = check_share(shares[i]);
	return *why ? -1 : 0;
}

#define MODEL_PLUGIN_RELPATH "plugins/model/hb-model.so"

char *vm_model_plugin_path(void)
{
	return hb_path_join(hb_build_dir(), MODEL_PLUGIN_RELPATH);
}

bool vm_model_plugin_missing(char **why)
{
	char *path = vm_model_plugin_path();
	bool missing = !hb_is_file(path);

	if (missing)
		*why = xasprintf("--clock model: no model plugin at %s (accepted: a build of the "
				 "harness with its plugins: ci/setup.sh build)", path);
	free(path);
	return missing;
}

int vm_check_opts(const struct vm_opts *o, char **why)
{
	static const char *const rootfs_choices[] = { "auto", "virtiofs", "9p", NULL };

	*why = NULL;
	if (o->cores < 1 || o->cores > MAX_VCPUS)
		*why = xasprintf("--cores %d: accepted 1..%d", o->cores, MAX_VCPUS);
	else if (vm_check_cores(o->cores, host_cores(), o->overcommit || o->clock == CLOCK_ICOUNT,
				why) < 0) /* icount: every vCPU in one host thread */
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
	else if (clock_accel_want(o->clock, o->accel, &(enum accel_kind){ 0 }, NULL, why) < 0)
		return -1;
	else if (o->clock == CLOCK_MODEL && o->qemu_plugin)
		*why = xstrdup("--qemu-plugin with --clock model: the model loads its own plugin, and "
			       "a boot here takes one (accepted: one of the two)");
	else if (o->clock == CLOCK_MODEL && !o->dry_run && vm_model_plugin_missing(why))
		return -1;
	else if (vm_check_shares(o->shares, why) < 0)
		return -1;
	return *why ? -1 : 0;
}

int vm_check_cores(long cores, int host_cores, bool overcommit, char **why)
{
	if (host_cores <= 0 || cores <= host_cores || overcommit)
		return 0;
	*why = xasprintf("--cores %ld: this host has %d physical cores (one vCPU per core; "
			 "--overcommit to allow more)", cores, host_cores);
	return -1;
}
