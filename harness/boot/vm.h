/* Booting a kernel under QEMU with the host root shared read-only, running jobs through
 * the static guest init (guest/init/), and collecting their results.
 *
 * Host <-> guest: the job list goes in a job file the init reads from the host root; the
 * init answers on a virtio-serial port ("metric value unit" lines, exit status, errors),
 * and forwards each job's stdout/stderr on a second port. The console is only a log.
 *
 * Layers, each calling only the ones below: accel.c (resolves the accel; its KVM probe is
 * a vm_run) > vm_run.c > the steps vm_setup.c, vm_start.c, vm_loop.c, vm_finish.c >
 * vm_session.c (what the steps share) > vm.c (option checks, defaults), vm_result.c and
 * the helpers (qemu_argv, proto, jobfile, child, virtiofsd, qmp, console_scan, tsc). */
#ifndef HB_BOOT_VM_H
#define HB_BOOT_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "boot/vm_types.h"
#include "kernel/kernel.h"


struct guest_job {
	char **argv;        /* NULL-terminated; argv[0] absolute or found on the guest PATH */
	char **env;         /* extra KEY=VALUE, NULL-terminated, or NULL */
	const char *cwd;    /* NULL: /tmp (a guest tmpfs) */
	int reps;           /* >= 1: the init runs the job this many times in one boot */
	char **irq;         /* /proc/interrupts row labels to count per rep (guest/protocol.h
			     * says which are accepted), NULL-terminated, or NULL */
};

/* One row of /proc/interrupts over one rep: its sum over all CPUs after minus before. */
struct irq_count {
	char *label;
	unsigned long long delta;
	char *missing;       /* NULL: delta is the count; else why there is none (also a count
			      * the host refused as out of range) */
};

/* One run of one job inside the guest. */
struct job_rep_result {
	int job;             /* index into the jobs array */
	int rep;             /* 0-based */
	int exit_code;       /* -1 when killed by a signal */
	int term_signal;     /* 0 unless killed */
	double wall_s;       /* fork to wait4 return, CLOCK_MONOTONIC in the guest */
	double user_s;       /* wait4 rusage of the job and its waited-for children */
	double sys_s;
	double guest_user_s; /* /proc/stat deltas summed over all guest CPUs */
	double guest_sys_s;
	double guest_idle_s;
	/* With hbprofile=1 (`harness run --profile`): the guest's halted time over the rep in
	 * nanoseconds (tick-sched idle + iowait sleep, guest/init/idle.c); -1 when not sent. */
	double idle_sleep_s;
	/* Timings the guest sent out of range, each with why ("wall -1: negative; accepted
	 * 0 to ... s"), "; "-separated, or NULL: those fields are NAN, their samples lost. */
	char *refused;
	struct irq_count *irq; /* per label the job asked for, as the guest sent them */
	size_t nirq;
	char *out;           /* the job's stdout, NUL-terminated */
	size_t out_len;
	char *err;           /* the job's stderr, NUL-terminated */
	size_t err_len;
	size_t out_cap, err_cap; /* bytes allocated for out and err (boot/proto_output.c) */
};

struct vm_opts {
	int cores;                /* vCPUs, >= 1 */
	long mem_mib;             /* guest RAM */
	double timeout_s;         /* whole boot incl. jobs; 0: default scaled to the accel */
	enum accel_kind accel;    /* ACCEL_KVM or ACCEL_TCG: resolved first (boot/accel.h) */
	enum guest_clock clock;   /* CLOCK_ICOUNT needs ACCEL_TCG (boot/clock.h) */
	int round;                /* a run's round (0-based): under icount the guest's random
				   * seed is round + 1, the same for every variant of a round */
	const char *accel_reason; /* why that accel (vm_result.accel_reason), or NULL */
	const char *machine;      /* "q35", "microvm", or NULL for the measured default */
	const char *rootfs;       /* "auto", "virtiofs", "9p"; NULL = auto */
	bool pin;                 /* pin vCPU threads (hwloc) and bind memory (libnuma) */
	bool overcommit;          /* allow more vCPUs than host cores */
	bool dry_run;             /* print the QEMU argv, one option per line; run nothing */
	bool stream_output;       /* copy the job's stdout/stderr to ours as it arrives */
	const char *log_dir;      /* where console.log etc. go; NULL: a fresh temp dir */
	const char *const *disks; /* images attached read-only (snapshot=on) as virtio-blk, or NULL */
	/* Host paths the guest sees read-only besides the system folders, the project's build
	 * folder and workloads/, and the kernel's cache entry (boot/host_view.h): --share
	 * PATH and what the workload declares. NULL-terminated, or NULL. */
	const char *const *shares;
	const char *extra_append; /* more kernel command line, or NULL */
	/* Back all guest RAM on the host before the guest starts. Measurements want it: the
	 * host's first touch of a guest page (a host page fault; under TCG far slower than
	 * the guest's own work) otherwise lands on whichever variant touches memory first:
	 * init_on_free=1 zeroes all free memory at boot, so it pays before the job and then
	 * looks faster than baseline in hackbench. */
	bool prealloc;
	/* `harness boot --qemu-plugin`: the plugin loaded into QEMU (TCG only; the caller
	 * checks the accel) and its "ARG=VALUE,..." list, each or both NULL. */
	const char *qemu_plugin;
	const char *qemu_plugin_args;
	/* (--clock model loads its own plugin, vm_model_plugin_path(), and writes its section
	 * counts to qemu.log: model/model.h reads them.) */
	const char *entry;        /* "bzimage", "pvh" (k->vmlinux), NULL: measured default */
	/* Called as each rep ends (progress, ETA), or NULL. out/err may still be incomplete:
	 * the output port is read separately. */
	void (*on_rep_done)(void *ctx, const struct job_rep_result *rep);
	void *on_rep_ctx;
	bool quiet;               /* no progress lines on stderr (the accel probe) */
};

