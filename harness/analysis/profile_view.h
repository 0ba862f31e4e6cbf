/* "Where the cost goes": the --profile records of a set (results/profile_set.h) as every
 * report format shows them. Per (kernel line, workload, vCPUs, metric) and variant
 * against the baseline: the extra instructions per repetition of each kernel function,
 * each a mean over rounds of the round's variant minus the same round's baseline (the
 * rounds are paired: under icount a round's variants share the guest's random seed), with
 * a 95% t interval over rounds and its share of the total extra instructions.
 *
 * Why instructions and not time: under icount a section's time is its instructions (plus
 * clock jumps while idle, shown apart), so the shares are shares of the measured cost,
 * exact, not sampled. */
#ifndef HB_ANALYSIS_PROFILE_VIEW_H
#define HB_ANALYSIS_PROFILE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

struct pv_fn {
	char *name;
	double base, var;       /* mean instructions per repetition */
	double delta, ci;       /* var - base per repetition, mean over rounds; 95% half-width
				 * (NAN with one round) */
	double share;           /* delta / the row's total delta */
};

struct pv_row {
	char *line, *workload, *metric, *variant;
	int cores, marker;
	int rounds;             /* rounds with both the variant and the baseline */
	double base_insns, var_insns, delta, delta_ci;   /* per repetition */
	double base_idle_ns, var_idle_ns;                /* mean measured idle (NAN: none) */
	struct pv_fn *fn;       /* every function whose count changed, largest delta first */
	size_t nfn;
	/* Rep string sites whose executions changed ("clear_page_erms stosb": one execution
	 * per element, plus one per instruction), a part of their function's count. */
	struct pv_fn *rep;
	size_t nrep;
	/* Each section's instructions (+ idle) against its sample (profile_check_pct): how
	 * many were checked, the largest distance in percent, how many could not be. */
	long checked, unchecked;
	double worst_pct;
};

struct profile_view {
	struct pv_row *rows;    /* by line, workload, cores, marker, variant */
	size_t n;
	long records;
	char *baseline;
};

/* Loads dir's profile against baseline: 1, 0 when the set has no profile, -1 after printing
 * why. A variant without the baseline in its rounds gets no row. */
int profile_view_load(const char *dir, const char *baseline, struct profile_view *out);
void profile_view_free(struct profile_view *pv);
/* The row of (line, workload, cores, variant) for metric, or when the profile has no
 * section timing that metric, the workload's own timed step (lowest marker above 0), else
 * the init's interval. NULL when none. */
const struct pv_row *profile_view_find(const struct profile_view *pv, const char *line,
				       const char *workload, int cores, const char *variant,
				       const char *metric);
/* "memset_erms 61.5%, clear_page_erms 33.2% of +54.20 M guest instructions per repetition
 * (wall, 2 rounds)": the largest contributors to a row's extra instructions (at most top;
 * after the first only those of 1% or more), for a note that cites the measured profile.
 * Caller frees. */
char *profile_view_cite(const struct pv_row *row, int top);
/* The sum of the shares of the functions whose name matches one of the fnmatch(3)
 * patterns (NULL-terminated), in [.., ..] of the row's total delta. */
double profile_view_share(const struct pv_row *row, const char *const *patterns);

#endif
