/* harness boot: run one command inside one variant (or a kernel built elsewhere), like
 * `vng -- CMD`: the job's output streams live, the exit code is the job's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/accel.h"
#include "boot/required_options.h"
#include "boot/vm.h"
#include "kernel/kernel.h"
#include "commands.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "kernel/kconfigs.h"

/* Exit codes of the guest path itself, apart from the job's own (see --help). */
#define EXIT_TIMEOUT 124
#define EXIT_GUEST_FAILED 125
#define EXIT_INTERRUPTED 130
#define STDERR_TAIL_LINES 5

struct boot_args {
	struct vm_opts vm;
	const char *variant;
	const char *kernel;
	const char *modules;
	const char *append;
	const char *cwd;
	int reps;
	const char **disks;   /* NULL-terminated */
	size_t ndisks;
	char **cmd;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: harness boot VARIANT [options] -- CMD [ARGS...]\n"
		"       harness boot --kernel IMAGE [--modules DIR] [--append ARGS] [options] -- CMD...\n"
		"\nBoots VARIANT (built first if needed) under QEMU with the host root read-only,\n"
		"runs CMD as root in the guest (cwd /tmp, a tmpfs), prints its output as it comes\n"
		"and exits with its exit code.\n\noptions:\n"
		"  --cores N          vCPUs (default: 2, or the host's cores if fewer)\n"
		"  --mem SIZE         guest RAM, e.g. 2G or 512M (default 2G)\n"
		"  --timeout S        whole boot including CMD (default %.0f under KVM, %.0f under TCG)\n"
		"  --accel A          auto, kvm, tcg (default auto: a cached KVM probe)\n"
		"  --machine M        microvm or q35 (default %s, the faster here)\n"
		"  --rootfs R         auto, virtiofs, 9p (default auto: virtiofs, else 9p)\n"
		"  --entry E          bzimage or pvh (the vmlinux; default pvh when the build has one)\n"
		"  --no-pin           do not pin vCPU threads or bind guest memory\n"
		"  --overcommit       allow more vCPUs than host cores\n"
		"  --cwd DIR          the command's working directory in the guest (default /tmp)\n"
		"  --reps N           run CMD N times in the one boot; prints each run's times\n"
		"  --disk IMAGE       attach a raw image as virtio-blk (/dev/vda, ...), writes discarded\n"
		"  --log-dir DIR      console.log, qemu.log, result.log, vm.json (default: a new /tmp dir)\n"
		"  --dry-run          print the QEMU (and virtiofsd) command line, run nothing\n"
		"  --kernel IMAGE     a bzImage or vmlinux built elsewhere, instead of VARIANT\n"
		"  --modules DIR      its modules (INSTALL_MOD_PATH or lib/modules/<release>)\n"
		"  --append ARGS      more kernel command line\n"
		"\nexit status: CMD's own; 2 bad options; %d timeout; %d the guest failed (panic, init,\n"
		"QEMU); %d interrupted.\n",
		vm_default_timeout(ACCEL_KVM), vm_default_timeout(ACCEL_TCG), vm_default_machine(),
		EXIT_TIMEOUT, EXIT_GUEST_FAILED, EXIT_INTERRUPTED);
}

enum { OPT_CORES = 256, OPT_MEM, OPT_TIMEOUT, OPT_ACCEL, OPT_MACHINE, OPT_ROOTFS, OPT_ENTRY,
       OPT_NO_PIN, OPT_OVERCOMMIT, OPT_DRY_RUN, OPT_KERNEL, OPT_MODULES, OPT_APPEND, OPT_CWD,
       OPT_LOG_DIR, OPT_REPS, OPT_DISK };

