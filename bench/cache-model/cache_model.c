#include "cache_model.h"

#include <errno.h>
#include <stdlib.h>

#define PAGE_SHIFT 12
#define HUGE_SHIFT 21

static int level_init(struct cm_level *c, uint64_t bytes, unsigned ways)
{
	if (!ways || !bytes || bytes % ((uint64_t)ways * CM_LINE_BYTES)) {
		errno = EINVAL;
		return -1;
	}
	c->ways = ways;
	c->sets = (unsigned)(bytes / CM_LINE_BYTES / ways);
	c->tag = malloc((size_t)c->sets * ways * sizeof(*c->tag));
	c->used = calloc((size_t)c->sets * ways, sizeof(*c->used));
	if (!c->tag || !c->used)
		return -1;
	for (size_t i = 0; i < (size_t)c->sets * ways; i++)
		c->tag[i] = UINT64_MAX;
	c->clock = 0;
	return 0;
}

int cm_init(struct cache_model *m, uint64_t l1_bytes, unsigned l1_ways, uint64_t l2_bytes,
	    unsigned l2_ways, uint64_t mem_bytes)
{
	*m = (struct cache_model){ .mem_bytes = mem_bytes };
	m->page_seen = calloc((mem_bytes >> PAGE_SHIFT) / 8 + 1, 1);
	m->huge_seen = calloc((mem_bytes >> HUGE_SHIFT) / 8 + 1, 1);
	if (!m->page_seen || !m->huge_seen || level_init(&m->level[0], l1_bytes, l1_ways) < 0 ||
	    level_init(&m->level[1], l2_bytes, l2_ways) < 0) {
		int e = errno;
		cm_free(m);
		errno = e;
		return -1;
	}
	return 0;
}

void cm_free(struct cache_model *m)
{
	for (int i = 0; i < CM_LEVELS; i++) {
		free(m->level[i].tag);
		free(m->level[i].used);
	}
	free(m->page_seen);
	free(m->huge_seen);
	*m = (struct cache_model){ 0 };
}

bool cm_level_access(struct cm_level *c, uint64_t line)
{
	size_t first = (size_t)(line % c->sets) * c->ways, victim = first;

	c->clock++;
	for (size_t i = first; i < first + c->ways; i++) {
		if (c->tag[i] == line) {
			c->used[i] = c->clock;
			return true;
		}
		if (c->used[i] < c->used[victim])
			victim = i;
	}
	c->tag[victim] = line;
	c->used[victim] = c->clock;
	return false;
}

/* Sets bit n of bits; true if it was clear. */
static bool first_time(uint8_t *bits, uint64_t n)
{
	uint8_t mask = (uint8_t)(1u << (n % 8));
	bool first = !(bits[n / 8] & mask);

	bits[n / 8] |= mask;
	return first;
}

void cm_access(struct cache_model *m, uint64_t vaddr, uint64_t paddr)
{
	struct cm_counts *r = vaddr >= m->range_lo && vaddr < m->range_hi ? &m->in_range : NULL;
	uint64_t line = paddr / CM_LINE_BYTES;

	m->all.accesses++;
	if (r)
		r->accesses++;
	for (int i = 0; i < CM_LEVELS; i++) {
		if (cm_level_access(&m->level[i], line))
			break;
		m->all.misses[i]++;
		if (r)
			r->misses[i]++;
	}
	if (paddr < m->mem_bytes) {
		m->new_pages += first_time(m->page_seen, paddr >> PAGE_SHIFT);
		m->new_huge_pages += first_time(m->huge_seen, paddr >> HUGE_SHIFT);
	}
}
