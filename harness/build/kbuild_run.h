/* Inside harness/build/: the state of one running build, shared by the steps
 * (kbuild_run.c) and the entry handling (kbuild_entry.c). */
#ifndef HB_BUILD_KBUILD_RUN_H
#define HB_BUILD_KBUILD_RUN_H

#include "build/kbuild_plan.h"
#include "build/manifest.h"
#include "build/recipe.h"
#include "common/progress.h"
#include "config/kopts.h"

struct run {
	const struct kbuild_plan *p;
	char *copy;     /* <work>/src */
	char *obj;      /* <work>/src/obj */
	char *log;      /* <work>/build.log */
	char *ccache_log;
	struct recipe recipe;
	struct progress progress;
	struct build_stats stats;
	struct kopt_list want;
	double t0;
	double cpu0;    /* children's CPU seconds when the build started */
};

/* User + system seconds of all waited-for children of this process so far. */
double run_children_cpu(void);
/* Shows a phase: on the progress line on a terminal, a line of its own otherwise. */
void run_phase(struct run *r, const char *name);
/* Ends the rewritten progress line so the next message starts on its own line. */
void run_end_progress_line(struct run *r);
/* Removes a work or staging folder of this build (warns when it cannot). */
void run_remove_owned(const char *path);
/* Removes a work folder without making the caller wait for the file system. */
void run_discard(const struct kbuild_plan *p, const char *path);
/* Reports a failed step: the log and .config move to <cache>/failed/, the error names
 * the log and quotes its error lines, and staging and work are removed. rc 0: no exit
 * status to show. */
void run_fail(struct run *r, const char *step, int rc);
/* Fills staging with the kernel, its config, manifest and (last) the log. */
int run_store(struct run *r);
/* staging -> entry by one rename; an older entry of the same key (--force) is replaced. */
int run_publish(const struct kbuild_plan *p);
/* After a success: the summary line, and an older failure of the same key forgotten. */
void run_report_success(const struct run *r);

#endif
