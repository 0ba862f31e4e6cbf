/* The QEMU argv and kernel command line, for both machines and both root shares. */
#include <stdlib.h>
#include <string.h>

#include "boot/qemu_argv.h"
#include "test.h"
#include "common/argparse.h"

/* Index of the element equal to s, or -1. */
static int find(char **argv, const char *s)
{
	for (int i = 0; argv[i]; i++)
		if (!strcmp(argv[i], s))
			return i;
	return -1;
}

/* The value after option opt whose value starts with prefix, or NULL. */
static const char *value_of(char **argv, const char *opt, const char *prefix)
{
	for (int i = 0; argv[i] && argv[i + 1]; i++)
		if (!strcmp(argv[i], opt) && !strncmp(argv[i + 1], prefix, strlen(prefix)))
			return argv[i + 1];
	return NULL;
}

static struct qemu_plan base_plan(const char *machine, const char *rootfs)
{
	return (struct qemu_plan){ .machine = machine, .accel = "tcg", .cores = 2, .mem_mib = 2048,
				   .kernel = "/k/bzImage", .append = "console=ttyS0", .rootfs = rootfs,
				   .virtiofs_socket = "/r/vfs.sock", .console_log = "/l/console.log",
				   .console_fd = 7,
				   .result_socket = "/r/res.sock", .output_socket = "/r/out.sock" };
}

/* The instruction-count clock: -icount with sleep off, and the host's randomness (RDRAND
 * stream, RTC start) fixed so boots repeat; none of it on the host clock. */
TEST(icount_clock)
{
	struct qemu_plan p = base_plan("microvm", "virtiofs");
	char **argv;

	p.cores = 1;
	p.icount = true;
	p.icount_seed = 3;
	argv = qemu_build_argv(&p);
	CHECK_STR(value_of(argv, "-icount", ""), "shift=0,sleep=off");
	CHECK_STR(value_of(argv, "-seed", ""), "3");
	CHECK_STR(value_of(argv, "-rtc", ""), "base=2030-01-01T00:00:00,clock=vm");
	CHECK_STR(value_of(argv, "-accel", ""), "tcg");
	hb_free_strv(argv);
	p.icount = false;
	argv = qemu_build_argv(&p);
	CHECK(find(argv, "-icount") < 0 && find(argv, "-seed") < 0 && find(argv, "-rtc") < 0);
	hb_free_strv(argv);
}

TEST(microvm_virtiofs)
{
	struct qemu_plan p = base_plan("microvm", "virtiofs");
	char **argv = qemu_build_argv(&p);

	CHECK(argv != NULL);
	CHECK_STR(argv[0], QEMU_BINARY);
	CHECK(find(argv, "-no-reboot") > 0);
	CHECK(find(argv, "-nodefaults") > 0);
	CHECK(find(argv, "-S") < 0); /* not paused without pinning */
	CHECK(value_of(argv, "-machine", "microvm") != NULL);
	CHECK(strstr(value_of(argv, "-machine", "microvm"), "memory-backend=hb-mem") != NULL);
	CHECK_STR(value_of(argv, "-global", ""), "virtio-mmio.force-legacy=false");
	CHECK_STR(value_of(argv, "-smp", ""), "2");
	CHECK_STR(value_of(argv, "-m", ""), "2048M");
	CHECK_STR(value_of(argv, "-cpu", ""), "max");
	CHECK(value_of(argv, "-object", "memory-backend-memfd,id=hb-mem,size=2048M,share=on") != NULL);
	CHECK(value_of(argv, "-device", "vhost-user-fs-device,chardev=hb-fs,tag=" ROOT_TAG) != NULL);
	CHECK(value_of(argv, "-device", "virtio-serial-device") != NULL);
	CHECK(value_of(argv, "-chardev", "socket,id=hb-fs,path=/r/vfs.sock") != NULL);
	CHECK(value_of(argv, "-chardev", "socket,id=hb-res,path=/r/res.sock") != NULL);
	CHECK(value_of(argv, "-device", "virtserialport,bus=hb-ser.0,chardev=hb-res,name=hardbench.result") != NULL);
	CHECK(value_of(argv, "-device", "virtserialport,bus=hb-ser.0,chardev=hb-out,name=hardbench.output") != NULL);
	CHECK(value_of(argv, "-chardev", "file,append=on,id=hb-con,path=/dev/fdset/1") != NULL);
	CHECK(find(argv, "-add-fd") >= 0 && find(argv, "-add-fd") < find(argv, "-chardev"));
	CHECK(value_of(argv, "-fsdev", "") == NULL);
	CHECK(find(argv, "-mon") < 0);
	CHECK_STR(value_of(argv, "-append", ""), "console=ttyS0");
	hb_free_strv(argv);
}

