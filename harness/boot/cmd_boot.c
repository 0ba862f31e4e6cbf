/* harness boot: run one command inside one variant (or a kernel built elsewhere), like
 * `vng -- CMD`: the job's output streams live, the exit code is the job's. */
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/accel.h"
#include "boot/clock.h"
#include "boot/external_kernel.h"
#include "boot/required_options.h"
#include "boot/vm.h"
#include "boot/vm_options.h"
#include "adhoc/adhoc.h"
#include "kernel/series_check.h"
#include "kernel/kernel.h"
#include "commands.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/tmpdir.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/safepath.h"
#include "common/xalloc.h"
#include "guest/protocol.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"

/* Exit codes of the guest path itself, apart from the job's own (see --help). */
#define EXIT_TIMEOUT 124
#define EXIT_GUEST_FAILED 125
#define EXIT_INTERRUPTED 130
#define STDERR_TAIL_LINES 5

struct boot_args {
	struct vm_opts vm;
	struct vm_cli cli;    /* the VM options as given, applied to vm after parsing */
	const char *variant;
	const char *line;     /* --kernel-line; NULL: HB_DEFAULT_LINE */
	char **sources;       /* --source [LINE=]PATH values */
	const char *kernel;
	const char *modules;
	const char *append;
	const char *cwd;
	int reps;
	char **irq;           /* --irq: /proc/interrupts rows to count per rep, or NULL */
	char **disks;         /* NULL-terminated, or NULL */
	const char *plugin;   /* --qemu-plugin PATH[,ARG=VALUE...], or NULL */
	char **cmd;
	struct adhoc_cli adhoc; /* --configs, --patch, --patch-cmdline, --variant */
};

#define STR(x) #x
#define XSTR(x) STR(x)

static const char usage_text[] =
	"usage: harness boot VARIANT [options] -- CMD [ARGS...]\n"
	"       harness boot NAME --patch NAME=FILE [options] -- CMD...\n"
	"       harness boot --kernel IMAGE [--modules DIR] [options] -- CMD...\n"
	"\nBoots VARIANT (built first if needed) under QEMU with the host root read-only,\n"
	"runs CMD as root in the guest (cwd /tmp, a tmpfs), prints its output as it comes\n"
	"and exits with its exit code.\n\n";

static const char exit_text[] =
	"\nexit status: CMD's own; 2 bad options; " XSTR(EXIT_TIMEOUT) " timeout; "
	XSTR(EXIT_GUEST_FAILED) " the guest failed (panic, init,\nQEMU); " XSTR(EXIT_INTERRUPTED)
	" interrupted.\n";

static int check_cwd(void *base, const char *v, char **why)
{
	(void)base;
	if (v[0] == '/')
		return 0;
	*why = xasprintf("--cwd %s: accepted an absolute path in the guest", v);
	return -1;
}

static int check_disk(void *base, const char *v, char **why)
{
	(void)base;
	if (hb_is_file(v))
		return 0;
	*why = xasprintf("--disk %s: no such file (accepted: a raw disk image)", v);
	return -1;
}

static int check_irq(void *base, const char *v, char **why)
{
	char **labels = ((struct boot_args *)base)->irq;

	(void)v;
	for (size_t i = 0; labels && labels[i]; i++)
		if (!hb_irq_label_ok(labels[i])) {
			*why = xasprintf("--irq %s: '%s' is not a /proc/interrupts row label (accepted: "
					 "letters, digits and _, at most %d, e.g. CAL,TLB)", v, labels[i],
					 HB_IRQ_LABEL_MAX);
			return -1;
		}
	return 0;
}

/* A --qemu-plugin value's path (up to the first comma; caller frees) and, in *args, its
 * ARG=VALUE list after that comma, or NULL. */
static char *plugin_path(const char *v, const char **args)
{
	const char *comma = strchr(v, ',');

	*args = comma ? comma + 1 : NULL;
	return xstrndup(v, comma ? (size_t)(comma - v) : strlen(v));
}

