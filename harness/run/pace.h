/* This host's pace: what cells really took over what workload.ini's seconds estimated
 * (run/estimate.c), kept in hb_cache_dir()/pace.json per host (host kernel, CPU model and
 * QEMU: accel_host_key) and per kind of cell. workload.ini's figures were measured on the
 * project's 2-core machines; four main jobs there took from 28% less to 3% more than
 * they estimated, as the host's speed varied. The next plan of cells this host has run is
 * estimated at its latest pace instead.
 * A group is accel, clock, workload, the run's --param values for that workload (the
 * quick matrix's small sizes are another group than the main job's) and the workload.ini
 * seconds the figures are a factor of (retuned, they start over: a factor of the old
 * seconds would scale the new ones, 0.73x of kbuild's 140 s a cell applied to 118 s);
 * a kind within it is
 * the kernel line, variant and vCPU count. A run's figure for a kind replaces the older
 * one: a host's speed drifts (neighbours, load), and the last run is the best guess of the
 * next. Kinds not updated for PACE_MAX_AGE_S are dropped. Every host's figures differ from
 * group to group (boot-heavy small cells: 0.01-0.3x here, the main job's 0.66-0.80x), so a
 * group never run is estimated from workload.ini alone, not from another group. */
#ifndef HB_RUN_PACE_H
#define HB_RUN_PACE_H

#include <json-c/json.h>

#define PACE_FILE "pace.json"
#define PACE_MAX_AGE_S (90 * 24 * 3600.0)

struct pace {
	json_object *known;   /* this host's groups from pace.json (owned), or NULL */
	json_object *learned; /* this run's groups, the same shape: {group: {kind: figures}} */
};

enum pace_match {
	PACE_NONE,  /* no figure: workload.ini's seconds as they are */
	PACE_GROUP, /* the group's figure (other variants or vCPU counts) */
	PACE_KIND,  /* this very kind of cell */
};

/* "tcg icount hackbench [hackbench.groups=2 hackbench.loops=50] est_rep_s=..": the group of a
 * workload's cells, params being the run's "W.KEY=VALUE" list (only W's count, in sorted
 * order) and basis the workload.ini seconds estimates come from (estimate.c). */
char *pace_group(const char *accel, const char *clock, const char *workload,
		 char *const *params, const char *basis);
/* "6.1 baseline c2" */
char *pace_kind(const char *line, const char *variant, int cores);

/* Reads this host's figures (none: an empty pace, every factor 1). */
void pace_load(struct pace *p);
void pace_free(struct pace *p);
/* Real over estimated seconds for kind in group (kind NULL: the group as a whole), and
 * which figure answered; 1 and PACE_NONE when none did. */
double pace_factor(const struct pace *p, const char *group, const char *kind,
		   enum pace_match *match);
/* One cell of this run: its real seconds and workload.ini's estimate for it. */
void pace_learn(struct pace *p, const char *group, const char *kind, double seconds,
		double estimated);
/* Writes what this run learned into pace.json (read again first: another run may have
 * written it meanwhile; replaced atomically). Nothing learned: nothing written. */
void pace_save(const struct pace *p);

#endif