static const struct option long_options[] = {
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "accel", required_argument, NULL, OPT_ACCEL },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "rootfs", required_argument, NULL, OPT_ROOTFS },
	{ "entry", required_argument, NULL, OPT_ENTRY },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "overcommit", no_argument, NULL, OPT_OVERCOMMIT },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "append", required_argument, NULL, OPT_APPEND },
	{ "cwd", required_argument, NULL, OPT_CWD },
	{ "log-dir", required_argument, NULL, OPT_LOG_DIR },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "disk", required_argument, NULL, OPT_DISK },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse_option(struct boot_args *a, int c, const char *v)
{
	static const char *const accels[] = { "auto", "kvm", "tcg", NULL };
	static const char *const machines[] = { "microvm", "q35", NULL };
	static const char *const rootfs[] = { "auto", "virtiofs", "9p", NULL };
	static const char *const entries[] = { "bzimage", "pvh", NULL };

	switch (c) {
	case OPT_CORES: a->vm.cores = (int)hb_parse_long("--cores", v, 1, 64); break;
	case OPT_MEM: a->vm.mem_mib = hb_parse_size_mib("--mem", v, 128, 1L << 22); break;
	case OPT_TIMEOUT: a->vm.timeout_s = hb_parse_double("--timeout", v, 1, 7 * 86400); break;
	case OPT_ACCEL: a->vm.accel = (enum accel_kind)hb_parse_choice("--accel", v, accels); break;
	case OPT_MACHINE: a->vm.machine = machines[hb_parse_choice("--machine", v, machines)]; break;
	case OPT_ROOTFS: a->vm.rootfs = rootfs[hb_parse_choice("--rootfs", v, rootfs)]; break;
	case OPT_ENTRY: a->vm.entry = entries[hb_parse_choice("--entry", v, entries)]; break;
	case OPT_NO_PIN: a->vm.pin = false; break;
	case OPT_OVERCOMMIT: a->vm.overcommit = true; break;
	case OPT_DRY_RUN: a->vm.dry_run = true; break;
	case OPT_KERNEL: a->kernel = v; break;
	case OPT_MODULES: a->modules = v; break;
	case OPT_APPEND: a->append = v; break;
	case OPT_CWD:
		if (v[0] != '/')
			hb_usage_error("--cwd %s: accepted an absolute path in the guest", v);
		a->cwd = v;
		break;
	case OPT_LOG_DIR: a->vm.log_dir = v; break;
	case OPT_REPS: a->reps = (int)hb_parse_long("--reps", v, 1, 1000000); break;
	case OPT_DISK:
		if (!hb_is_file(v))
			hb_usage_error("--disk %s: no such file (accepted: a raw disk image)", v);
		a->disks = xrealloc(a->disks, (a->ndisks + 2) * sizeof(*a->disks));
		a->disks[a->ndisks++] = v;
		a->disks[a->ndisks] = NULL;
		break;
	case 'h': usage(stdout); exit(HB_EXIT_OK);
	default: hb_usage_error("boot: unknown option (see 'harness boot --help')");
	}
}

static int default_cores(void)
{
	struct vm_opts probe = { .cores = 2, .mem_mib = 2048 };
	char *why = NULL;
	int ok = vm_check_opts(&probe, &why) == 0;

	free(why);
	return ok ? 2 : 1;
}

static void parse_args(int argc, char **argv, struct boot_args *a)
{
	int c, dashdash = 1;

	*a = (struct boot_args){ .vm = { .mem_mib = 2048, .accel = ACCEL_AUTO, .pin = true,
					 .stream_output = true }, .reps = 1 };
	/* Everything after the first "--" is CMD, untouched by option parsing. */
	while (dashdash < argc && strcmp(argv[dashdash], "--"))
		dashdash++;
	while ((c = getopt_long(dashdash, argv, "h", long_options, NULL)) != -1)
		parse_option(a, c, optarg);
	if (optind < dashdash)
		a->variant = argv[optind++];
	if (optind < dashdash)
		hb_usage_error("boot: unexpected '%s' (one VARIANT, then '-- CMD')", argv[optind]);
	if (dashdash + 1 >= argc)
		hb_usage_error("boot: missing '-- CMD [ARGS...]' (the command to run in the guest)");
	a->cmd = argv + dashdash + 1;
	if (!a->variant == !a->kernel)
		hb_usage_error("boot: give either VARIANT or --kernel IMAGE (got %s)",
			       a->variant ? "both" : "neither");
	if (a->modules && !a->kernel)
		hb_usage_error("boot: --modules goes with --kernel (a variant brings its own modules)");
	if (!a->vm.cores)
		a->vm.cores = default_cores();
}

static bool is_elf(const char *path)
{
	char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);

	if (f)
		fclose(f);
	return elf;
}

/* A kernel built elsewhere: checked against required_options before any boot. */
static void external_kernel(const struct boot_args *a, struct kernel_image *k)
{
	struct guest_needs needs = { .machine = a->vm.machine ? a->vm.machine : vm_default_machine(),
				     .rootfs = a->vm.rootfs ? a->vm.rootfs : "auto",
				     .pvh = is_elf(a->kernel) };
	char *config, *text, *missing;

	if (!hb_is_file(a->kernel))
		hb_usage_error("--kernel %s: no such file (accepted: a bzImage or a PVH vmlinux)", a->kernel);
	if (a->modules && !hb_is_dir(a->modules))
		hb_usage_error("--modules %s: not a directory", a->modules);
	*k = (struct kernel_image){ .build = xstrdup("external"),
				    .modules_root = a->modules ? xstrdup(a->modules) : NULL };
	*(needs.pvh ? &k->vmlinux : &k->bzimage) = xstrdup(a->kernel);
	config = find_kernel_config(a->kernel);
	if (!config) {
		hb_warn("no config found for %s (looked next to it and in /boot): not checked", a->kernel);
		return;
	}
	text = hb_read_file(config, NULL);
	missing = text ? required_options_missing(text, &needs) : NULL;
	if (missing)
		hb_usage_error("--kernel %s: its config %s lacks what the guest path needs: %s",
			       a->kernel, config, missing);
	k->config = config;
	free(text);
}

static void print_stderr_tail(const struct job_rep_result *rep, const char *cmd)
{
	if (rep->term_signal)
		hb_error("'%s' was killed by signal %d", cmd, rep->term_signal);
	else
		hb_error("'%s' exited with status %d", cmd, rep->exit_code);
	if (rep->err_len) {
		fprintf(stderr, "last lines of its stderr:\n%s%s", hb_tail_lines(rep->err, STDERR_TAIL_LINES),
			rep->err[rep->err_len - 1] == '\n' ? "" : "\n");
	}
}

