/* Before anything runs: directories, the job file, the kernel and its entry, the root
 * share, the pin plan, the kernel command line and QEMU's argv; and --dry-run's print. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/jobfile.h"
#include "boot/clock.h"
#include "boot/qemu_argv.h"
#include "boot/tsc.h"
#include "boot/vm_session.h"
#include "kernel/kopts.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/safepath.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"

#define GUEST_INIT_RELPATH "guest/init/hardbench-init"

static const char *const port_names[PORT_COUNT] = { "result.sock", "output.sock", "qmp.sock" };

static int make_log_dir(struct vm_session *s)
{
	struct vm_result *r = s->r;

	char *why = NULL;

	if (s->o->log_dir) {
		/* Walked from "/" and made here (common/safepath.h): every log is then made
		 * through this descriptor, and QEMU gets console.log as one (-add-fd). */
		s->log_dir_fd = hb_open_dir_checked(s->o->log_dir, "--log-dir", HB_SAFE_CREATE | HB_SAFE_OWN,
						    &why);
		if (s->log_dir_fd < 0) {
			session_fail(s, VM_ERR_START, "%s", why);
			free(why);
			return -1;
		}
		r->log_dir = xstrdup(s->o->log_dir);
	} else {
		r->log_dir = xstrdup("/tmp/hardbench-boot-XXXXXX");
		if (!mkdtemp(r->log_dir))
			return session_fail(s, VM_ERR_START, "mkdtemp: %s", strerror(errno));
		s->created_log_dir = true;
		s->log_dir_fd = open(r->log_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (s->log_dir_fd < 0)
			return session_fail(s, VM_ERR_START, "%s: %s", r->log_dir, strerror(errno));
	}
	r->console_log = hb_path_join(r->log_dir, "console.log");
	/* QEMU's file chardev appends (append=on) to the file made here, which the loop keeps
	 * bounded; made afresh with O_EXCL|O_NOFOLLOW, never through a planted link, and
	 * handed to QEMU open: it never opens the path itself. */
	if (s->o->dry_run)
		return 0;
	if (tail_log_create_at(&s->console_log, s->log_dir_fd, "console.log") < 0 ||
	    (s->console_fd = openat(s->log_dir_fd, "console.log",
				    O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return session_fail(s, VM_ERR_START, "%s: %s", r->console_log, strerror(errno));
	return 0;
}

static char *guest_init_path(void)
{
	return hb_path_join(hb_build_dir(), GUEST_INIT_RELPATH);
}

/* A KASAN kernel dies at once through the PVH entry (the entry's C code runs before
 * KASAN's early shadow exists; QEMU exits with nothing on the console), while its bzImage
 * boots: such kernels take the bzImage entry unless --entry says otherwise. */
bool vm_kernel_needs_bzimage(const struct kernel_image *k)
{
	struct kopt_list opts = { 0 };
	const char *kasan;
	bool unusable;

	if (!k->config || kopts_load(&opts, k->config) != 0)
		return false;
	kasan = kopts_get(&opts, "CONFIG_KASAN");
	unusable = kasan && !strcmp(kasan, "y");
	kopts_free(&opts);
	return unusable;
}

/* The kernel image and its entry: the PVH entry of an uncompressed vmlinux skips the
 * decompressor, which is slow under TCG. */
static int choose_kernel(struct vm_session *s)
{
	const char *entry = s->o->entry;

	if (!entry)
		entry = s->k->vmlinux && hb_is_file(s->k->vmlinux) && !vm_kernel_needs_bzimage(s->k) ? "pvh" : "bzimage";
	if (!strcmp(entry, "pvh") && !(s->k->vmlinux && hb_is_file(s->k->vmlinux)))
		return session_fail(s, VM_ERR_START, "--entry pvh needs the build's vmlinux (none for %s)",
				    s->k->build ? s->k->build : "this kernel");
	s->kernel_path = !strcmp(entry, "pvh") ? s->k->vmlinux : s->k->bzimage;
	s->r->kernel_entry = xstrdup(!strcmp(entry, "pvh") ? "pvh" : "bzImage");
	if (!s->kernel_path || !hb_is_file(s->kernel_path))
		return session_fail(s, VM_ERR_START, "kernel image %s does not exist",
				    s->kernel_path ? s->kernel_path : "(none)");
	return 0;
}

static int write_job_file(struct vm_session *s)
{
	/* The view serves them there (boot/host_view.h), whatever their host path. */
	const char *modules = s->k->modules_root && hb_is_dir(s->k->modules_root)
		? HOST_VIEW_MODULES : NULL;
	char *text = jobfile_render(getenv("HOME"), modules, s->jobs, s->njobs);
	char *copy = hb_path_join(s->r->log_dir, "job.txt");
	int rc = 0;

	s->jobfile = hb_path_join(s->rundir, "job");
	if (hb_write_file_atomic(s->jobfile, text, strlen(text)) < 0)
		rc = session_fail(s, VM_ERR_START, "cannot write %s: %s", s->jobfile, strerror(errno));
	else
		hb_write_file_atomic(copy, text, strlen(text)); /* for the curious; not needed */
	free(copy);
	free(text);
	return rc;
}

static int plan_pinning(struct vm_session *s)
{
	char *why = NULL;
	/* Under icount every vCPU runs in QEMU's one TCG thread: one core to pin it to. */
	int threads = s->o->clock == CLOCK_ICOUNT ? 1 : s->o->cores;

	if (!s->o->pin)
		return 0;
	if (pin_topology_load(&s->topo) < 0)
		return session_fail(s, VM_ERR_START, "hwloc cannot read this host's topology");
	/* A dry run claims nothing: it plans as if no other guest held a core. */
	if ((s->o->dry_run ? pin_plan_make(s->topo, threads, s->o->overcommit, NULL, &s->plan, &why)
			   : pin_plan_claimed(s->topo, threads, s->o->overcommit, &s->plan,
					      &s->claims, &why)) < 0) {
		session_fail(s, VM_ERR_USAGE, "%s", why);
		free(why);
		return -1;
	}
	if (threads < s->o->cores)
		pin_plan_one_thread(&s->plan, s->o->cores);
	s->have_plan = true;
	s->r->pin_note = xstrdup(s->plan.note);
	s->r->overcommitted = s->plan.overcommitted;
	s->r->shared_cores = s->plan.shares_busy;
	return 0;
}

/* Both flags in the host's /proc/cpuinfo: its TSC ticks at one rate, in sync everywhere. */
static bool host_tsc_invariant(void)
{
	char *info = hb_read_file("/proc/cpuinfo", NULL);
	bool ok = info && strstr(info, " constant_tsc") && strstr(info, " nonstop_tsc");

	free(info);
	return ok;
}

/* Not "quiet": the kernel's messages cost 0.1-0.2 s of a 2.4 s TCG boot (emulated serial
 * writes), but they are what explains a boot that hangs; the bare-initramfs reference of
 * bench/boot-bare.sh pays the same. */
static char *harness_cmdline(const struct vm_session *s)
{
	long khz = s->accel == ACCEL_TCG ? host_tsc_khz() : 0;

	/* Under icount the TSC counts virtual nanoseconds: its rate is exact, and the same
	 * on every host (the host's rate would make the guest's clock run wrong). */
	/* maxcpus=1: see clock_needs_hotplug(); the init brings the other vCPUs online. */
	if (clock_runs_icount(s->o->clock))
		return xasprintf("tsc_early_khz=%ld tsc=reliable lapic_timer_khz=%ld%s", ICOUNT_TSC_KHZ,
				 ICOUNT_LAPIC_TIMER_KHZ,
				 clock_needs_hotplug(s->o->clock, s->o->cores) ? " maxcpus=1" : "");
	/* A TCG guest reads the host's TSC. Its early calibration against the PIT fails on a
	 * loaded host (microvm then hangs: no other reference), so give the rate; and its
	 * sync check fails across vCPU threads, leaving the guest on a jiffies clock (ms
	 * resolution for every timing the init takes): with an invariant host TSC, say so. */
	if (khz <= 0)
		return xstrdup("");
	return xasprintf("tsc_early_khz=%ld%s", khz, host_tsc_invariant() ? " tsc=reliable" : "");
}

static char *build_cmdline(const struct vm_session *s, const char *rootfs)
{
	char *init = guest_init_path();
	struct cmdline_plan c = { .rootfs = rootfs, .init = init, .tuning = s->extra_cmdline,
				  .variant = s->variant_cmdline, .extra = s->o->extra_append,
				  .jobfile = s->jobfile };
	char *line = kernel_cmdline(&c);

	free(init);
	return line;
}

void session_build_argv(struct vm_session *s)
{
	const char *rootfs = s->use_virtiofs ? "virtiofs" : "9p";
	char *append = build_cmdline(s, rootfs);
	char *nodes = s->have_plan ? pin_qemu_host_nodes(&s->plan) : NULL;
	/* --clock model: the model's plugin prices the guest's marked sections (vm_check refused
	 * it with --qemu-plugin: one plugin a boot). */
	char *model_plugin = s->o->clock == CLOCK_MODEL ? vm_model_plugin_path() : NULL;
	struct qemu_plan p = {
		.machine = s->machine, .accel = vm_accel_name(s->accel), .cores = s->o->cores,
		.icount = clock_runs_icount(s->o->clock), .icount_shift = ICOUNT_SHIFT,
		.icount_seed = s->o->round + 1,
		.mem_mib = s->o->mem_mib, .kernel = s->kernel_path, .append = append,
		.rootfs = rootfs, .virtiofs_socket = s->vfs.socket, .root_dir = s->view.root,
		.console_log = s->r->console_log, .console_fd = s->console_fd,
		.result_socket = s->socket_path[PORT_RESULT], .output_socket = s->socket_path[PORT_OUTPUT],
		.qmp_socket = s->have_plan ? s->socket_path[PORT_QMP] : NULL,
		.start_paused = s->have_plan, .host_nodes = nodes, .disks = s->o->disks,
		.prealloc = s->o->prealloc, .plugin = model_plugin ? model_plugin : s->o->qemu_plugin,
		.plugin_args = model_plugin ? NULL : s->o->qemu_plugin_args,
	};

	hb_free_strv(s->qemu_argv);
	s->qemu_argv = qemu_build_argv(&p);
	free(model_plugin);
	free(s->r->rootfs);
	s->r->rootfs = xstrdup(rootfs);
	free(append);
	free(nodes);
}

static void push_share(struct hb_strv *v, const char *path)
{
	if (path && *path)
		hb_strv_push(v, xstrdup(path));
}

/* What the guest reads from the host besides the system folders: its init and helpers,
 * the workloads' files, the job file, the declared shares, and the kernel's modules. */
static int plan_view(struct vm_session *s)
{
	struct hb_strv shares = { 0 };
	char *root = hb_path_join(s->rundir, "root");
	char *workloads = hb_path_join(hb_source_dir(), "workloads");

	if (mkdir(root, 0700) < 0 && errno != EEXIST) {
		session_fail(s, VM_ERR_START, "mkdir %s: %s", root, strerror(errno));
		free(workloads);
		free(root);
		return -1;
	}
	push_share(&shares, hb_build_dir());
	push_share(&shares, workloads);
	push_share(&shares, s->jobfile);
	for (size_t i = 0; s->o->shares && s->o->shares[i]; i++)
		push_share(&shares, s->o->shares[i]);
	host_view_plan(&s->view, root, shares.v, s->k->modules_root);
	hb_free_strv(shares.v);
	free(workloads);
	free(root);
	return 0;
}

/* virtiofs unless asked for 9p; "auto" falls back to 9p when virtiofsd cannot serve. */
static void choose_rootfs(struct vm_session *s)
{
	const char *want = s->o->rootfs ? s->o->rootfs : "auto";

	s->use_virtiofs = strcmp(want, "9p") != 0;
	virtiofsd_prepare(&s->vfs, s->rundir, &s->view);
	if (s->use_virtiofs && !strcmp(want, "auto") && access(VIRTIOFSD_PATH, X_OK) < 0) {
		s->use_virtiofs = false;
		s->r->rootfs_reason = xasprintf("%s: %s", VIRTIOFSD_PATH, strerror(errno));
	}
}

int session_prepare(struct vm_session *s)
{
	char *init = guest_init_path();
	int rc;

	s->machine = s->o->machine ? s->o->machine : vm_default_machine();
	s->r->machine = xstrdup(s->machine);
	if (make_log_dir(s) < 0 || choose_kernel(s) < 0) {
		free(init);
		return -1;
	}
	if (!hb_is_file(init)) {
		session_fail(s, VM_ERR_START, "the guest init %s is not built (ninja -C %s)", init,
			     hb_build_dir());
		free(init);
		return -1;
	}
	free(init);
	/* It names its owner, so a later harness removes it if this one is killed. */
	if (!(s->rundir = hb_mkdtemp_owned(HB_TMP_VM))) {
		return session_fail(s, VM_ERR_START, "mkdtemp: %s", strerror(errno));
	}
	for (int i = 0; i < PORT_COUNT; i++)
		s->socket_path[i] = hb_path_join(s->rundir, port_names[i]);
	if ((rc = write_job_file(s)) != 0 || (rc = plan_view(s)) != 0 || (rc = plan_pinning(s)) != 0)
		return -1;
	s->extra_cmdline = harness_cmdline(s);
	choose_rootfs(s);
	session_build_argv(s);
	return 0;
}

/* Shell-quotes for display, so the printed command can be pasted. */
static void print_word(FILE *f, const char *w)
{
	if (*w && !w[strcspn(w, " \t\n'\"\\$`;&|<>()*?[]{}!#~")]) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		fputs(*w == '\'' ? "'\\''" : (char[]){ *w, 0 }, f);
	fputc('\'', f);
}

/* One option (with its value) per line. */
static void print_argv(FILE *f, char *const *argv)
{
	print_word(f, argv[0]);
	for (size_t i = 1; argv[i]; i++) {
		fputs(" \\\n  ", f);
		print_word(f, argv[i]);
		if (argv[i][0] == '-' && argv[i + 1] && argv[i + 1][0] != '-') {
			fputc(' ', f);
			print_word(f, argv[++i]);
		}
	}
	fputc('\n', f);
}

void session_print_dry_run(const struct vm_session *s)
{
	host_view_print(&s->view, stdout);
	if (s->use_virtiofs) {
		printf("# virtiofsd (in a private mount namespace where %s is that view)\n", s->vfs.view);
		print_argv(stdout, s->vfs.argv);
	} else {
		printf("# QEMU runs in a private mount namespace where %s is that view\n", s->view.root);
	}
	printf("# QEMU (accel %s: %s)\n", s->r->accel, s->r->accel_reason);
	print_argv(stdout, s->qemu_argv);
	fflush(stdout);
}
