/* hb-vmaops: seed 003's VMA microbenchmark. For each operation (mprotect, munmap,
 * madvise(MADV_DONTNEED), and mseal where the kernel has it) and each span of K = 1, 2,
 * 4, ..., 32 one-page VMAs, it times calls that each cover K fresh VMAs and prints the
 * mean nanoseconds per call and per VMA (and kernel cycles per call when a cycle counter
 * is available).
 *
 * usage: hb-vmaops [--iterations N] [--passes P] [--settle-ms S] [--touch] [--fixed-layout]
 *   N      calls per (operation, K) row (default 1000)
 *   P      times each row is measured; it prints the fastest (default 1)
 *   S      before each pass, sleep S ms, then start the pass at its own phase of the timer
 *          tick (see settle; default 0: no sleep, no alignment)
 *   touch  write to the writable pages first, so munmap and madvise free real pages
 *   fixed-layout  re-exec without address-space randomization, so every run maps its
 *          batches at the same addresses (see fix_layout)
 *
 * Setup: a batch of ranges, each K pages whose protections alternate (read-only,
 * read-write, ...) so neighbouring pages never merge into one VMA, with an unmapped page
 * between ranges so that changing one range never merges it with the next. The clock
 * reads surround a whole batch of calls, not each call, so their cost is not counted. */
#include <errno.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"

#ifndef __NR_mseal
#define __NR_mseal 462 /* x86_64, Linux 6.10 */
#endif

#define BATCH_MAX 256
/* Sealed VMAs can never be unmapped: fewer mseal calls keep them under vm.max_map_count. */
#define MSEAL_CALLS_MAX 200

enum vma_op { OP_MPROTECT, OP_MUNMAP, OP_MADVISE, OP_MSEAL, OP_COUNT };

static const char *const op_names[OP_COUNT] = { "mprotect", "munmap", "madvise", "mseal" };
static const int spans[] = { 1, 2, 4, 8, 16, 32 };

struct options {
	long iterations;
	long passes;
	long settle_ms;
	int touch;
	int fixed_layout;
};

struct batch {
	char *base;
	size_t page;
	int span;  /* K */
	int count; /* ranges */
};

static char *range_start(const struct batch *b, int i)
{
	return b->base + (size_t)i * (size_t)(b->span + 1) * b->page;
}

static void setup_batch(struct batch *b, int touch)
{
	size_t stride = (size_t)(b->span + 1) * b->page;
	size_t len = stride * (size_t)b->count;

	b->base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->base == MAP_FAILED)
		helper_die(HELPER_EXIT_FAIL, "mmap of %zu bytes: %s", len, strerror(errno));
	for (int i = 0; i < b->count; i++) {
		char *r = range_start(b, i);
		for (int p = 0; p < b->span; p++) {
			if (touch && p % 2 == 0)
				r[(size_t)p * b->page] = 1;
			if (p % 2 == 1 && mprotect(r + (size_t)p * b->page, b->page, PROT_READ) < 0)
				helper_die(HELPER_EXIT_FAIL, "mprotect during setup: %s", strerror(errno));
		}
		if (munmap(r + (size_t)b->span * b->page, b->page) < 0)
			helper_die(HELPER_EXIT_FAIL, "munmap of a guard page: %s", strerror(errno));
	}
}

/* What is left after the timed calls (munmap'd ranges are simply gone again). */
static void teardown_batch(const struct batch *b, enum vma_op op)
{
	if (op != OP_MSEAL)
		munmap(b->base, (size_t)(b->span + 1) * b->page * (size_t)b->count);
}

static int do_op(enum vma_op op, char *addr, size_t len)
{
	switch (op) {
	case OP_MPROTECT: return mprotect(addr, len, PROT_READ);
	case OP_MUNMAP: return munmap(addr, len);
	case OP_MADVISE: return madvise(addr, len, MADV_DONTNEED);
	default: return (int)syscall(__NR_mseal, addr, len, 0UL);
	}
}

/* Kernel-only reference cycles of this thread; -1 when there is no usable PMU (a TCG
 * guest has none). */