struct rep_progress {
	int total;
	int done;
	double started;
};

/* After each of several reps: which one, how it went, and when the rest should be done. */
static void rep_done(void *ctx, const struct job_rep_result *rep)
{
	struct rep_progress *p = ctx;
	char eta[32];

	if (p->done++ == 0)
		p->started = hb_now() - rep->wall_s;
	double per_rep = (hb_now() - p->started) / p->done;
	hb_info("rep %d/%d: exit %d, wall %.3f s, user %.3f s, sys %.3f s; guest user %.2f s, "
		"sys %.2f s, idle %.2f s; ETA %s", p->done, p->total,
		rep->term_signal ? 128 + rep->term_signal : rep->exit_code, rep->wall_s, rep->user_s,
		rep->sys_s, rep->guest_user_s, rep->guest_sys_s, rep->guest_idle_s,
		hb_format_duration(per_rep * (p->total - p->done), eta, sizeof(eta)));
}

/* The job's own status (the first rep that failed, else 0), or the guest path's. */
static int exit_code_of(const struct vm_result *r, const char *cmd)
{
	if (r->status == VM_OK) {
		for (size_t i = 0; i < r->nreps; i++) {
			const struct job_rep_result *rep = &r->reps[i];
			if (rep->exit_code != 0 || rep->term_signal) {
				print_stderr_tail(rep, cmd);
				return rep->term_signal ? 128 + rep->term_signal : rep->exit_code;
			}
		}
		return HB_EXIT_OK;
	}
	hb_error("%s", r->error ? r->error : "the guest failed");
	switch (r->status) {
	case VM_ERR_USAGE: return HB_EXIT_USAGE;
	case VM_ERR_TIMEOUT: return EXIT_TIMEOUT;
	case VM_ERR_INTERRUPTED: return EXIT_INTERRUPTED;
	default: return EXIT_GUEST_FAILED;
	}
}

static void get_kernel(const struct boot_args *a, struct kernel_image *k, char **cmdline)
{
	struct variant_def v;
	struct kernel_opts ko = { 0 };

	if (a->kernel) {
		external_kernel(a, k);
		*cmdline = xstrdup("");
		return;
	}
	config_require_variant(a->variant, &v);
	ko.dry_run = a->vm.dry_run; /* a dry run builds nothing: it prints the build's plan */
	if (kernel_ensure(v.build, &ko, k) < 0)
		exit(EXIT_GUEST_FAILED);
	if (a->vm.dry_run && !k->bzimage && !k->vmlinux) {
		hb_info("dry run: build '%s' is not in the cache yet, so there is no QEMU command "
			"line to show ('harness build %s' builds it)", v.build, v.build);
		exit(HB_EXIT_OK);
	}
	*cmdline = xstrdup(v.cmdline ? v.cmdline : "");
	variant_def_free(&v);
}

int cmd_boot(int argc, char **argv)
{
	struct boot_args a;
	struct kernel_image k;
	struct vm_result r;
	char *cmdline, *why = NULL, *cmd, *accel_reason;
	int code;

	parse_args(argc, argv, &a);
	if (vm_check_opts(&a.vm, &why) < 0)
		hb_usage_error("boot: %s", why);
	a.vm.extra_append = a.append;
	a.vm.disks = a.disks;
	get_kernel(&a, &k, &cmdline);
	a.vm.accel = accel_resolve(a.vm.accel, &k, !a.vm.dry_run, &accel_reason);
	a.vm.accel_reason = accel_reason;
	struct guest_job job = { .argv = a.cmd, .cwd = a.cwd, .reps = a.reps };
	struct rep_progress progress = { .total = a.reps };
	if (a.reps > 1) {
		a.vm.on_rep_done = rep_done;
		a.vm.on_rep_ctx = &progress;
	}
	vm_run(&k, cmdline, &job, 1, &a.vm, &r);
	if (r.pin_note && !a.vm.dry_run && r.status == VM_OK)
		hb_info("pinning: %s", r.pin_note);
	if (!a.vm.dry_run && r.log_dir) {
		json_object *j = vm_result_to_json(&r);
		char *path = hb_path_join(r.log_dir, "vm.json");
		json_object_to_file_ext(path, j, JSON_C_TO_STRING_PRETTY);
		json_object_put(j);
		free(path);
		hb_info("%s: %s (%s), %s, %s, boot %.2f s, total %.2f s; logs in %s",
			a.variant ? a.variant : a.kernel, r.accel, r.accel_reason, r.machine,
			r.rootfs ? r.rootfs : "?", r.boot_s, r.total_s, r.log_dir);
	}
	cmd = hb_strv_len(a.cmd) > 1 ? xasprintf("%s %s...", a.cmd[0], a.cmd[1]) : xstrdup(a.cmd[0]);
	code = exit_code_of(&r, cmd);
	free(cmd);
	vm_result_free(&r);
	kernel_image_free(&k);
	free(cmdline);
	free(accel_reason);
	free(a.disks);
	return code;
}
