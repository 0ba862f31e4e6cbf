/* hb-kbuild: a kernel build inside the guest, the workload of seeds 001 and 002.
 *
 * usage: hb-kbuild --tree SRC [--label LABEL] (--prepared OBJ | --config NAME --out OBJ)
 *                  [--jobs N] [TARGET...]
 *   SRC       the kernel tree's path. With --label, the ext4 disk carrying that label is
 *             mounted read-only over SRC first, so make reads the sources from a local
 *             disk (never over 9p or virtiofs) under the very path the host used.
 *   --prepared OBJ
 *             OBJ is an O= directory the host configured and prepared (make NAME;
 *             make prepare). It is covered with a tmpfs holding a fresh copy of itself for
 *             every rep, so each rep compiles its targets cold and nothing else.
 *   --config NAME --out OBJ
 *             without a prepared directory: a fresh OBJ, `make NAME` and `make prepare`
 *             run first (slow under TCG; used on the host by the tests).
 *   TARGET    make targets (default: make's default, vmlinux and bzImage)
 *
 * With --prepared the make runs chrooted in a tmpfs copy of the toolchain, the tree's
 * pages cached first (memroot.h): nothing it does waits on I/O.
 * Only `make -jN TARGET...` is timed: wall clock, its rusage (make and every compiler it
 * waited for) and the whole guest's /proc/stat user/sys. make's output goes to a log
 * next to OBJ in /tmp; its last lines are quoted when it fails. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest/marker.h"
#include "helper.h"
#include "memroot.h"

#define EXT4_SUPER_OFFSET 1024
#define EXT4_MAGIC_OFFSET 0x38
#define EXT4_LABEL_OFFSET 0x78
#define EXT4_LABEL_LEN 16
/* The host's prepared directory stays reachable here once a tmpfs covers its path. */
#define PREPARED_ORIGINAL "/run/hb-kbuild-prepared"
/* On the guest's per-boot /run: the mounts above are in place. */
#define SOURCE_MOUNTED_MARK "/run/hb-kbuild-source.mounted"
#define PREPARED_MOUNTED_MARK "/run/hb-kbuild-prepared.mounted"
#define LOG_FILE "/tmp/hb-kbuild.log"
#define LOG_TAIL_LINES 15
#define ARGV_MAX 64
/* The section marker around the timed make (guest/marker.h; workload.ini [metric wall]). */
#define KBUILD_MARK_MAKE 1

struct options {
	const char *tree;
	const char *label;
	const char *prepared;
	const char *config;
	const char *out;
	long jobs;
	char **targets;
	int ntargets;
};

/* The make's times, and what says whether it waited: the guest's idle and iowait time
 * and the sectors read from its disks over the make (both 0 when nothing was waited on). */
struct usage {
	double wall_s, user_s, sys_s, guest_user_s, guest_sys_s, guest_idle_s, guest_iowait_s;
	long long disk_read_sectors;
};

/* Does the block device hold an ext2/3/4 file system with this label? */
static int has_label(const char *dev, const char *label)
{
	unsigned char sb[EXT4_LABEL_OFFSET + EXT4_LABEL_LEN];
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, sb, sizeof(sb), EXT4_SUPER_OFFSET);

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(sb) || sb[EXT4_MAGIC_OFFSET] != 0x53 || sb[EXT4_MAGIC_OFFSET + 1] != 0xEF)
		return 0;
	return !strncmp((const char *)sb + EXT4_LABEL_OFFSET, label, EXT4_LABEL_LEN);
}

/* The disk's /dev name: virtio disks are numbered in attach order, which we do not rely on. */
static char *find_labelled_disk(const char *label)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char dev[300];
	char *found = NULL;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		if (has_label(dev, label))
			found = strdup(dev);
	}
	if (d)
		closedir(d);
	if (!found)
		helper_die(HELPER_EXIT_FAIL, "no disk with the ext4 label '%s' (is the kbuild source "
			   "image attached, and CONFIG_VIRTIO_BLK and CONFIG_EXT4_FS set?)", label);
	return found;
}

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

