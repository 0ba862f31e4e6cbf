// SPDX-License-Identifier: GPL-2.0
/*
 * hugegrow: time growing the hugetlb pool and check that huge pages read 0.
 *
 * usage: hugegrow NPAGES ROUNDS DIRTY_MIB
 * Each round: shrink the pool to 0, dirty DIRTY_MIB of memory with 0x5a
 * (and free it, so the buddy allocator holds dirty pages), then time the
 * write of NPAGES to /proc/sys/vm/nr_hugepages.  After the last round, map
 * every pool page anonymously with MAP_HUGETLB and check every byte is 0,
 * fill them with 0xa5, unmap, map again and check again (pages reused from
 * the pool); then a hugetlbfs MAP_SHARED file and fallocate() the same way
 * if hugetlbfs can be mounted on /tmp/hugegrow-fs.
 * Output: "grow round=R pages=N seconds=S" and "check WHAT pages=N nonzero=Z".
 * Exit status 0 when every check found no nonzero byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HPAGE (2UL << 20)

static void set_pool(long n)
{
	char buf[32];
	int fd = open("/proc/sys/vm/nr_hugepages", O_WRONLY);

	if (fd < 0) { perror("nr_hugepages"); exit(2); }
	snprintf(buf, sizeof(buf), "%ld\n", n);
	if (write(fd, buf, strlen(buf)) < 0) { perror("write nr_hugepages"); exit(2); }
	close(fd);
}

static long get_pool(void)
{
	long n = -1;
	FILE *f = fopen("/proc/sys/vm/nr_hugepages", "r");

	if (!f || fscanf(f, "%ld", &n) != 1) { perror("read nr_hugepages"); exit(2); }
	fclose(f);
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void dirty(size_t mib)
{
	size_t len = mib << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) { perror("mmap dirty"); exit(2); }
	memset(p, 0x5a, len);
	munmap(p, len);
}

/* count nonzero bytes, 8 at a time */
static size_t nonzero(const char *p, size_t len)
{
	const unsigned long *w = (const unsigned long *)p;
	size_t i, bad = 0;

	for (i = 0; i < len / sizeof(*w); i++)
		if (w[i])
			bad++;
	return bad;
}

static int failures;

static void check_map(const char *what, int fd, long pages)
{
	size_t len = pages * HPAGE;
	int flags = fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB : MAP_SHARED;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);
	size_t bad;

	if (p == MAP_FAILED) { fprintf(stderr, "mmap %s: %s\n", what, strerror(errno)); failures++; return; }
	bad = nonzero(p, len);
	printf("check %s pages=%ld nonzero_words=%zu\n", what, pages, bad);
	failures += bad != 0;
	memset(p, 0xa5, len);
	munmap(p, len);
}

int main(int argc, char **argv)
{
	long want, got = 0;
	int rounds, r;
	size_t dmib;

	if (argc != 4) { fprintf(stderr, "usage: hugegrow NPAGES ROUNDS DIRTY_MIB\n"); return 2; }
	want = atol(argv[1]); rounds = atoi(argv[2]); dmib = atol(argv[3]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (r = 0; r < rounds; r++) {
		double t0, t1;

		set_pool(0);
		dirty(dmib);
		t0 = now();
		set_pool(want);
		t1 = now();
		got = get_pool();
		printf("grow round=%d pages=%ld seconds=%.4f\n", r, got, t1 - t0);
	}
	check_map("anon-1st", -1, got);
	check_map("anon-2nd", -1, got);

	mkdir("/tmp/hugegrow-fs", 0755);
	if (mount("none", "/tmp/hugegrow-fs", "hugetlbfs", 0, NULL) == 0) {
		int fd = open("/tmp/hugegrow-fs/f", O_CREAT | O_RDWR, 0600);

		if (fd < 0 || ftruncate(fd, got * HPAGE)) { perror("hugetlbfs file"); failures++; }
		else {
			check_map("shared-1st", fd, got);
			close(fd); unlink("/tmp/hugegrow-fs/f");
			fd = open("/tmp/hugegrow-fs/f", O_CREAT | O_RDWR, 0600);
			if (fallocate(fd, 0, 0, got * HPAGE)) { perror("fallocate"); failures++; }
			else check_map("fallocate", fd, got);
			close(fd); unlink("/tmp/hugegrow-fs/f");
		}
		umount("/tmp/hugegrow-fs");
	} else {
		perror("mount hugetlbfs");
	}
	/* regrow after dirtying once more, and check again */
	set_pool(0);
	dirty(dmib);
	set_pool(want);
	got = get_pool();
	check_map("anon-regrown", -1, got);
	set_pool(0);
	printf("hugegrow: %s\n", failures ? "FAIL" : "OK");
	return failures ? 1 : 0;
}
