/* The QEMU command line and the guest kernel command line, built as data (no shell). */
#ifndef HB_BOOT_QEMU_ARGV_H
#define HB_BOOT_QEMU_ARGV_H

#include <stdbool.h>

#define QEMU_BINARY "qemu-system-x86_64"
#define ROOT_TAG "hostroot"

struct qemu_plan {
	const char *qemu;             /* binary path or name */
	const char *machine;          /* "q35" or "microvm" */
	const char *accel;            /* "kvm" or "tcg" */
	bool icount;                  /* -icount shift=icount_shift,sleep=off (TCG only) */
	int icount_shift;
	int icount_seed;              /* -seed N under icount: the guest's RDRAND stream */
	int cores;
	long mem_mib;
	const char *kernel;           /* bzImage, or a vmlinux with a PVH note */
	const char *append;           /* the whole kernel command line */
	const char *rootfs;           /* "virtiofs" or "9p" */
	const char *virtiofs_socket;  /* with rootfs virtiofs */
	const char *root_dir;         /* with rootfs 9p: the host folder served (the view) */
	const char *console_log;
	int console_fd;               /* console.log open for appending: -add-fd and
				       * /dev/fdset/N (a dry run: -1, printed as "fd=FD") */
	const char *result_socket;    /* the init's ports (harness listens, QEMU connects) */
	const char *output_socket;
	const char *qmp_socket;       /* NULL: no QMP */
	bool start_paused;            /* -S: vCPUs wait for QMP "cont" (pinning first) */
	const char *host_nodes;       /* bind guest RAM to these host NUMA nodes, or NULL */
	const char *const *disks;     /* read-only (snapshot=on) virtio-blk images, or NULL */
	bool prealloc;                /* back all guest RAM before boot (prealloc=on) */
	const char *plugin;           /* a TCG plugin's shared object, or NULL */
	const char *plugin_args;      /* its "ARG=VALUE,..." list as QEMU takes them, or NULL */
};

struct cmdline_plan {
	const char *rootfs;           /* "virtiofs" or "9p" */
	const char *init;             /* absolute path of the guest init on the host */
	const char *tuning;           /* the harness's own options (clock), or NULL */
	const char *variant;          /* the variant's options, or NULL */
	const char *extra;            /* the user's --append, or NULL */
	const char *jobfile;          /* passed to the init after "--" */
};

/* NULL-terminated argv (hb_free_strv). */
char **qemu_build_argv(const struct qemu_plan *p);
/* The guest kernel command line (free()). */
char *kernel_cmdline(const struct cmdline_plan *c);
/* true for the machines qemu_build_argv knows. */
bool qemu_machine_known(const char *machine);
/* The -cpu model of an accel ("kvm": the host's; "tcg": "max", every feature TCG
 * emulates), as the argv and meta.json's "qemu" record say it. */
const char *qemu_cpu_model(const char *accel);

#endif
