/* Counting --against-seeds rows, for the summary the renderers print: how many agree, and
 * how many of the effects to resolve (published at least 2%) have a 95% CI that excludes
 * no effect; over the whole run and per seed and workload. */
#ifndef HB_SEEDS_SEEDS_TALLY_H
#define HB_SEEDS_SEEDS_TALLY_H

#include <stddef.h>

#include "seeds/seeds_report.h"

/* What a compared row says of a published effect of at least 2%. */
enum seeds_resolution {
	RESOLUTION_NONE_TO_RESOLVE, /* published under 2%, called noise, or no effect expected */
	RESOLUTION_RESOLVED,        /* the 95% CI excludes no effect */
	RESOLUTION_SMALLER,         /* it spans none but excludes the published effect too */
	RESOLUTION_TOO_WIDE,        /* it spans both, or is unknown (one sample a side) */
};

struct seeds_tally {
	const char *seed, *workload; /* of a per-seed tally; NULL for the run's */
	size_t compared, same, order, within, big, resolved, smaller, too_wide;
	size_t unjudged; /* n=1 on a side: no error estimate, so no agreement either way */
	size_t none_expected, none_included; /* expect_none rows; those whose CI spans none */
	double *none_reach_pct;              /* how far each of their CIs reaches from none */
};

enum seeds_resolution seeds_row_resolution(const struct seed_match *m);

/* The run's tally over sr's compared rows. seeds_tally_free() it. */
void seeds_tally_run(const struct seeds_report *sr, struct seeds_tally *t);
/* One tally per seed and workload, in the order the rows first name them; *n of them.
 * seeds_tally_free() each, then free() the array. */
struct seeds_tally *seeds_tally_by_seed(const struct seeds_report *sr, size_t *n);
void seeds_tally_free(struct seeds_tally *t);

#endif
