/* hb-hugetlb on this host: its command-line checks, which refuse bad arguments before
 * touching anything, and a real run that grows this host's huge page pool to 8 pages and
 * releases it, its output read by the parser as a run reads it and its pages witnessed by
 * the kernel's own counter (/proc/vmstat htlb_buddy_alloc_success), not by the helper.
 * The real run needs root and an empty pool (it would release the host's pages
 * otherwise): SKIP with the reason when either is missing. Other runs of this test on
 * the host wait for it (a lock on nr_hugepages).
 * usage: test_helper <hb-hugetlb> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/spawn.h"
#include "fixture.h"
#include "test.h"

#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
#define PAGES 8

/* The number after key in the text of path ("key: N" or "key N"); -1 when absent. */
static long long proc_value(const char *path, const char *key)
{
	char *text = hb_read_file(path, NULL), *at;
	long long v = -1;

	for (at = text; at && (at = strstr(at, key)); at += strlen(key))
		if ((at == text || at[-1] == '\n') && (at[strlen(key)] == ':' || at[strlen(key)] == ' ')) {
			v = strtoll(at + strlen(key) + 1, NULL, 10);
			break;
		}
	free(text);
	return v;
}

TEST(refuses_bad_arguments)
{
	char *prog = fixture_helper(t->argc, t->argv);

	CHECK_REFUSES("--pages: bad value '0'", prog, "--pages", "0");
	CHECK_REFUSES("unexpected argument 'extra'", prog, "extra");
}

TEST_TIMEOUT(grows_the_pool, 120)
{
	char *prog = fixture_helper(t->argc, t->argv);
	/* A mount namespace of its own: the zero check's hugetlbfs mount stays there. */
	char *argv[] = { "unshare", "--mount", "--propagation", "private", prog, "--pages", "8",
			 "--no-warmup", NULL };
	long long before, after, total;
	int lock, status = -1;
	char *out;
	struct got g;

	if (geteuid() != 0)
		SKIP("needs root: it grows this host's huge page pool");
	if (!hb_have_program("unshare"))
		SKIP("needs unshare (util-linux) for a private mount namespace");
	lock = open(NR_HUGEPAGES, O_RDONLY | O_CLOEXEC);
	if (lock < 0 || proc_value("/proc/meminfo", "Hugepagesize") <= 0 ||
	    proc_value("/proc/vmstat", "htlb_buddy_alloc_success") < 0)
		SKIP("this host's kernel has no huge page pool (CONFIG_HUGETLBFS)");
	if (access(NR_HUGEPAGES, W_OK) < 0) {
		close(lock);
		SKIP("this host's " NR_HUGEPAGES " is not writable here (a container's read-only /proc/sys?)");
	}
	flock(lock, LOCK_EX);
	if ((total = proc_value("/proc/meminfo", "HugePages_Total")) != 0) {
		close(lock);
		SKIP("this host's pool holds pages already: the helper would release them");
	}
	before = proc_value("/proc/vmstat", "htlb_buddy_alloc_success");
	out = hb_run_capture(argv, &status);
	after = proc_value("/proc/vmstat", "htlb_buddy_alloc_success");
	total = proc_value("/proc/meminfo", "HugePages_Total");
	close(lock);

	CHECK(out && status == 0, "hb-hugetlb --pages 8 exited %d: %s", status, out ? out : "");
	CHECK(after - before >= PAGES, "the kernel allocated %lld huge pages during the run, want %d or more",
	      after - before, PAGES);
	CHECK(total == 0, "the pool holds %lld pages after the run, want 0 (released)", total);
	fixture_run(&(struct fake_rep){ .workload = "hugetlb", .out_text = out ? out : "" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why ? g.why : "");
	/* Growing the pool clears 16 MiB; its release frees them: neither takes no time. */
	for (const char *m = "wall\0release_wall\0"; *m; m += strlen(m) + 1) {
		const struct got_sample *s = got_find(&g, m);
		CHECK(s && s->value > 0, "%s: %g s, want more than 0", m, s ? s->value : -1.0);
	}
	for (const char *m = "sys\0release_sys\0"; *m; m += strlen(m) + 1) {
		const struct got_sample *s = got_find(&g, m);
		CHECK(s && s->value >= 0, "%s: %g s", m, s ? s->value : -1.0);
	}
	CHECK(out && (!strncmp(out, "pages 8\n", 8) || strstr(out, "\npages 8\n")), "no 'pages 8' line: %s",
	      out ? out : "");
	got_free(&g);
	free(out);
}

TEST_MAIN()