/* Once per boot: the source disk over the tree's own path. */
static void mount_source(const char *label, const char *tree)
{
	char *dev;

	if (access(SOURCE_MOUNTED_MARK, F_OK) == 0)
		return;
	dev = find_labelled_disk(label);
	if (mount(dev, tree, "ext4", MS_RDONLY | MS_NOATIME, NULL) < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot mount %s (label %s) on %s: %s", dev, label, tree,
			   strerror(errno));
	free(dev);
	touch(SOURCE_MOUNTED_MARK);
}

/* Once per boot: keep the host's prepared directory reachable, then cover its path with
 * a tmpfs, so the copy make works in has the path the host prepared it under. */
static void mount_prepared(const char *prepared)
{
	if (access(PREPARED_MOUNTED_MARK, F_OK) == 0)
		return;
	mkdir(PREPARED_ORIGINAL, 0755);
	if (mount(prepared, PREPARED_ORIGINAL, NULL, MS_BIND, NULL) < 0 ||
	    mount("tmpfs", prepared, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot put a tmpfs over %s: %s", prepared, strerror(errno));
	touch(PREPARED_MOUNTED_MARK);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)type;
	return f->level == 0 ? 0 : remove(path); /* the top stays: it may be a mount point */
}

static void empty_dir(const char *dir)
{
	if (nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
		helper_die(HELPER_EXIT_FAIL, "cannot empty %s: %s", dir, strerror(errno));
}

static void quote_log_tail(const char *log)
{
	char *text = helper_read_file(log);
	const char *p;
	int lines = 0;

	if (!text)
		return;
	p = text + strlen(text);
	while (p > text && lines <= LOG_TAIL_LINES)
		if (*--p == '\n')
			lines++;
	fprintf(stderr, "%s", p == text ? p : p + 1);
	free(text);
}

/* Runs argv with stdout and stderr appended to the log (chrooted into the in-memory root
 * when asked); fails with the log's tail quoted. marked: the timed make, which the
 * section markers of guest/marker.h bracket (id 1: workload.ini's wall). */
static struct usage run_logged(char **argv, const char *what, bool chrooted, bool marked)
{
	struct usage u;
	struct rusage ru;
	struct helper_cpu_times before, after;
	double t0;
	int status;
	pid_t pid;

	long long read0;

	fflush(stdout);
	helper_system_cpu(&before);
	read0 = helper_disk_read_sectors();
	t0 = helper_now();
	if (marked)
		HB_MARK_START(KBUILD_MARK_MAKE);
	pid = fork();
	if (pid == 0) {
		int fd = open(LOG_FILE, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || (chrooted && memroot_enter() < 0))
			_exit(126);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		helper_die(HELPER_EXIT_FAIL, "cannot run %s: %s", argv[0], strerror(errno));
	if (marked)
		HB_MARK_END(KBUILD_MARK_MAKE);
	u.wall_s = helper_now() - t0;
	helper_system_cpu(&after);
	u.disk_read_sectors = read0 < 0 ? -1 : helper_disk_read_sectors() - read0;
	u.guest_idle_s = after.idle_s - before.idle_s;
	u.guest_iowait_s = after.iowait_s - before.iowait_s;
	u.user_s = helper_tv_s(ru.ru_utime);
	u.sys_s = helper_tv_s(ru.ru_stime);
	u.guest_user_s = after.user_s - before.user_s;
	u.guest_sys_s = after.sys_s - before.sys_s;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		quote_log_tail(LOG_FILE);
		helper_die(HELPER_EXIT_FAIL, "%s failed (%s %d); see the lines above", what,
			   WIFEXITED(status) ? "exit status" : "signal",
			   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	return u;
}

/* argv of `make -s -C TREE O=OBJ ARCH=x86_64 CC=gcc HOSTCC=gcc -jN WORDS...` (freed with
 * free_make_argv). */
static char **make_argv(const struct options *o, const char *obj, char **words, int nwords)
{
	char **argv = calloc(ARGV_MAX, sizeof(*argv));
	int n = 0;

	if (!argv || nwords > ARGV_MAX - 12)
		helper_die(HELPER_EXIT_USAGE, "too many make targets (at most %d)", ARGV_MAX - 12);
	argv[n++] = strdup("make");
	argv[n++] = strdup("-s");
	argv[n++] = strdup("-C");
	argv[n++] = strdup(o->tree);
	if (asprintf(&argv[n++], "O=%s", obj) < 0 || asprintf(&argv[n++], "-j%ld", o->jobs) < 0)
		helper_die(HELPER_EXIT_FAIL, "out of memory");
	argv[n++] = strdup("ARCH=x86_64");
	argv[n++] = strdup("CC=gcc");
	argv[n++] = strdup("HOSTCC=gcc");
	for (int i = 0; i < nwords; i++)
		argv[n++] = strdup(words[i]);
	return argv;
}

static void free_make_argv(char **argv)
{
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

static void run_make(const struct options *o, const char *obj, char **words, int nwords,
		     const char *what, bool marked, struct usage *u)
{
	char **argv = make_argv(o, obj, words, nwords);
	*u = run_logged(argv, what, o->prepared != NULL, marked);
	free_make_argv(argv);
}

/* A cold object directory for this rep; returns the untimed seconds it took. */
static double fresh_objects(const struct options *o)
{
	double t0 = helper_now();
	struct usage u;

	if (o->prepared) {
		char *cp[] = { "cp", "-a", PREPARED_ORIGINAL "/.", (char *)o->prepared, NULL };
		mount_prepared(o->prepared);
		empty_dir(o->prepared);
		run_logged(cp, "copying the prepared objects", false, false);
		memroot_prepare(o->tree, o->prepared, o->targets, o->ntargets);
	} else {
		char *words[] = { (char *)o->config };
		char *prepare[] = { "prepare" };
		empty_dir(o->out);
		mkdir(o->out, 0755);
		run_make(o, o->out, words, 1, "make config", false, &u);
		run_make(o, o->out, prepare, 1, "make prepare", false, &u);
	}
	return helper_now() - t0;
}

static struct options parse_args(int argc, char **argv)
{
	static const struct option options[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'l' },
		{ "prepared", required_argument, NULL, 'p' },
		{ "config", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 't': o.tree = optarg; break;
		case 'l': o.label = optarg; break;
		case 'p': o.prepared = optarg; break;
		case 'c': o.config = optarg; break;
		case 'o': o.out = optarg; break;
		case 'j': o.jobs = helper_parse_long("--jobs", optarg, 1, 4096); break;
		default:
			helper_die(HELPER_EXIT_USAGE, "usage: hb-kbuild --tree SRC [--label L] (--prepared "
				   "OBJ | --config NAME --out OBJ) [--jobs N] [TARGET...]");
		}
	}
	if (!o.tree)
		helper_die(HELPER_EXIT_USAGE, "--tree is required");
	if (!o.prepared == !(o.config && o.out))
		helper_die(HELPER_EXIT_USAGE, "give either --prepared or both --config and --out");
	if ((o.prepared ? o.prepared : o.out)[0] != '/')
		helper_die(HELPER_EXIT_USAGE, "'%s' is not an absolute path", o.prepared ? o.prepared : o.out);
	if (!o.jobs)
		o.jobs = sysconf(_SC_NPROCESSORS_ONLN);
	o.targets = argv + optind;
	o.ntargets = argc - optind;
	return o;
}

int main(int argc, char **argv)
{
	struct options o = parse_args(argc, argv);
	const char *obj = o.prepared ? o.prepared : o.out;
	struct usage build;
	double setup_s;

	setenv("CCACHE_DISABLE", "1", 1); /* a cache hit would time nothing */
	unlink(LOG_FILE);
	if (o.label)
		mount_source(o.label, o.tree);
	setup_s = fresh_objects(&o);
	run_make(&o, obj, o.targets, o.ntargets, "make", true, &build);
	printf("jobs %ld\nsetup_s %.3f\n", o.jobs, setup_s);
	printf("wall_s %.3f\nuser_s %.3f\nsys_s %.3f\n", build.wall_s, build.user_s, build.sys_s);
	printf("guest_user_s %.2f\nguest_sys_s %.2f\n", build.guest_user_s, build.guest_sys_s);
	printf("guest_idle_s %.2f\nguest_iowait_s %.2f\n", build.guest_idle_s, build.guest_iowait_s);
	if (build.disk_read_sectors >= 0)
		printf("disk_read_kib %lld\n", build.disk_read_sectors / 2);
	/* The objects fill the guest's RAM: drop them before the next rep. */
	empty_dir(obj);
	return 0;
}