/* QEMU, as root, loads the plugin by path: its folders must pass the walk of
 * common/safepath.h and the file must be root's or ours, writable by no one else, or
 * another user could swap it for code of theirs before QEMU starts. True with *why. */
static bool plugin_swappable(const char *path, char **why)
{
	char *name = NULL, *inner = NULL;
	int dir = hb_open_parent_checked(path, "--qemu-plugin", 0, &name, &inner);
	struct stat st = { 0 };
	bool bad = dir < 0 || fstatat(dir, name, &st, 0) < 0 || !hb_trusted_owner(st.st_uid) ||
		   (st.st_mode & 022);

	if (bad && !inner && dir >= 0 && !st.st_mode)
		inner = xasprintf("--qemu-plugin %s: %s", path, strerror(errno));
	if (bad)
		*why = inner ? inner : xasprintf("--qemu-plugin %s: owned by uid %ld, mode %03o: QEMU "
						 "loads it as root (accepted: a file of root or uid %ld "
						 "that no other user can write)", path, (long)st.st_uid,
						 (unsigned)(st.st_mode & 0777), (long)geteuid());
	else
		free(inner);
	if (dir >= 0)
		close(dir);
	free(name);
	return bad;
}

/* --qemu-plugin: the path is a file; QEMU and the plugin check the arguments. */
static int check_plugin(void *base, const char *v, char **why)
{
	const char *args;
	char *path = plugin_path(v, &args);
	int ok = hb_is_file(path);

	(void)base;
	if (!ok)
		*why = xasprintf("--qemu-plugin %s: no such file '%s' (accepted: a QEMU TCG plugin, "
				 "PATH[,ARG=VALUE...], e.g. build/bench/cache-model/hb-cache-model.so)",
				 v, path);
	else if (plugin_swappable(path, why))
		ok = 0;
	free(path);
	return ok ? 0 : -1;
}

/* --qemu-plugin into o: the path made absolute (QEMU resolves a relative one against its
 * own working folder, not the user's; caller frees it) and the arguments. */
static char *use_plugin(const char *v, struct vm_opts *o)
{
	char *path, *abs;

	if (!v)
		return NULL;
	path = plugin_path(v, &o->qemu_plugin_args);
	abs = realpath(path, NULL);
	if (abs) {
		free(path);
		path = abs;
	}
	o->qemu_plugin = path;
	return path;
}

#define BOOT(f) offsetof(struct boot_args, f)

static const struct hb_option boot_options[] = {
	{ "cwd", 0, HB_OPT_STRING, "DIR", "the command's working directory in the guest (default /tmp)",
	  .off = BOOT(cwd), .set = check_cwd, .group = HB_OG_WHAT, .complete = HB_CMP_NONE },
	{ "reps", 0, HB_OPT_INT, "N", "run CMD N times in the one boot; prints each run's times", 1,
	  1000000, .off = BOOT(reps), .def = "1", .group = HB_OG_HOW },
	{ "irq", 0, HB_OPT_STR_LIST, "LABELS", "count these /proc/interrupts rows (e.g. CAL,TLB) over\n"
	  "each run, summed over the CPUs; printed and in vm.json", .off = BOOT(irq), .set = check_irq,
	  .group = HB_OG_HOW, .complete = HB_CMP_NONE },
	{ "disk", 0, HB_OPT_STR_REPEAT, "IMAGE", "attach a raw image as virtio-blk (/dev/vda, ...),\n"
	  "writes discarded", .off = BOOT(disks), .set = check_disk,
	  .group = HB_OG_WHAT, .complete = HB_CMP_FILE },
	{ "qemu-plugin", 0, HB_OPT_STRING, "SO[,A=V]", "load a QEMU TCG plugin, with its arguments\n"
	  "(TCG only; under icount it changes no guest time; e.g.\n"
	  "build/bench/cache-model/hb-cache-model.so, bench/README.md)",
	  .off = BOOT(plugin), .set = check_plugin, .group = HB_OG_HOW, .complete = HB_CMP_FILE },
	{ "log-dir", 0, HB_OPT_STRING, "DIR", "console.log, qemu.log, result.log, vm.json (default:\n"
	  "a new /tmp dir)", .off = BOOT(vm.log_dir),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "dry-run", 0, HB_OPT_FLAG, NULL, "print the QEMU (and virtiofsd) command line, run nothing",
	  .off = BOOT(vm.dry_run), .group = HB_OG_WHERE },
	KLINE_OPTION(BOOT(line)),
	KLINE_SOURCE_OPTION(BOOT(sources)),
	{ "kernel", 0, HB_OPT_STRING, "IMAGE", "a bzImage or vmlinux built elsewhere, instead of VARIANT",
	  .off = BOOT(kernel), .group = HB_OG_WHAT, .complete = HB_CMP_FILE },
	{ "modules", 0, HB_OPT_STRING, "DIR", "its modules (INSTALL_MOD_PATH or lib/modules/<release>)",
	  .off = BOOT(modules), .group = HB_OG_WHAT, .complete = HB_CMP_DIR },
	{ "append", 0, HB_OPT_STRING, "ARGS", "more kernel command line", .off = BOOT(append),
	  .group = HB_OG_WHAT, .complete = HB_CMP_NONE },
	{ NULL },
};

