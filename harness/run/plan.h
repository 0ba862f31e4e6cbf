/* The run plan: kernel lines x variants x workloads x cores x boots, each cell one guest boot that runs
 * the workload's job `reps` times. Interleaved order puts every variant of a (workload,
 * cores, boot) round next to each other, so slow drift on the host (thermal, noisy
 * neighbours) hits all variants alike; --seed shuffles the variants within each round. */
#ifndef HB_RUN_PLAN_H
#define HB_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

enum plan_order { ORDER_INTERLEAVED, ORDER_GROUPED };

struct plan_cell {
	const char *line;     /* kernel line; points into the plan's lists */
	const char *variant;
	const char *workload;
	int cores;
	int boot;
	bool *rep_done;       /* [plan.reps]: repetition already measured (resume) */
};

struct plan {
	char **lines;         /* kernel lines, NULL-terminated; NULL: the default line only */
	char **variants;      /* NULL-terminated */
	char **workloads;
	long *cores;
	size_t ncores;
	int boots;            /* rounds of every workload not in workload_boots */
	char **workload_boots; /* "WORKLOAD=N": a workload's own number of rounds (the main
			       * job's icount_boots, run/main_job.h); NULL when none */
	int reps;
	enum plan_order order;
	unsigned long seed;   /* 0: no shuffle */
	char **keep;          /* NULL: every cell; else only the cells of these groups
			       * (plan_group_key), e.g. the main job's (run/main_job.h) */
	struct plan_cell *cells;
	size_t ncells;
};

/* Fills p->cells from the lists (which the plan now owns). A round holds every (line,
 * variant) of a (workload, cores, boot), shuffled together; with one line the order is
 * the one plans had before lines. */
void plan_build(struct plan *p);
/* The rounds workload w runs: its workload_boots entry, else p->boots. */
int plan_workload_boots(const struct plan *p, const char *w);
/* NULL when every "WORKLOAD=N" names one of p->workloads once, with N from 1 to 1000;
 * else the first item that does not (a resumed meta.json is not trusted). */
const char *plan_bad_workload_boots(char *const *workload_boots, char *const *workloads);
/* The most rounds any workload runs (the plan's last boot index + 1). */
int plan_max_boots(const struct plan *p);
/* "variant/workload/cores/boot" on the default line (as before lines, so old journals
 * resume), "LINE:variant/workload/cores/boot" on any other: a cell's journal identity. */
char *plan_cell_key(const struct plan_cell *c);
/* {"variant", "workload", "kernel_line", "cores", "boot", "rep"}: a repetition of c in the
 * per-repetition records of a set (profile.jsonl, model.jsonl). New object. */
json_object *plan_cell_rep_json(const struct plan_cell *c, int rep);
/* "LINE:variant/workload/cores": the cells of every boot of one variant, workload and
 * vCPU count on one line (what plan.keep lists). */
char *plan_group_key(const char *line, const char *variant, const char *workload, int cores);
/* Repetitions of c still to measure (0..reps). */
int plan_cell_missing(const struct plan *p, const struct plan_cell *c);
/* Cells with at least one repetition to measure. */
size_t plan_count_pending(const struct plan *p);
/* The cell with this key, or NULL. */
struct plan_cell *plan_find_cell(const struct plan *p, const char *key);
void plan_free(struct plan *p);

#endif
