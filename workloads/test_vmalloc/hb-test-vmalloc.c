/* hb-test-vmalloc: loads the guest kernel's test_vmalloc.ko with the given module
 * parameters and prints the kernel log lines the load produced.
 *
 * usage: hb-test-vmalloc [--module PATH] [--each-test MASK [--prime MASK] [--repeat MASK=N]]
 *                        [PARAM=VALUE ...]
 *   PATH defaults to test_vmalloc.ko found under /lib/modules/<uname -r>/.
 *   --each-test MASK loads the module once per set bit of MASK, with run_test_mask set to
 *   that bit (give no run_test_mask of your own then). Several workers (nr_threads) line
 *   up only once per load, before their first test, so in one load of many tests a
 *   worker's time for a test holds however much of the other workers' work overlaps it,
 *   which shifts from boot to boot when the workers share a CPU. One test per load starts
 *   every test with all workers at once.
 *   --prime MASK (a subset of --each-test's) loads each of those tests once more right
 *   before its load, untimed, its log lines sent to stderr. align_shift_alloc_test fails
 *   by design, and the kernel's warn_alloc prints a stack dump and show_mem for a failed
 *   vmalloc at most once per 10 s (mm/page_alloc.c nopage_rs): whether a timed load paid
 *   for that dump (0.6 ms of 0.3 ms baseline here, ms under KASAN) depended on the guest
 *   time since the last one. The untimed load takes the dump, so no timed load does.
 *   --repeat MASK=N (a subset of --each-test's) gives the loads of those tests
 *   test_repeat_count=N (give no test_repeat_count of your own then). With several workers
 *   on one CPU, a worker's time for a test a few ms long held the other worker's run or
 *   not, as the scheduler's tick fell: align_shift under kasan-vmalloc, one vCPU, two
 *   workers, 4 boots: 10150, 9269, 10175 or 5288 usec for worker0. Run 20 times, the test
 *   spans many time slices, as the longer tests do, and each worker's time holds both
 *   workers' runs every time: 9820-10423 usec, 4 boots.
 *
 * The module runs its tests inside its init function and then returns -EAGAIN on
 * purpose so it never stays loaded: for us that errno is success. Its results are only in
 * the kernel log, so the log is read from /dev/kmsg starting at its end as it was just
 * before the load. */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "helper.h"

#define MODULE_FILE "test_vmalloc.ko"
#define PARAMS_MAX 4096
#define KMSG_RECORD_MAX 8192
#define TESTS_MAX 31 /* bits of run_test_mask the module may know of */

/* test_vmalloc.ko under /lib/modules/<release>/ (kernel/lib/ in an installed tree, but
 * any layout will do). Caller frees. */
static char *default_module(void)
{
	struct utsname u;
	char dir[512];
	char *const roots[] = { dir, NULL };
	char *found = NULL;
	FTSENT *e;
	FTS *fts;

	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	while (fts && !found && (e = fts_read(fts)))
		if (e->fts_info == FTS_F && !strcmp(e->fts_name, MODULE_FILE))
			found = strdup(e->fts_path);
	if (fts)
		fts_close(fts);
	if (!found)
		helper_die(HELPER_EXIT_FAIL, "no %s under %s (is CONFIG_TEST_VMALLOC=m in this build, "
			   "and are its modules mounted?)", MODULE_FILE, dir);
	return found;
}

/* Joins PARAM=VALUE arguments into the module's parameter string. */
static void join_params(char **args, int n, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (!strchr(args[i], '=') || strpbrk(args[i], " \t\n"))
			helper_die(HELPER_EXIT_USAGE, "bad module parameter '%s' (accepted: NAME=VALUE)", args[i]);
		int w = snprintf(out + used, size - used, "%s%s", i ? " " : "", args[i]);
		if (w < 0 || (size_t)w >= size - used)
			helper_die(HELPER_EXIT_USAGE, "module parameters longer than %zu bytes", size);
		used += (size_t)w;
	}
}

/* Opens the kernel log positioned after everything already in it. */
static int open_kmsg_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot open /dev/kmsg: %s", strerror(errno));
	if (lseek(fd, 0, SEEK_END) < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot seek /dev/kmsg: %s", strerror(errno));
	return fd;
}

/* A record is "prio,seq,usec,flags;message\n" plus " KEY=VALUE" continuation lines. */
static void print_record(const char *rec, FILE *out)
{
	const char *msg = strchr(rec, ';');
	size_t len;

	if (!msg)
		return;
	msg++;
	len = strcspn(msg, "\n");
	fprintf(out, "%.*s\n", (int)len, msg);
}

static void print_new_records(int fd, FILE *out)
{
	char rec[KMSG_RECORD_MAX];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			helper_die(HELPER_EXIT_FAIL, "kernel log overwritten while reading: test_vmalloc "
				   "lines were lost (lower test parameters or raise log_buf_len)");
		if (n <= 0)
			break;
		rec[n] = '\0';
		print_record(rec, out);
	}
}