static const struct hb_example boot_examples[] = {
	{ "harness boot baseline -- uname -r",
	  "Boot the baseline kernel and run one command in it." },
	{ "harness boot baseline --dry-run -- true",
	  "The exact QEMU and virtiofsd command lines." },
	{ "harness boot xpfo --cores 2 --irq CAL,TLB -- ls /usr/bin",
	  "Count function-call and TLB-shootdown interrupts over a command." },
	{ NULL },
};

const struct hb_cmdspec boot_spec = {
	.cmd = "boot",
	.usage = usage_text,
	.epilog = exit_text,
	.groups = { { vm_cli_options, BOOT(cli) }, { boot_options, 0 },
		    { adhoc_cli_options, BOOT(adhoc) }, { NULL, 0 } },
	.stop_at_dashdash = true,
	.examples = boot_examples,
	.operand_complete = HB_CMP_VARIANTS,
	.exit_status = exit_text,
};

/* 2 where the host has them. */
static int default_cores(void)
{
	struct vm_opts probe = { .cores = 2, .mem_mib = 2048 };
	char *why = NULL;
	int ok = vm_check_opts(&probe, &why) == 0;

	free(why);
	return ok ? 2 : 1;
}

/* One vCPU count: the shared --cores takes run's lists too. */
static void check_one_core_count(const struct vm_cli *c)
{
	if (c->ncores > 1)
		exit(hb_usage("--cores: boot takes one vCPU count, got %zu (accepted: an integer "
			       "from %d to %d)", c->ncores, VM_MIN_CORES, VM_MAX_CORES));
}

static void parse_args(int argc, char **argv, struct boot_args *a)
{
	int rc, dashdash = 1, first;
	char *why;

	*a = (struct boot_args){ .vm = { .mem_mib = 2048, .stream_output = true } };
	/* Everything after the first "--" is CMD, untouched by option parsing. */
	while (dashdash < argc && strcmp(argv[dashdash], "--"))
		dashdash++;
	rc = hb_opts_parse(&boot_spec, argc, argv, a, &first, &why);
	if (rc == HB_OPTS_HELP)
		exit(HB_EXIT_OK);
	if (rc == HB_OPTS_BAD)
		exit(hb_usage_why(why));
	check_one_core_count(&a->cli);
	vm_cli_apply(&a->cli, &a->vm);
	if (first < dashdash)
		a->variant = argv[first++];
	if (first < dashdash)
		exit(hb_usage("boot: unexpected '%s' (one VARIANT, then '-- CMD')", argv[first]));
	if (dashdash + 1 >= argc)
		exit(hb_usage("boot: missing '-- CMD [ARGS...]' (the command to run in the guest)"));
	a->cmd = argv + dashdash + 1;
	if (!a->variant == !a->kernel)
		exit(hb_usage("boot: give either VARIANT or --kernel IMAGE (got %s)",
			       a->variant ? "both" : "neither"));
	if (a->modules && !a->kernel)
		exit(hb_usage("boot: --modules goes with --kernel (a variant brings its own modules)"));
	if (!a->vm.cores)
		a->vm.cores = default_cores();
}

