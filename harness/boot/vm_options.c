#include "boot/vm_options.h"

#include "common/xalloc.h"

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };
static const char *const machine_choices[] = { "microvm", "q35", NULL };
static const char *const rootfs_choices[] = { "auto", "virtiofs", "9p", NULL };
static const char *const entry_choices[] = { "bzimage", "pvh", NULL };
static const char *const clock_choices[] = { "host", "icount", "auto", "model", NULL }; /* enum guest_clock */

#define VM(f) offsetof(struct vm_cli, f)

const struct hb_option vm_cli_options[] = {
	{ "cores", 0, HB_OPT_LONG_LIST, "LIST", "vCPU counts, e.g. 2,6,12,24 (boot: one); at most\n"
	  "the host's physical cores unless --overcommit", .min = VM_MIN_CORES,
	  .max = VM_MAX_CORES, .off = VM(cores), .count_off = VM(ncores), .group = HB_OG_WHAT },
	{ "mem", 0, HB_OPT_SIZE_MIB, "SIZE", "guest RAM, e.g. 2G or 512M (default 2G; run raises it\n"
	  "to what a workload needs)", .min = VM_MIN_MEM_MIB, .max = VM_MAX_MEM_MIB,
	  .off = VM(mem_mib), .group = HB_OG_HOW },
	{ "timeout", 0, HB_OPT_DOUBLE, "S", "seconds per boot, jobs included (default: run from\n"
	  "the workload's estimate; boot 600 under KVM, 3600 under TCG)", .min = 1,
	  .max = VM_MAX_TIMEOUT_S, .off = VM(timeout_s), .group = HB_OG_ADVANCED },
	{ "accel", 0, HB_OPT_CHOICE, "A", "auto, kvm or tcg; auto: KVM when a cached probe boot\n"
	  "works", .choices = accel_choices, .off = VM(accel), .def = "auto", .group = HB_OG_HOW },
	{ "clock", 0, HB_OPT_CHOICE, "C", "the guest's clock: host (wall time), icount (guest\n"
	  "instructions; TCG only), auto (icount under TCG, host under KVM and for a\n"
	  "workload not deterministic under icount) or model (icount, each timed section\n"
	  "priced by a plugin: docs/model.md; TCG only); default: run auto, boot host",
	  /* The default differs by command (run: auto, boot: host): none here, the command
	   * fills it in unless this was said. */
	  .choices = clock_choices, .off = VM(clock), .given_off = VM(clock_given),
	  .group = HB_OG_HOW },
	{ "machine", 0, HB_OPT_CHOICE_STR, "M", "microvm or q35 (default: microvm, measured the\n"
	  "faster here)", .choices = machine_choices, .off = VM(machine), .group = HB_OG_ADVANCED },
	{ "rootfs", 0, HB_OPT_CHOICE_STR, "R", "how the guest sees the host root: auto, virtiofs\n"
	  "or 9p (default auto: virtiofs, else 9p)", .choices = rootfs_choices, .off = VM(rootfs),
	  .group = HB_OG_ADVANCED },
	{ "entry", 0, HB_OPT_CHOICE_STR, "E", "bzimage or pvh (the vmlinux; default pvh when the\n"
	  "build has one)", .choices = entry_choices, .off = VM(entry), .group = HB_OG_ADVANCED },
	{ "no-pin", 0, HB_OPT_FLAG_OFF, NULL, "do not pin vCPU threads or bind guest memory",
	  .off = VM(pin), .group = HB_OG_HOW },
	{ "overcommit", 0, HB_OPT_FLAG, NULL, "allow more vCPUs than host cores (the report says so)",
	  .off = VM(overcommit), .group = HB_OG_HOW },
	{ "share", 0, HB_OPT_STR_REPEAT, "PATH", "a host file or folder the guest also sees, read-only\n"
	  "(repeatable; docs/security.md says what it sees without)", .off = VM(shares),
	  .group = HB_OG_ADVANCED },
	{ NULL },
};

enum accel_kind vm_cli_accel(const struct vm_cli *c)
{
	return (enum accel_kind)c->accel; /* accel_choices are in enum order */
}

enum guest_clock vm_cli_clock(const struct vm_cli *c)
{
	return (enum guest_clock)c->clock; /* clock_choices are in enum order */
}

void vm_cli_apply(const struct vm_cli *c, struct vm_opts *o)
{
	if (c->ncores)
		o->cores = (int)c->cores[0];
	if (c->mem_mib)
		o->mem_mib = c->mem_mib;
	if (c->timeout_s)
		o->timeout_s = c->timeout_s;
	o->accel = vm_cli_accel(c);
	o->clock = vm_cli_clock(c);
	o->machine = c->machine;
	o->rootfs = c->rootfs;
	o->entry = c->entry;
	o->pin = c->pin;
	o->overcommit = c->overcommit;
	o->shares = (const char *const *)c->shares;
}
