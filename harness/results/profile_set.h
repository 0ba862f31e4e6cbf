/* RUN/profile.jsonl: what `harness run --profile` measured, one JSON object per line and
 * per timed section of a repetition (run/profile.c writes it, reports read it here):
 *
 *   {"variant","workload","kernel_line","cores","boot","rep",
 *    "metric"      the metric the section times ("wall"; "job.wall": the init's interval
 *                  when the workload declares no metric for it),
 *    "marker"      the section's marker id (guest/marker.h),
 *    "insns"       guest instructions in the section, all vCPUs (the plugin's count),
 *    "halts"       hlt instructions executed in it (idle: time without instructions),
 *    "sample_ns"   the metric's sample in ns (absent when the repetition has none),
 *    "idle_ns"     the guest's halted time over the section (marker 0 only; absent when
 *                  not measured),
 *    "symbols"     false: the kernel had no vmlinux, every kernel address is "[kernel other]",
 *    "functions":  {"clear_page_erms": 4567890, ...}  instructions per function, largest
 *                  first; bracketed names: "[user]" (all of user space), "[modules]",
 *                  "[kernel other]" (plugins/profile/profile_format.h); they sum to insns,
 *    "rep_strings": {"clear_page_erms stosb": 4194305, ...}  executions of rep string
 *                  instructions (one per element, plus one per instruction), a part of
 *                  their function's count}
 *
 * Under icount (shift 0) a section's time is its instructions plus the clock's jumps while
 * every vCPU halted: profile_check_pct() compares the two. */
#ifndef HB_RESULTS_PROFILE_SET_H
#define HB_RESULTS_PROFILE_SET_H

#include <stdbool.h>
#include <stddef.h>

#define PROFILE_SET_FILE "profile.jsonl"
#define PROFILE_JOB_WALL "job.wall"

struct profile_count {
	char *name;
	double count;
};

struct profile_rec {
	char *variant, *workload, *line, *metric;
	int cores, boot, rep, marker;
	double insns, halts, sample_ns, idle_ns; /* NAN: absent */
	bool symbols;
	struct profile_count *fn, *rep_strings;
	size_t nfn, nrep_strings;
};

struct profile_set {
	struct profile_rec *rec;
	size_t n;
	long skipped;             /* corrupt lines */
};

/* Reads dir/profile.jsonl: 1 with *out filled, 0 when the set has none, -1 after printing
 * why (unreadable). Corrupt lines are skipped and counted. */
int profile_set_read(const char *dir, struct profile_set *out);
void profile_set_free(struct profile_set *ps);

/* How far the section's instructions (+ its measured idle time) are from its sample, in
 * percent of the sample: (sample - insns - idle) / sample * 100. NAN when it cannot be
 * checked: no sample, or halts without a measured idle time (a step section), or halts
 * on several vCPUs (their idle times do not add up to clock time). */
double profile_check_pct(const struct profile_rec *r);

#endif
