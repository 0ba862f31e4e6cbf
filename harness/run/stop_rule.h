/* --until-ci PCT: adds rounds until every variant's cost on each workload's primary metric
 * is known to +/- PCT percentage points (the half-width of its paired 95% interval), or
 * until --max-boots rounds have run.
 *
 * The rule bounds precision, not significance: whether it stops does not depend on which
 * side of zero the estimate lies, so stopping early does not bias the p-values the way
 * "stop when significant" would. */
#ifndef HB_RUN_STOP_RULE_H
#define HB_RUN_STOP_RULE_H

#include <stdbool.h>

struct run;

struct stop_verdict {
	bool precise;      /* every half-width <= the bound */
	double widest;     /* the widest half-width (pp); NAN when some estimate has < 2 rounds */
	char *widest_what; /* "init_on_alloc hackbench time 1 vCPU" (the widest or unknown one) */
};

/* Reads the run's samples of rounds 0..rounds-1 and judges them. 0, or -1 when the
 * samples cannot be read (after printing why). */
int stop_rule_check(const struct run *r, int rounds, struct stop_verdict *v);
void stop_verdict_free(struct stop_verdict *v);

#endif
