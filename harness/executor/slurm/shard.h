/* Shards of a run plan for the Slurm executor: one shard per round of one (workload,
 * vCPU count), i.e. every cell with that workload, cores and boot, in plan order (which
 * keeps the round's shuffled variant order). A shard runs on one node, so the cells a
 * paired comparison uses (same workload, cores and round) never span two nodes. */
#ifndef HB_EXECUTOR_SLURM_SHARD_H
#define HB_EXECUTOR_SLURM_SHARD_H

#include <stddef.h>

#include "run/plan.h"

struct shard {
	char *id;              /* "<workload>-c<cores>-b<boot>": its folder under RUN/shards/ */
	const char *workload;  /* points into the plan */
	int cores;
	int boot;
	size_t *cells;         /* indices into plan.cells, in plan order */
	size_t ncells;
};

struct shard_plan {
	struct shard *shards;  /* in the order of their first cell */
	size_t n;
};

void shard_plan_build(const struct plan *p, struct shard_plan *sp);
void shard_plan_free(struct shard_plan *sp);
/* The shard with this id, or NULL. */
const struct shard *shard_find(const struct shard_plan *sp, const char *id);

#endif
