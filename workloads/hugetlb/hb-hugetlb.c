/* hb-hugetlb: seed 000's measurement inside the guest. Times the write of N to
 * /proc/sys/vm/nr_hugepages (wall clock and this process's system time: the kernel
 * allocates and, under init_on_alloc, clears every page in the writer's context), checks
 * that the pool really reached N, checks that a page handed out through hugetlbfs reads
 * as zeros, then times the release back to 0 (where init_on_free pays).
 *
 * usage: hb-hugetlb [--pages N|auto] [--no-warmup]
 *   auto: 2/3 of the guest's MemTotal in huge pages.
 *   --no-warmup: skip the once-per-boot warm-up (see warm_up()).
 * Output: "key value" lines (warmup_s on the first run of a boot, pages, page_kb,
 * alloc_wall_s, alloc_sys_s, release_wall_s, release_sys_s, zero_check). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest/marker.h"
#include "helper.h"

/* The section markers (guest/marker.h) of the two timed writes: workload.ini's
 * [metric wall] and [metric release_wall]. */
#define MARK_NONE (-1)
#define MARK_ALLOC 1
#define MARK_RELEASE 2

#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
/* On the guest's per-boot tmpfs: present once this boot has warmed the pool up. */
#define WARM_MARKER "/run/hb-hugetlb.warm"
#define MAX_PAGES (1L << 24)
#define USAGE "hb-hugetlb [--pages N|auto] [--no-warmup]"

struct timed {
	double wall_s;
	double sys_s;
};

static char *meminfo(void)
{
	char *text = helper_read_file("/proc/meminfo");
	if (!text)
		helper_die(HELPER_EXIT_FAIL, "cannot read /proc/meminfo: %s", strerror(errno));
	return text;
}

static long long meminfo_value(const char *key)
{
	char *text = meminfo();
	long long v = helper_meminfo_value(text, key);

	free(text);
	if (v < 0)
		helper_die(HELPER_EXIT_FAIL, "/proc/meminfo has no %s (is CONFIG_HUGETLBFS set?)", key);
	return v;
}

/* The whole "echo N > nr_hugepages": open, write, close, as the shell does it. marker:
 * which section marker (guest/marker.h) brackets it, MARK_NONE for an untimed write. */
static struct timed timed_set_pages(long pages, int marker)
{
	char text[32];
	double u0, s0, u1, s1, t0, t1;

	snprintf(text, sizeof(text), "%ld\n", pages);
	helper_self_cpu(&u0, &s0);
	t0 = helper_now();
	if (marker == MARK_ALLOC)
		HB_MARK_START(MARK_ALLOC);
	else if (marker == MARK_RELEASE)
		HB_MARK_START(MARK_RELEASE);
	if (helper_write_file(NR_HUGEPAGES, text) < 0)
		helper_die(HELPER_EXIT_FAIL, "cannot write %ld to %s: %s", pages, NR_HUGEPAGES,
			   strerror(errno));
	if (marker == MARK_ALLOC)
		HB_MARK_END(MARK_ALLOC);
	else if (marker == MARK_RELEASE)
		HB_MARK_END(MARK_RELEASE);
	t1 = helper_now();
	helper_self_cpu(&u1, &s1);
	return (struct timed){ .wall_s = t1 - t0, .sys_s = s1 - s0 };
}

static void release_quietly(void)
{
	helper_write_file(NR_HUGEPAGES, "0\n");
}

/* A file on a private hugetlbfs mount, sized to span huge pages. */
struct huge_file {
	char dir[32];
	char path[64];
	int fd;
	size_t len;
};

static const char *huge_file_open(struct huge_file *f, long pages, long page_kb)
{
	snprintf(f->dir, sizeof(f->dir), "/tmp/hb-hugetlbfs.XXXXXX");
	f->fd = -1;
	f->len = (size_t)pages * (size_t)page_kb * 1024;
	if (!mkdtemp(f->dir))
		return "cannot create a mount point in /tmp";
	if (mount("hugetlbfs", f->dir, "hugetlbfs", 0, NULL) < 0) {
		rmdir(f->dir);
		return "cannot mount hugetlbfs";
	}
	snprintf(f->path, sizeof(f->path), "%s/pages", f->dir);
	f->fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	/* Mapping past the end of a hugetlbfs file faults with SIGBUS: size it first. */
	if (f->fd < 0 || ftruncate(f->fd, (off_t)f->len) < 0)
		return "cannot create a hugetlbfs file";
	return NULL;
}

