#include "boot/qemu_argv.h"
#include "boot/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "guest/protocol.h"

/* microvm has no PCI: the same devices come as virtio-mmio ("-device" suffix). */
struct machine_kind {
	const char *name;
	const char *machine_opts;  /* appended to -machine NAME */
	const char *bus_suffix;    /* "pci" or "device" */
	const char *global;        /* a -global setting, or NULL */
};

static const struct machine_kind machines[] = {
	/* No i8042 (its mouse probe holds up power-off by 0.6 s under TCG), SATA, SMBus or
	 * vmport: devices the guest never uses but probes. */
	{ "q35", ",i8042=off,sata=off,smbus=off,vmport=off", "pci", NULL },
	/* No legacy PIT/PIC (the kernel uses the LAPIC timer; tsc_early_khz gives it the TSC
	 * rate). The ISA serial port is the console. virtio-mmio defaults to the legacy
	 * interface, which virtiofsd (libvhost-user) refuses. (Its kernel log says "PCI: Fatal:
	 * No config space access function found": there is no PCI bus, and none is needed.) */
	{ "microvm", "", "device", "virtio-mmio.force-legacy=false" },
};

static const struct machine_kind *find_machine(const char *name)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].name, name))
			return &machines[i];
	return NULL;
}

bool qemu_machine_known(const char *machine) { return find_machine(machine) != NULL; }

struct argv_builder {
	char **v;
	size_t n, cap;
};

static void add(struct argv_builder *b, const char *s)
{
	b->v = xgrow(b->v, &b->cap, b->n + 2, sizeof(*b->v));
	b->v[b->n++] = xstrdup(s);
	b->v[b->n] = NULL;
}

/* An option and its value; the value is formatted (and owned) here. */
__attribute__((format(printf, 3, 4))) static void addf(struct argv_builder *b, const char *opt,
						     const char *fmt, ...)
{
	va_list ap;
	char *val;

	va_start(ap, fmt);
	val = xvasprintf(fmt, ap);
	va_end(ap);
	add(b, opt);
	b->v = xgrow(b->v, &b->cap, b->n + 2, sizeof(*b->v));
	b->v[b->n++] = val;
	b->v[b->n] = NULL;
}

/* A value inside a QEMU option list (-chardev, -drive, -fsdev): a comma ends the value
 * and starts another option unless doubled, QEMU's escape. Every path from the command
 * line (--log-dir, --disk) or the run folder goes through here. */
/* The fdset of console.log (-add-fd); any number QEMU has no other set under. */
#define CONSOLE_FDSET 1

static char *opt_value(const char *value)
{
	char *out = xmalloc(strlen(value) * 2 + 1), *o = out;

	for (const char *s = value; *s; s++)
		if ((*o++ = *s) == ',')
			*o++ = ',';
	*o = '\0';
	return out;
}

/* -chardev KIND,id=ID,path=PATH with the path escaped. */
static void add_chardev(struct argv_builder *b, const char *kind, const char *id, const char *path)
{
	char *escaped = opt_value(path);

	addf(b, "-chardev", "%s,id=%s,path=%s", kind, id, escaped);
	free(escaped);
}

static void add_machine(struct argv_builder *b, const struct qemu_plan *p,
			const struct machine_kind *m)
{
	addf(b, "-machine", "%s%s,memory-backend=hb-mem", m->name, m->machine_opts);
	addf(b, "-accel", "%s", p->accel);
	/* sleep=off: an idle guest jumps to its next timer instead of waiting for the host
	 * clock to get there, so idle time costs no host time and stays out of the count. */
	if (p->icount) {
		addf(b, "-icount", "shift=%d,sleep=off", p->icount_shift);
		/* What else a boot takes from the host at random, fixed (measured: boots then
		 * repeat to the nanosecond on a busybox initramfs): the RDRAND/RDSEED stream and
		 * the RTC time the kernel mixes into its entropy pool. The RTC then counts
		 * virtual time from a fixed date later than any file the guest sees. */
		addf(b, "-seed", "%d", p->icount_seed);
		addf(b, "-rtc", "base=%s,clock=vm", ICOUNT_RTC_BASE);
	}
	addf(b, "-cpu", "%s", qemu_cpu_model(p->accel));
	addf(b, "-smp", "%d", p->cores);
	addf(b, "-m", "%ldM", p->mem_mib);
	/* memfd with share=on: vhost-user (virtiofsd) maps guest RAM. Binding to host NUMA
	 * nodes here makes the placement visible in --dry-run. */
	addf(b, "-object", "memory-backend-memfd,id=hb-mem,size=%ldM,share=on%s%s%s%s", p->mem_mib,
	     p->host_nodes ? ",host-nodes=" : "", p->host_nodes ? p->host_nodes : "",
	     p->host_nodes ? ",policy=bind" : "", p->prealloc ? ",prealloc=on" : "");
}

