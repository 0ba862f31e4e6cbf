/* The VM options, defined once for `harness run`, `harness boot` and the KVM probe: one
 * fragment of the option tables (common/options.h) filling a struct vm_cli, and the
 * limits vm_check_opts() checks again before any boot.
 *
 * The limits, and why they are the same for every command:
 *  - vCPUs 1..64: the base config's CONFIG_NR_CPUS is 64; a guest ignores vCPUs beyond it.
 *    More vCPUs than the host's physical cores is a separate check (vm_check_cores, in
 *    vm_check_opts and the run planner) that --overcommit lifts: it depends on the host,
 *    not on the option, so it cannot be a table limit.
 *  - memory 256M..4T: 256M is what the KVM probe boots with, the smallest guest the
 *    guest path is exercised with (a KASAN kernel's shadow takes 1/8 of it); run refused
 *    less already, boot's 128M was never tested. */
#ifndef HB_BOOT_VM_OPTIONS_H
#define HB_BOOT_VM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/vm.h"
#include "boot/vm_limits.h"
#include "common/options.h"


/* What the VM options of a command line say (zero: not given, the command's default). */
struct vm_cli {
	long *cores;          /* --cores LIST (boot: exactly one) */
	size_t ncores;
	long mem_mib;
	double timeout_s;
	int accel;            /* enum accel_kind */
	int clock;            /* enum guest_clock */
	const char *machine;
	const char *rootfs;
	const char *entry;
	bool pin;             /* cleared by --no-pin */
	bool overcommit;
	char **shares;        /* --share PATH, one per use */
};

/* The fragment: place it in a command's table as { vm_cli_options, offsetof(T, vm) }. */
extern const struct hb_option vm_cli_options[];

/* The parsed options into o (cores: the first given, if any; mem, timeout: if given). */
void vm_cli_apply(const struct vm_cli *c, struct vm_opts *o);
/* --accel and --clock as their enums (the table stores choice indexes as int). */
enum accel_kind vm_cli_accel(const struct vm_cli *c);
enum guest_clock vm_cli_clock(const struct vm_cli *c);

#endif