/* A comma in a path (--log-dir, the run folder) is doubled: it cannot add an option. */
TEST(commas_in_paths_are_escaped)
{
	struct qemu_plan p = base_plan("microvm", "9p");
	char **argv;

	p.console_log = "/l,server=on,path=/x/console.log";
	p.root_dir = "/r,a/root";
	argv = qemu_build_argv(&p);
	/* console.log goes by descriptor: its path, commas and all, is not on the line. */
	CHECK(value_of(argv, "-chardev", "file,append=on,id=hb-con,path=/dev/fdset/1") != NULL);
	CHECK(value_of(argv, "-add-fd", "fd=7,set=1,opaque=console.log") != NULL);
	for (size_t i = 0; argv[i]; i++)
		CHECK(!strstr(argv[i], "server=on"));
	CHECK(value_of(argv, "-fsdev", "local,id=hb-fs,path=/r,,a/root,security_model=none") != NULL);
	hb_free_strv(argv);
}

/* --qemu-plugin: one -plugin, the path's commas doubled, the plugin's own arguments after
 * it as given; none without the option. */
TEST(plugin_file_then_its_arguments)
{
	struct qemu_plan p = base_plan("microvm", "virtiofs");
	char **argv = qemu_build_argv(&p);

	CHECK(find(argv, "-plugin") == -1);
	hb_free_strv(argv);
	p.plugin = "/b/hb-cache-model.so";
	argv = qemu_build_argv(&p);
	CHECK_STR(value_of(argv, "-plugin", ""), "file=/b/hb-cache-model.so");
	hb_free_strv(argv);
	p.plugin_args = "l1=65536,range=0-1000";
	argv = qemu_build_argv(&p);
	CHECK_STR(value_of(argv, "-plugin", ""), "file=/b/hb-cache-model.so,l1=65536,range=0-1000");
	hb_free_strv(argv);
	p.plugin = "/b,c/x.so";
	argv = qemu_build_argv(&p);
	CHECK_STR(value_of(argv, "-plugin", ""), "file=/b,,c/x.so,l1=65536,range=0-1000");
	hb_free_strv(argv);
}

TEST(q35_9p_pinned)
{
	struct qemu_plan p = base_plan("q35", "9p");
	const char *disks[] = { "/img/a,b.ext4", NULL };
	char **argv;

	p.accel = "kvm";
	p.qmp_socket = "/r/qmp.sock";
	p.start_paused = true;
	p.host_nodes = "0-1";
	p.disks = disks;
	argv = qemu_build_argv(&p);
	CHECK(find(argv, "-S") > 0);
	CHECK_STR(value_of(argv, "-cpu", ""), "host");
	CHECK_STR(value_of(argv, "-accel", ""), "kvm");
	CHECK(strstr(value_of(argv, "-machine", "q35"), "i8042=off") != NULL);
	CHECK(value_of(argv, "-global", "") == NULL);
	CHECK(value_of(argv, "-fsdev", "local,id=hb-fs,path=/,security_model=none,readonly=on") != NULL);
	CHECK(value_of(argv, "-device", "virtio-9p-pci,fsdev=hb-fs,mount_tag=" ROOT_TAG) != NULL);
	CHECK(value_of(argv, "-device", "vhost-user-fs") == NULL);
	CHECK(value_of(argv, "-device", "virtio-serial-pci") != NULL);
	CHECK(value_of(argv, "-chardev", "socket,id=hb-qmp,path=/r/qmp.sock") != NULL);
	CHECK_STR(value_of(argv, "-mon", ""), "chardev=hb-qmp,mode=control");
	CHECK(strstr(value_of(argv, "-object", "memory-backend"), ",host-nodes=0-1,policy=bind") != NULL);
	/* QEMU's escape for a comma in a path is a doubled comma. */
	CHECK_STR(value_of(argv, "-drive", ""), "file=/img/a,,b.ext4,if=none,id=hb-disk0,format=raw,snapshot=on");
	CHECK_STR(value_of(argv, "-device", "virtio-blk"), "virtio-blk-pci,drive=hb-disk0");
	hb_free_strv(argv);
}

TEST(unknown_machine)
{
	struct qemu_plan p = base_plan("pc", "9p");
	CHECK(qemu_build_argv(&p) == NULL);
	CHECK(!qemu_machine_known("pc"));
	CHECK(qemu_machine_known("q35") && qemu_machine_known("microvm"));
}

TEST(cmdline)
{
	struct cmdline_plan c = { .rootfs = "9p", .init = "/b/init", .tuning = "tsc=reliable",
				  .variant = "init_on_alloc=0 init_on_free=1", .extra = "quiet",
				  .jobfile = "/r/job" };
	char *line = kernel_cmdline(&c);

	CHECK(strstr(line, "root=" ROOT_TAG " rootfstype=9p rootflags=trans=virtio,") != NULL);
	CHECK(strstr(line, " ro ") && strstr(line, " panic=-1 ") && strstr(line, " oops=panic "));
	CHECK(strstr(line, " init=/b/init ") != NULL);
	/* Later wins: tuning, then the variant, then the user's --append; the job file last. */
	CHECK(strstr(line, "tsc=reliable init_on_alloc=0 init_on_free=1 quiet -- /r/job") != NULL);
	free(line);
	c = (struct cmdline_plan){ .rootfs = "virtiofs", .init = "/b/init", .jobfile = "/r/job" };
	line = kernel_cmdline(&c);
	CHECK_STR(line, "console=ttyS0 root=" ROOT_TAG " rootfstype=virtiofs ro panic=-1 "
		  "oops=panic init=/b/init -- /r/job");
	free(line);
}

TEST_MAIN()