static void huge_file_close(struct huge_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	unlink(f->path);
	umount(f->dir);
	rmdir(f->dir);
}

/* Faults one huge page in through a hugetlbfs file and checks every byte is zero: a
 * variant that skips clearing must still never hand out old data. */
static const char *zero_check(long page_kb)
{
	struct huge_file f;
	const char *result = huge_file_open(&f, 1, page_kb);
	unsigned char *p;

	if (!result) {
		p = mmap(NULL, f.len, PROT_READ, MAP_SHARED, f.fd, 0);
		result = p == MAP_FAILED ? "cannot map a page of a hugetlbfs file" : "ok";
		for (size_t i = 0; p != MAP_FAILED && i < f.len; i++)
			if (p[i]) {
				result = "a fresh huge page holds non-zero bytes";
				break;
			}
		if (p != MAP_FAILED)
			munmap(p, f.len);
	}
	huge_file_close(&f);
	return result;
}

/* Under TCG (and lazily backed VMs) the first write to a guest page costs the host a page
 * fault: the first clearing of the pool would be ten times slower than the next ones.
 * Once per boot, fill the pool, fault every page in (the kernel clears it) and release
 * it, so that every timed rep sees memory that is already backed. */
static void warm_up(long pages, long page_kb)
{
	double t0 = helper_now();
	struct huge_file f;
	void *p;

	if (access(WARM_MARKER, F_OK) == 0)
		return;
	release_quietly();
	timed_set_pages(pages, MARK_NONE);
	pages = (long)meminfo_value("HugePages_Total");
	if (pages > 0) {
		if (!huge_file_open(&f, pages, page_kb)) {
			p = mmap(NULL, f.len, PROT_READ, MAP_SHARED | MAP_POPULATE, f.fd, 0);
			if (p != MAP_FAILED)
				munmap(p, f.len);
		}
		huge_file_close(&f);
	}
	release_quietly();
	close(open(WARM_MARKER, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	printf("warmup_s %.3f\n", helper_now() - t0);
}

static long parse_pages(const char *value, long page_kb)
{
	if (strcmp(value, "auto"))
		return helper_parse_long("--pages", value, 1, MAX_PAGES);
	long pages = (long)(meminfo_value("MemTotal") * 2 / 3 / page_kb);
	if (pages < 1)
		helper_die(HELPER_EXIT_FAIL, "guest too small: 2/3 of MemTotal is less than one huge page");
	return pages;
}

struct options {
	const char *pages;
	bool warmup;
};

static struct options parse_args(int argc, char **argv)
{
	static const struct option options[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "no-warmup", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .pages = "auto", .warmup = true };
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c == 'n')
			o.pages = optarg;
		else if (c == 'w')
			o.warmup = false;
		else
			helper_die(HELPER_EXIT_USAGE, "usage: " USAGE);
	}
	if (optind != argc)
		helper_die(HELPER_EXIT_USAGE, "unexpected argument '%s' (usage: " USAGE ")", argv[optind]);
	return o;
}

int main(int argc, char **argv)
{
	struct options o = parse_args(argc, argv);
	long page_kb = (long)meminfo_value("Hugepagesize");
	long pages = parse_pages(o.pages, page_kb);
	struct timed alloc, release;
	long long total;
	const char *zero;

	if (o.warmup)
		warm_up(pages, page_kb);
	/* A pool left over from an earlier run would make the write a no-op. */
	if (meminfo_value("HugePages_Total") != 0)
		timed_set_pages(0, MARK_NONE);
	alloc = timed_set_pages(pages, MARK_ALLOC);
	total = meminfo_value("HugePages_Total");
	if (total != pages) {
		release_quietly();
		helper_die(HELPER_EXIT_FAIL,
			   "only %lld of %ld huge pages of %ld kB were allocated (MemTotal %lld kB): "
			   "guest too small; raise --mem or lower --param hugetlb.pages",
			   total, pages, page_kb, meminfo_value("MemTotal"));
	}
	zero = zero_check(page_kb);
	release = timed_set_pages(0, MARK_RELEASE);
	printf("pages %ld\npage_kb %ld\n", pages, page_kb);
	printf("alloc_wall_s %.6f\nalloc_sys_s %.6f\n", alloc.wall_s, alloc.sys_s);
	printf("release_wall_s %.6f\nrelease_sys_s %.6f\n", release.wall_s, release.sys_s);
	printf("zero_check %s\n", zero);
	if (strcmp(zero, "ok"))
		helper_die(HELPER_EXIT_FAIL, "zero check failed: %s", zero);
	return 0;
}