enum vm_status {
	VM_OK = 0,          /* booted, every job ran (a job's own non-zero exit is still VM_OK) */
	VM_ERR_USAGE,       /* bad options (e.g. too many vCPUs): nothing was started */
	VM_ERR_START,       /* QEMU or virtiofsd could not start */
	VM_ERR_TIMEOUT,     /* killed after timeout_s; phase says where */
	VM_ERR_PANIC,       /* panic/oops/BUG on the console; error quotes the lines */
	VM_ERR_INIT,        /* the guest init reported a failure */
	VM_ERR_INTERRUPTED, /* SIGINT/SIGTERM reached the harness */
};

struct vm_result {
	enum vm_status status;
	char *error;             /* one line: why, and where the console log is */
	char *phase;             /* "start", "boot", "job", "shutdown" */
	struct job_rep_result *reps;
	size_t nreps;
	char *log_dir;
	char *console_log;
	char *accel;             /* "kvm" or "tcg" */
	const char *clock;       /* "host" or "icount" (a constant string) */
	char *accel_reason;      /* why that accel */
	char *machine;
	char *rootfs;            /* "virtiofs" or "9p" */
	json_object *pin_map;    /* [{"vcpu":0,"thread":1234,"pu":2,"core":1,"node":0}], or null */
	double boot_s;           /* QEMU start to the init's hello */
	double total_s;          /* QEMU start to exit */
	/* Where a boot's host time goes besides (bench/boot-bare.sh prints them): vm_run's
	 * start to QEMU's (files, view, pin plan, virtiofsd), and QEMU start to the init's
	 * "done" after the last job (0 when it never came); total_s - done_s is the
	 * power-off. */
	double prepare_s, done_s;
	/* Notes on how the boot ran; a reader may ignore them. */
	char *pin_note;          /* one sentence: housekeeping core or why there is none */
	bool overcommitted;      /* more vCPUs than host cores (--overcommit) */
	bool shared_cores;       /* vCPUs on cores another hardbench guest held (too few free) */
	char *rootfs_reason;     /* why 9p when virtiofs was wanted; NULL otherwise */
	char *kernel_entry;      /* "bzImage" or "pvh" (the vmlinux's PVH entry) */
	char **notes;            /* the guest init's non-fatal notes, NULL-terminated, or NULL */
};

/* Boots k with variant_cmdline appended and runs jobs in order, under o->accel (resolved
 * by the caller: an ACCEL_AUTO is VM_ERR_USAGE). Returns r->status. Defined in vm_run.c. */
int vm_run(const struct kernel_image *k, const char *variant_cmdline,
	   const struct guest_job *jobs, size_t njobs, const struct vm_opts *o,
	   struct vm_result *r);
/* vm_result.c */
void vm_result_free(struct vm_result *r);
/* status, error, phase, accel + reason, machine, rootfs (+ reason), kernel_entry, pin_map,
 * pin_note, overcommitted, shared_cores, boot_s, total_s, prepare_s, done_s, notes, and per rep the exit and timings (not
 * the output). New object; the caller puts it. */
json_object *vm_result_to_json(const struct vm_result *r);

/* vm.c */
/* Each --share PATH exists and is not "/": 0, or -1 with *why naming it. */
int vm_check_shares(const char *const *shares, char **why);
/* The checks vm_run makes before starting anything (vCPUs vs host cores, machine, rootfs,
 * sizes). 0, or -1 with *why (one line for hb_usage_why). Lets callers refuse bad
 * options before building a kernel. */
int vm_check_opts(const struct vm_opts *o, char **why);
/* "kvm", "tcg", "auto". */
const char *vm_accel_name(enum accel_kind a);
/* Default machine (measured: bench/boot-machines.sh) and timeouts per accel. */
const char *vm_default_machine(void);
double vm_default_timeout(enum accel_kind resolved);
/* The limit from QEMU start to the init's hello (within timeout_s): a stuck early boot
 * fails fast with phase "boot". */
double vm_boot_timeout(enum accel_kind resolved);
/* The model plugin of --clock model (plugins/model/, built with the harness). Caller frees. */
char *vm_model_plugin_path(void);
/* true with *why when it is not built. */
bool vm_model_plugin_missing(char **why);

/* vm_setup.c */
/* True when k must boot through its bzImage even though a vmlinux (PVH entry) exists:
 * KASAN kernels crash in the PVH entry before their early shadow exists. */
bool vm_kernel_needs_bzimage(const struct kernel_image *k);


#endif
