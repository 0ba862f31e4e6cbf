#include "executor/slurm/shard.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static bool same_round(const struct shard *s, const struct plan_cell *c)
{
	return s->cores == c->cores && s->boot == c->boot && !strcmp(s->workload, c->workload);
}

/* The shard of cell c: the last one first (interleaved plans keep a round's cells next
 * to each other), then a scan (grouped plans spread them). */
static struct shard *shard_of(struct shard_plan *sp, const struct plan_cell *c)
{
	if (sp->n && same_round(&sp->shards[sp->n - 1], c))
		return &sp->shards[sp->n - 1];
	for (size_t i = 0; i < sp->n; i++)
		if (same_round(&sp->shards[i], c))
			return &sp->shards[i];
	return NULL;
}

void shard_plan_build(const struct plan *p, struct shard_plan *sp)
{
	size_t cap = 0;
	size_t nv = 0, nl = 1;

	while (p->variants[nv])
		nv++;
	while (p->lines && p->lines[nl])
		nl++;
	nv *= nl; /* a round holds every (line, variant) */
	*sp = (struct shard_plan){ 0 };
	for (size_t i = 0; i < p->ncells; i++) {
		const struct plan_cell *c = &p->cells[i];
		struct shard *s = shard_of(sp, c);

		if (!s) {
			sp->shards = xgrow(sp->shards, &cap, sp->n + 1, sizeof(*sp->shards));
			s = &sp->shards[sp->n++];
			*s = (struct shard){ .id = xasprintf("%s-c%d-b%d", c->workload, c->cores, c->boot),
					     .workload = c->workload, .cores = c->cores, .boot = c->boot,
					     .cells = xcalloc(nv ? nv : 1, sizeof(size_t)) };
		}
		if (s->ncells < nv) /* a round holds each variant once */
			s->cells[s->ncells++] = i;
	}
}

void shard_plan_free(struct shard_plan *sp)
{
	for (size_t i = 0; i < sp->n; i++) {
		free(sp->shards[i].id);
		free(sp->shards[i].cells);
	}
	free(sp->shards);
	*sp = (struct shard_plan){ 0 };
}

const struct shard *shard_find(const struct shard_plan *sp, const char *id)
{
	for (size_t i = 0; i < sp->n; i++)
		if (!strcmp(sp->shards[i].id, id))
			return &sp->shards[i];
	return NULL;
}