static void load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot open %s: %s", path, strerror(errno));
	if (syscall(SYS_finit_module, fd, params, 0) == 0) {
		/* An init that returned 0 leaves the module loaded: unload it for the next rep. */
		syscall(SYS_delete_module, "test_vmalloc", O_NONBLOCK);
		fprintf(stderr, "hb-test-vmalloc: module init returned 0 (expected -EAGAIN); unloaded it\n");
	} else if (errno != EAGAIN) {
		helper_die(HELPER_EXIT_FAIL, "cannot load %s with '%s': %s", path, params, strerror(errno));
	}
	close(fd);
}

/* One load with params, then the kernel log lines it produced, to out. */
static void run_load(const char *module, const char *params, FILE *out)
{
	int kmsg = open_kmsg_at_end();

	load_module(module, params);
	print_new_records(kmsg, out);
	close(kmsg);
}

/* One load per set bit of mask, run_test_mask=<bit> appended to params; the bits of
 * prime get an untimed load first, logged to stderr. */
struct each_test {
	long mask;        /* --each-test */
	long prime;       /* --prime */
	long repeat_mask; /* --repeat MASK=N */
	long repeats;
};

static void run_each_test(const char *module, const char *params, const struct each_test *e)
{
	char one[PARAMS_MAX + 64];

	for (int bit = 0; bit < TESTS_MAX; bit++) {
		if (!(e->mask & (1L << bit)))
			continue;
		int n = snprintf(one, sizeof(one), "%s%srun_test_mask=%ld", params, *params ? " " : "",
				 1L << bit);
		if (e->repeat_mask & (1L << bit))
			snprintf(one + n, sizeof(one) - (size_t)n, " test_repeat_count=%ld", e->repeats);
		if (e->prime & (1L << bit)) {
			fflush(stdout);
			fprintf(stderr, "hb-test-vmalloc: untimed load first (--prime): %s\n", one);
			run_load(module, one, stderr);
		}
		run_load(module, one, stdout);
	}
}

#define USAGE "hb-test-vmalloc [--module PATH] [--each-test MASK [--prime MASK] [--repeat MASK=N]] " \
	      "[PARAM=VALUE ...]"

/* --repeat MASK=N: both numbers strictly decimal, N from 1 to 1000000. */
static void parse_repeat(const char *arg, struct each_test *e)
{
	const char *eq = strchr(arg, '=');
	char mask[32];

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(mask))
		helper_die(HELPER_EXIT_USAGE, "--repeat: bad value '%s' (accepted: MASK=N, e.g. 64=20)", arg);
	memcpy(mask, arg, (size_t)(eq - arg));
	mask[eq - arg] = '\0';
	e->repeat_mask = helper_parse_long("--repeat MASK", mask, 1, (1L << TESTS_MAX) - 1);
	e->repeats = helper_parse_long("--repeat N", eq + 1, 1, 1000000);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "module", required_argument, NULL, 'm' },
		{ "each-test", required_argument, NULL, 'e' },
		{ "prime", required_argument, NULL, 'p' },
		{ "repeat", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	char *module = NULL;
	char params[PARAMS_MAX];
	struct each_test e = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c == 'm')
			module = strdup(optarg);
		else if (c == 'e')
			e.mask = helper_parse_long("--each-test", optarg, 1, (1L << TESTS_MAX) - 1);
		else if (c == 'p')
			e.prime = helper_parse_long("--prime", optarg, 0, (1L << TESTS_MAX) - 1);
		else if (c == 'r')
			parse_repeat(optarg, &e);
		else
			helper_die(HELPER_EXIT_USAGE, "usage: " USAGE);
	}
	if (e.prime & ~e.mask)
		helper_die(HELPER_EXIT_USAGE, "--prime %ld: tests not in --each-test %ld (accepted: a "
			   "subset of --each-test's bits)", e.prime, e.mask);
	if (e.repeat_mask & ~e.mask)
		helper_die(HELPER_EXIT_USAGE, "--repeat %ld=%ld: tests not in --each-test %ld (accepted: "
			   "a subset of --each-test's bits)", e.repeat_mask, e.repeats, e.mask);
	join_params(argv + optind, argc - optind, params, sizeof(params));
	if (e.repeat_mask && strstr(params, "test_repeat_count="))
		helper_die(HELPER_EXIT_USAGE, "--repeat sets test_repeat_count itself: drop '%s'",
			   strstr(params, "test_repeat_count="));
	if (e.mask && strstr(params, "run_test_mask="))
		helper_die(HELPER_EXIT_USAGE, "--each-test sets run_test_mask itself: drop '%s'",
			   strstr(params, "run_test_mask="));
	if (!module)
		module = default_module();
	if (e.mask)
		run_each_test(module, params, &e);
	else
		run_load(module, params, stdout);
	free(module);
	return 0;
}
