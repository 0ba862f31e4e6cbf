/* Inside harness/kernel/: the state of one running build, shared by the steps
 * (kernel_make.c) and the entry handling (kernel_entry.c). */
#ifndef HB_KERNEL_MAKE_H
#define HB_KERNEL_MAKE_H

#include "kernel/plan.h"
#include "kernel/manifest.h"
#include "kernel/recipe.h"
#include "common/progress.h"
#include "kernel/kopts.h"
#include "kernel/sandbox.h"

struct make_state {
	const struct kernel_plan *p;
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
	struct build_sandbox sb; /* where make runs, and as whom (kernel/sandbox.h) */
	char *modules;  /* <work>/modules: modules_install's INSTALL_MOD_PATH on the host */
	char **frag_copies; /* the fragments, copied into <work>/fragments/ */
};

/* Shows a phase: on the progress line on a terminal, a line of its own otherwise. */
void make_phase(struct make_state *r, const char *name);
/* Ends the rewritten progress line so the next message starts on its own line. */
void make_end_progress_line(struct make_state *r);
/* Removes a work or staging folder of this build (warns when it cannot). */
void make_remove_owned(const char *path);
/* Removes a work folder without making the caller wait for the file system. */
void make_discard(const struct kernel_plan *p, const char *path);
/* Reports a failed step: the log and .config move to <cache>/failed/, the error names
 * the log and quotes its error lines, and staging and work are removed. rc 0: no exit
 * status to show. */
void make_fail(struct make_state *r, const char *step, int rc);
/* Fills staging with the kernel, its config, manifest and (last) the log. */
int make_store(struct make_state *r);
/* staging -> entry by one rename; an older entry of the same key (--force) is replaced. */
int make_publish(const struct kernel_plan *p);
/* After a success: the summary line, and an older failure of the same key forgotten. */
void make_report_success(const struct make_state *r);

#endif