/* A kernel built elsewhere: checked against required_options before any boot. */
static void external_kernel(const struct boot_args *a, struct kernel_image *k)
{
	char *option = xasprintf("--kernel %s", a->kernel), *why = NULL;
	struct external_kernel_req req = { .option = option, .name = "external", .image = a->kernel,
					   .modules = a->modules, .machine = a->vm.machine,
					   .rootfs = a->vm.rootfs };
	int rc = external_kernel_load(&req, k, &why);

	if (rc < 0)
		exit(hb_usage_why(why));
	if (rc == 1)
		hb_warn("%s", why);
	free(why);
	free(option);
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

/* --irq: "rep 1: CAL +1234, XYZ (no row 'XYZ' in the guest's /proc/interrupts)". */
static void print_irq_counts(const struct vm_result *r)
{
	for (size_t i = 0; i < r->nreps; i++) {
		const struct job_rep_result *rep = &r->reps[i];
		char *text = NULL;
		size_t len = 0;
		FILE *f;
		if (!rep->nirq || !(f = open_memstream(&text, &len)))
			continue;
		for (size_t k = 0; k < rep->nirq; k++) {
			const struct irq_count *c = &rep->irq[k];
			if (c->missing)
				fprintf(f, "%s%s (%s)", k ? ", " : "", c->label, c->missing);
			else
				fprintf(f, "%s%s +%llu", k ? ", " : "", c->label, c->delta);
		}
		fclose(f);
		hb_info("rep %d: interrupts %s", rep->rep + 1, text);
		free(text);
	}
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
	char *why;

	if (a->kernel) {
		external_kernel(a, k);
		*cmdline = xstrdup("");
		return;
	}
	if (config_require_variant(a->variant, &v, &why) < 0 ||
	    config_require_series(v.build, a->line, &why) < 0) /* before anything runs */
		exit(hb_usage_why(why));
	ko.line = a->line ? a->line : HB_DEFAULT_LINE;
	if (kline_check_sources_used(a->sources, (char *[]){ (char *)ko.line, NULL }, &why) < 0)
		exit(hb_usage_why(why));
	ko.source = kline_source_for(a->sources, ko.line);
	ko.dry_run = a->vm.dry_run; /* a dry run builds nothing: it prints the build's plan */
	int rc = kernel_ensure(v.build, &ko, k);
	if (rc < 0) /* a damaged cache entry (-2) is fixed by the user: exit 2 */
		exit(rc == -2 ? HB_EXIT_USAGE : EXIT_GUEST_FAILED);
	if (a->vm.dry_run && !k->bzimage && !k->vmlinux) {
		bool other = !hb_is_default_line(a->line);
		hb_info("dry run: build '%s' is not in the cache yet, so there is no QEMU command "
			"line to show ('harness build %s%s%s' builds it)", v.build, v.build,
			other ? " --kernel-line " : "", other ? a->line : "");
		exit(HB_EXIT_OK);
	}
	*cmdline = xstrdup(v.cmdline ? v.cmdline : "");
	variant_def_free(&v);
}

/* Boots, runs the command and reports; returns the exit status (the job's or the guest
 * path's). */
static int boot_and_report(struct boot_args *a, const struct kernel_image *k, const char *cmdline)
{
	struct vm_result r;
	struct guest_job job = { .argv = a->cmd, .cwd = a->cwd, .reps = a->reps, .irq = a->irq };
	struct rep_progress progress = { .total = a->reps };
	char *cmd;
	int code;

	if (a->reps > 1) {
		a->vm.on_rep_done = rep_done;
		a->vm.on_rep_ctx = &progress;
	}
	vm_run(k, cmdline, &job, 1, &a->vm, &r);
	if (r.pin_note && !a->vm.dry_run && r.status == VM_OK)
		hb_info("pinning: %s", r.pin_note);
	if (!a->vm.dry_run && r.log_dir) {
		json_object *j = vm_result_to_json(&r);
		char *path = hb_path_join(r.log_dir, "vm.json");
		const char *text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY);
		/* Not json_object_to_file: it follows a symlink planted in the log folder. */
		if (hb_write_file_atomic(path, text, strlen(text)) < 0)
			hb_warn("cannot write %s: %s", path, strerror(errno));
		json_object_put(j);
		free(path);
		hb_info("%s: %s (%s), %s, %s, boot %.2f s, total %.2f s; logs in %s",
			a->variant ? a->variant : a->kernel, r.accel, r.accel_reason, r.machine,
			r.rootfs ? r.rootfs : "?", r.boot_s, r.total_s, r.log_dir);
	}
	print_irq_counts(&r);
	cmd = hb_strv_len(a->cmd) > 1 ? xasprintf("%s %s...", a->cmd[0], a->cmd[1])
				      : xstrdup(a->cmd[0]);
	code = exit_code_of(&r, cmd);
	free(cmd);
	vm_result_free(&r);
	return code;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_args a;
	struct kernel_image k;
	struct adhoc made;
	char *cmdline, *why = NULL, *accel_reason;
	int code;

	parse_args(argc, argv, &a);
	/* Root writes the logs there and hands them to QEMU: refused (exit 2) before anything
	 * runs when another user could change a folder on the way (common/safepath.h). */
	if (a.vm.log_dir && hb_check_out_dir(a.vm.log_dir, "--log-dir", &why) < 0) {
		hb_opts_free(&boot_spec, &a);
		return hb_usage_why(why);
	}
	hb_clean_stale_vm_tmp(); /* what a killed harness left in hb_tmp_root() */
	if (adhoc_prepare(&a.adhoc, (char *[]){ (char *)(a.line ? a.line : HB_DEFAULT_LINE), NULL },
			  a.sources, a.vm.dry_run, kernel_series_applies, &made, &why) < 0) {
		hb_opts_free(&boot_spec, &a);
		return hb_usage_why(why);
	}
	if (vm_check_opts(&a.vm, &why) < 0) { /* the message run gives for the same options */
		adhoc_free(&made);
		hb_opts_free(&boot_spec, &a);
		return hb_usage_why(why);
	}
	a.vm.extra_append = a.append;
	a.vm.disks = (const char *const *)a.disks;
	char *plugin = use_plugin(a.plugin, &a.vm);
	get_kernel(&a, &k, &cmdline);
	a.vm.accel = accel_resolve_for_clock(a.vm.clock, a.vm.accel, &k, !a.vm.dry_run,
					     &accel_reason);
	if (a.vm.accel == ACCEL_NONE) { /* the kernel does not boot at all */
		hb_error("%s", accel_reason);
		exit(EXIT_GUEST_FAILED);
	}
	if (a.vm.clock == CLOCK_AUTO) {
		char *clock_why;
		a.vm.clock = clock_resolve(CLOCK_AUTO, a.vm.accel, NULL, NULL, &clock_why);
		hb_info("clock: %s (%s)", guest_clock_name(a.vm.clock), clock_why);
		free(clock_why);
	}
	a.vm.accel_reason = accel_reason;
	if (a.plugin && a.vm.accel != ACCEL_TCG)
		code = hb_usage("--qemu-plugin: QEMU runs plugins only under TCG, and the accel is %s "
				"(accepted: with --accel tcg, or auto on a host where KVM does not work)",
				vm_accel_name(a.vm.accel));
	else
		code = boot_and_report(&a, &k, cmdline);
	kernel_image_free(&k);
	free(cmdline);
	free(accel_reason);
	free(plugin);
	adhoc_free(&made);
	hb_opts_free(&boot_spec, &a);
	return code;
}