static int open_cycle_counter(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_REF_CPU_CYCLES,
		.exclude_user = 1,
		.exclude_hv = 1,
	};
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t read_counter(int fd)
{
	uint64_t v = 0;
	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

struct row_result {
	double ns;     /* summed over calls */
	double cycles; /* summed over calls; 0 without a counter */
	long calls;
};

static void time_batch(const struct batch *b, enum vma_op op, int counter, struct row_result *r)
{
	size_t len = (size_t)b->span * b->page;
	uint64_t c0 = read_counter(counter);
	double t0 = helper_now();

	for (int i = 0; i < b->count; i++)
		if (do_op(op, range_start(b, i), len) < 0)
			helper_die(HELPER_EXIT_FAIL, "%s over %d VMAs: %s", op_names[op], b->span,
				   strerror(errno));
	r->ns += (helper_now() - t0) * 1e9;
	r->cycles += (double)(read_counter(counter) - c0);
	r->calls += b->count;
}

static struct row_result one_pass(enum vma_op op, int span, long calls, const struct options *o,
				  int counter)
{
	struct row_result r = { 0 };
	struct batch b = { .page = (size_t)sysconf(_SC_PAGESIZE), .span = span };

	while (r.calls < calls) {
		b.count = (int)(calls - r.calls < BATCH_MAX ? calls - r.calls : BATCH_MAX);
		setup_batch(&b, o->touch);
		time_batch(&b, op, counter, &r);
		teardown_batch(&b, op);
	}
	return r;
}

/* The timer tick's period: the resolution of the coarse clock, which the tick advances. */
static long tick_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) < 0 || res.tv_sec || res.tv_nsec <= 0)
		helper_die(HELPER_EXIT_FAIL, "clock_getres(CLOCK_MONOTONIC_COARSE): %s",
			   res.tv_sec || res.tv_nsec <= 0 ? "no tick period" : strerror(errno));
	return res.tv_nsec;
}

static void sleep_ns(long long ns)
{
	struct timespec d = { .tv_sec = ns / 1000000000LL, .tv_nsec = ns % 1000000000LL };

	while (nanosleep(&d, &d) < 0 && errno == EINTR)
		;
}

/* Before pass p of P: sleep, so that what the last pass left behind (VMAs freed through
 * RCU, the kworkers it woke) runs while the guest is idle, not inside this pass's clock;
 * then start at phase p/P of the timer tick. Without the sleep, one boot in five paid
 * 19-23% more in every pass of munmap/1 (6.12, icount, 5 boots: 8139 and 8834 ns against
 * 6833-7168). With the sleep alone, every pass started at the same phase of the 4 ms tick,
 * set by the boot: a pass that held a tick held it every time, and mprotect/2 took 4950 or
 * 5375 ns from boot to boot. Spreading the passes over the tick's phases makes the
 * fastest of them the same in every boot. The coarse clock changes at the tick itself. */
static void settle(const struct options *o, long pass)
{
	struct timespec first, now;

	if (o->settle_ms <= 0)
		return;
	sleep_ns(o->settle_ms * 1000000LL);
	clock_gettime(CLOCK_MONOTONIC_COARSE, &first);
	do
		clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	while (now.tv_nsec == first.tv_nsec && now.tv_sec == first.tv_sec);
	if (pass > 0)
		sleep_ns((long long)tick_ns() * pass / o->passes);
}

/* The fastest of the passes: what interrupts the calls (a timer tick and the work it
 * wakes) only ever adds time, and at 1 VMA a pass of 1000 calls lasts 1.4 ms under icount,
 * a third of a 4 ms tick, so one boot's pass paid for such an event and the next did not:
 * madvise/1 was 1406.5 or 1801 ns, nothing between (6.12, fixed layout, 3 boots). */
static void run_row(enum vma_op op, int span, long calls, const struct options *o, int counter)
{
	struct row_result r;

	settle(o, 0);
	r = one_pass(op, span, calls, o, counter);
	for (long p = 1; p < o->passes; p++) {
		settle(o, p);
		struct row_result next = one_pass(op, span, calls, o, counter);
		if (next.ns < r.ns)
			r = next;
	}
	printf("%s %d calls %ld ns_per_call %.1f ns_per_vma %.1f", op_names[op], span, r.calls,
	       r.ns / (double)r.calls, r.ns / (double)r.calls / span);
	if (counter >= 0)
		printf(" cycles_per_call %.0f", r.cycles / (double)r.calls);
	putchar('\n');
}

