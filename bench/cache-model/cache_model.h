/* A two-level set-associative LRU data-cache model keyed by guest physical address, and
 * first-touch counters of guest pages, for the QEMU plugin of this folder (plugin.c).
 *
 * Why a model at all: under icount the guest's clock counts instructions, so a change that
 * adds no instructions but moves data (KASAN's vmalloc shadow: real shadow pages instead
 * of one shared zero page) costs nothing there, and TCG's host clock is too noisy to see
 * it. The model counts what such a change moves: misses at each level and pages the
 * guest touches for the first time (on a KVM host, each is an EPT fault). Its sizes are
 * parameters; it knows no prefetcher, no TLB and no coherence, so it ranks variants by
 * traffic and says nothing of latency. */
#ifndef HB_CACHE_MODEL_H
#define HB_CACHE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define CM_LINE_BYTES 64
#define CM_LEVELS 2

struct cm_level {
	unsigned sets, ways;
	uint64_t *tag;   /* sets * ways line numbers; UINT64_MAX: empty */
	uint64_t *used;  /* when each way was last hit (a counter, for LRU) */
	uint64_t clock;
};

/* What one class of accesses (all, or those to a virtual range) did. */
struct cm_counts {
	uint64_t accesses;
	uint64_t misses[CM_LEVELS]; /* misses[1] counts only accesses that missed level 0 too */
};

struct cache_model {
	struct cm_level level[CM_LEVELS];
	struct cm_counts all;
	struct cm_counts in_range;  /* accesses whose virtual address is in [lo, hi) */
	uint64_t range_lo, range_hi;
	uint8_t *page_seen;         /* a bit per 4 KiB guest page below mem_bytes */
	uint8_t *huge_seen;         /* a bit per 2 MiB */
	uint64_t mem_bytes;
	uint64_t new_pages, new_huge_pages;
};

/* Sizes in bytes; each a multiple of ways * CM_LINE_BYTES. Returns -1 (errno ENOMEM or
 * EINVAL) on failure. */
int cm_init(struct cache_model *m, uint64_t l1_bytes, unsigned l1_ways, uint64_t l2_bytes,
	    unsigned l2_ways, uint64_t mem_bytes);
void cm_free(struct cache_model *m);
/* One data access of the guest: vaddr for the range, paddr for the caches and pages. */
void cm_access(struct cache_model *m, uint64_t vaddr, uint64_t paddr);
/* true on a hit; on a miss the least recently used way takes the line. */
bool cm_level_access(struct cm_level *c, uint64_t line);

#endif
