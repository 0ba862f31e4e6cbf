/* The cache model of bench/cache-model/ (the QEMU plugin's counting): LRU order within a
 * set, the second level seeing only the first one's misses, the virtual range counted
 * apart, first touches once per page, and sizes it refuses. */
#include <errno.h>

#include "cache_model.h"
#include "test.h"

#define KIB 1024ull
#define LINE CM_LINE_BYTES

/* A 2-way first level of 4 sets (512 bytes), an 8-way second of 8 sets (4 KiB). */
static void small_model(struct cache_model *m)
{
	if (cm_init(m, 512, 2, 4 * KIB, 8, 1ull << 30) < 0)
		abort();
}

TEST(a_set_evicts_its_least_recently_used_line)
{
	struct cache_model m;
	small_model(&m);
	struct cm_level *l1 = &m.level[0];
	/* Lines 0, 4, 8 fall in set 0 of 4 sets; two ways hold two of them. */
	CHECK(!cm_level_access(l1, 0));
	CHECK(!cm_level_access(l1, 4));
	CHECK(cm_level_access(l1, 0));   /* 0 is now the more recent */
	CHECK(!cm_level_access(l1, 8));  /* evicts 4, the least recently used */
	CHECK(cm_level_access(l1, 0));
	CHECK(!cm_level_access(l1, 4));
	CHECK(cm_level_access(l1, 1) == false); /* another set: a cold miss, nothing evicted */
	CHECK(cm_level_access(l1, 4));
	cm_free(&m);
}

TEST(the_second_level_sees_only_first_level_misses)
{
	struct cache_model m;
	small_model(&m);
	/* Three lines of one first-level set, cycled: each access misses the 2-way first
	 * level, and after the first round all three hit in the 8-way second. */
	for (int round = 0; round < 4; round++)
		for (uint64_t k = 0; k < 3; k++)
			cm_access(&m, 0, k * 4 * LINE);
	CHECK(m.all.accesses == 12, "%llu", (unsigned long long)m.all.accesses);
	CHECK(m.all.misses[0] == 12, "%llu", (unsigned long long)m.all.misses[0]);
	CHECK(m.all.misses[1] == 3, "%llu", (unsigned long long)m.all.misses[1]);
	cm_free(&m);
}

TEST(the_range_is_counted_apart_by_virtual_address)
{
	struct cache_model m;
	small_model(&m);
	m.range_lo = 0x1000;
	m.range_hi = 0x2000;
	cm_access(&m, 0x0fff, 0);         /* below */
	cm_access(&m, 0x1000, LINE);      /* in, cold */
	cm_access(&m, 0x1fff, LINE);      /* in, hit */
	cm_access(&m, 0x2000, 2 * LINE);  /* at the end: out */
	CHECK(m.all.accesses == 4);
	CHECK(m.in_range.accesses == 2);
	CHECK(m.in_range.misses[0] == 1 && m.in_range.misses[1] == 1);
	CHECK(m.all.misses[0] == 3);
	cm_free(&m);
}

TEST(a_page_is_first_touched_once)
{
	struct cache_model m;
	small_model(&m);
	cm_access(&m, 0, 0);
	cm_access(&m, 0, 4095);               /* same 4 KiB page */
	cm_access(&m, 0, 4096);               /* next page, same 2 MiB */
	cm_access(&m, 0, 2 * KIB * KIB);      /* the next 2 MiB */
	cm_access(&m, 0, 1ull << 30);         /* above mem_bytes: not tracked */
	CHECK(m.new_pages == 3, "%llu", (unsigned long long)m.new_pages);
	CHECK(m.new_huge_pages == 2, "%llu", (unsigned long long)m.new_huge_pages);
	cm_free(&m);
}

TEST(sizes_that_are_not_whole_sets_are_refused)
{
	struct cache_model m;
	errno = 0;
	CHECK(cm_init(&m, 1000, 8, 4 * KIB, 8, 1ull << 20) == -1 && errno == EINVAL);
	CHECK(cm_init(&m, 512, 0, 4 * KIB, 8, 1ull << 20) == -1 && errno == EINVAL);
	CHECK(cm_init(&m, 512, 2, 4 * KIB, 8, 1ull << 20) == 0);
	cm_free(&m);
}

TEST_MAIN()