/* Where the first anonymous page lands: the same on every run when the layout is fixed. */
static void *first_mapping(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		helper_die(HELPER_EXIT_FAIL, "mmap of one page: %s", strerror(errno));
	munmap(p, page);
	return p;
}

/* mseal(0, 0, 0) is a valid no-op where the syscall exists: anything else (ENOSYS before
 * 6.10, EPERM from a seccomp filter) means no mseal rows. */
static int have_mseal(void)
{
	if (syscall(__NR_mseal, 0UL, 0UL, 0UL) == 0)
		return 1;
	printf("# mseal unavailable: %s%s: no mseal rows\n", strerror(errno),
	       errno == ENOSYS ? " (Linux < 6.10)" : "");
	return 0;
}

#define USAGE "hb-vmaops [--iterations N] [--passes P] [--settle-ms S] [--touch] [--fixed-layout]"

static struct options parse_args(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'i' },
		{ "passes", required_argument, NULL, 'p' },
		{ "settle-ms", required_argument, NULL, 's' },
		{ "touch", no_argument, NULL, 't' },
		{ "fixed-layout", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .iterations = 1000, .passes = 1 };
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c == 'i')
			o.iterations = helper_parse_long("--iterations", optarg, 1, 1000000);
		else if (c == 'p')
			o.passes = helper_parse_long("--passes", optarg, 1, 100);
		else if (c == 's')
			o.settle_ms = helper_parse_long("--settle-ms", optarg, 0, 1000);
		else if (c == 't')
			o.touch = 1;
		else if (c == 'f')
			o.fixed_layout = 1;
		else
			helper_die(HELPER_EXIT_USAGE, "usage: " USAGE);
	}
	if (optind != argc)
		helper_die(HELPER_EXIT_USAGE, "unexpected argument '%s' (usage: " USAGE ")", argv[optind]);
	return o;
}

/* Where mmap puts the batches decides which of them share a page table and a maple-tree
 * node with their neighbours, and so what a call costs: with randomized mmap bases the
 * per-call times of one boot differ from the next by 10-22% at 1 VMA under icount
 * (madvise/1: 1691, 1232, 1956 ns), without they repeat (1406.5 ns, 3 boots). The
 * personality applies from the next exec, so the helper runs itself again. */
static void fix_layout(char **argv)
{
	int now = personality(0xffffffff);

	if (now < 0)
		helper_die(HELPER_EXIT_FAIL, "personality: %s", strerror(errno));
	if (now & ADDR_NO_RANDOMIZE)
		return;
	if (personality((unsigned long)now | ADDR_NO_RANDOMIZE) < 0)
		helper_die(HELPER_EXIT_FAIL, "personality(ADDR_NO_RANDOMIZE): %s", strerror(errno));
	execv("/proc/self/exe", argv);
	helper_die(HELPER_EXIT_FAIL, "re-exec without randomization: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct options o = parse_args(argc, argv);

	if (o.fixed_layout)
		fix_layout(argv);
	int counter = open_cycle_counter();
	int counter_errno = errno;
	int mseal_ok = have_mseal();

	if (counter < 0)
		printf("# cycle counter unavailable: %s: no cycles_per_call\n", strerror(counter_errno));
	printf("# each row: the fastest of %ld pass%s of its calls\n", o.passes, o.passes == 1 ? "" : "es");
	if (o.settle_ms > 0)
		printf("# before each pass: %ld ms asleep, then pass p of %ld starts p/%ld into the %ld us tick\n",
		       o.settle_ms, o.passes, o.passes, tick_ns() / 1000);
	printf("# layout: %s, first mapping at %p\n", personality(0xffffffff) & ADDR_NO_RANDOMIZE ?
	       "fixed" : "randomized", first_mapping());
	for (int op = 0; op < OP_COUNT; op++) {
		if (op == OP_MSEAL && !mseal_ok)
			continue;
		long calls = op == OP_MSEAL && o.iterations > MSEAL_CALLS_MAX ? MSEAL_CALLS_MAX : o.iterations;
		for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++)
			run_row((enum vma_op)op, spans[s], calls, &o, counter);
	}
	if (counter >= 0)
		close(counter);
	return 0;
}