static void add_root_share(struct argv_builder *b, const struct qemu_plan *p,
			   const struct machine_kind *m)
{
	if (!strcmp(p->rootfs, "virtiofs")) {
		add_chardev(b, "socket", "hb-fs", p->virtiofs_socket);
		addf(b, "-device", "vhost-user-fs-%s,chardev=hb-fs,tag=" ROOT_TAG ",queue-size=1024",
		     m->bus_suffix);
		return;
	}
	/* readonly=on: the host enforces what the guest's "ro" mount only promises. */
	char *root = opt_value(p->root_dir ? p->root_dir : "/");
	addf(b, "-fsdev", "local,id=hb-fs,path=%s,security_model=none,readonly=on,multidevs=remap", root);
	free(root);
	addf(b, "-device", "virtio-9p-%s,fsdev=hb-fs,mount_tag=" ROOT_TAG, m->bus_suffix);
}

static void add_ports(struct argv_builder *b, const struct qemu_plan *p,
		      const struct machine_kind *m)
{
	/* append=on: the host made console.log (O_EXCL|O_NOFOLLOW) and keeps it bounded by
	 * cutting it from the front, so QEMU must write at its end (boot/tail_log.h). QEMU
	 * gets it open (-add-fd; qemu_open takes /dev/fdset/N as a dup of a descriptor of the
	 * set with the same access mode): a path QEMU reopened could be swapped for a link
	 * between the harness making the file and QEMU opening it. */
	if (p->console_fd >= 0)
		addf(b, "-add-fd", "fd=%d,set=%d,opaque=console.log", p->console_fd, CONSOLE_FDSET);
	else
		addf(b, "-add-fd", "fd=FD,set=%d,opaque=console.log", CONSOLE_FDSET);
	addf(b, "-chardev", "file,append=on,id=hb-con,path=/dev/fdset/%d", CONSOLE_FDSET);
	addf(b, "-serial", "chardev:hb-con");
	addf(b, "-device", "virtio-serial-%s,id=hb-ser", m->bus_suffix);
	add_chardev(b, "socket", "hb-res", p->result_socket);
	addf(b, "-device", "virtserialport,bus=hb-ser.0,chardev=hb-res,name=" HB_PORT_RESULT);
	add_chardev(b, "socket", "hb-out", p->output_socket);
	addf(b, "-device", "virtserialport,bus=hb-ser.0,chardev=hb-out,name=" HB_PORT_OUTPUT);
	if (p->qmp_socket) {
		add_chardev(b, "socket", "hb-qmp", p->qmp_socket);
		addf(b, "-mon", "chardev=hb-qmp,mode=control");
	}
}

const char *qemu_cpu_model(const char *accel)
{
	return !strcmp(accel, "kvm") ? "host" : "max";
}

/* -plugin file=PATH[,ARGS]: the path escaped, the plugin's own arguments as given. */
static void add_plugin(struct argv_builder *b, const struct qemu_plan *p)
{
	char *escaped = opt_value(p->plugin);

	addf(b, "-plugin", "file=%s%s%s", escaped, p->plugin_args ? "," : "",
	     p->plugin_args ? p->plugin_args : "");
	free(escaped);
}

static void add_disks(struct argv_builder *b, const struct qemu_plan *p,
		      const struct machine_kind *m)
{
	for (size_t i = 0; p->disks && p->disks[i]; i++) {
		/* snapshot=on: the guest may write (mount, journal replay); nothing reaches the
		 * image. */
		char *path = opt_value(p->disks[i]);
		addf(b, "-drive", "file=%s,if=none,id=hb-disk%zu,format=raw,snapshot=on", path, i);
		addf(b, "-device", "virtio-blk-%s,drive=hb-disk%zu", m->bus_suffix, i);
		free(path);
	}
}

char **qemu_build_argv(const struct qemu_plan *p)
{
	const struct machine_kind *m = find_machine(p->machine);
	struct argv_builder b = { 0 };

	if (!m)
		return NULL;
	add(&b, p->qemu ? p->qemu : QEMU_BINARY);
	add(&b, "-nodefaults");
	add(&b, "-no-user-config");
	addf(&b, "-display", "none");
	add(&b, "-no-reboot");
	if (p->start_paused)
		add(&b, "-S");
	add_machine(&b, p, m);
	if (m->global)
		addf(&b, "-global", "%s", m->global);
	addf(&b, "-kernel", "%s", p->kernel);
	addf(&b, "-append", "%s", p->append);
	add_ports(&b, p, m);
	add_root_share(&b, p, m);
	add_disks(&b, p, m);
	if (p->plugin)
		add_plugin(&b, p);
	return b.v;
}

char *kernel_cmdline(const struct cmdline_plan *c)
{
	const char *root = !strcmp(c->rootfs, "virtiofs")
		? "root=" ROOT_TAG " rootfstype=virtiofs"
		/* msize: the virtio transport's maximum in 6.1 (the default is 128 KiB). */
		: "root=" ROOT_TAG " rootfstype=9p "
		  "rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=512000";

	const char *parts[] = { c->tuning, c->variant, c->extra };
	char *line = xasprintf("console=ttyS0 %s ro panic=-1 oops=panic init=%s", root, c->init);

	/* ro: the host root stays read-only; panic=-1 + oops=panic: a broken guest ends
	 * QEMU (-no-reboot) instead of hanging until the timeout. Later options win, so the
	 * variant overrides the harness's tuning and the user's --append overrides both. */
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i] || !*parts[i])
			continue;
		char *longer = xasprintf("%s %s", line, parts[i]);
		free(line);
		line = longer;
	}
	char *full = xasprintf("%s -- %s", line, c->jobfile);
	free(line);
	return full;
}
