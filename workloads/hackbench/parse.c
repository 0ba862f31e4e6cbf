/* hackbench: runs the host's rt-tests hackbench (the guest sees the host root) and reads
 * its "Time: S.mmm" line. */
#include <stdlib.h>
#include <string.h>

#include "common/spawn.h"
#include "common/xalloc.h"
#include "workload/parser.h"

static int hackbench_jobs(const struct workload *w, struct workload_cell *cell, char **why)
{
	const char *argv[] = {
		"hackbench",
		"-g", workload_param(w, "groups"),
		"-l", workload_param(w, "loops"),
		"-s", workload_param(w, "datasize"),
		"-f", workload_param(w, "fds"),
		strcmp(workload_param(w, "mode"), "threads") ? "-P" : "-T",
		strcmp(workload_param(w, "ipc"), "pipes") ? NULL : "-p",
		NULL,
	};

	if (!hb_have_program("hackbench")) {
		*why = xstrdup("hackbench is not installed on this host, whose root the guest uses "
			       "(apt-get install rt-tests)");
		return -1;
	}
	workload_add_job(cell, w, NULL, argv, NULL);
	return 0;
}

static const struct workload_seconds_line time_line = { "Time:", "time" };

static int hackbench_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx,
			   char **why)
{
	(void)err;
	return workload_emit_seconds(out, &time_line, 1, "hackbench", emit, ctx, why);
}

const struct workload_parser hackbench_parser = {
	.name = "hackbench",
	.jobs = hackbench_jobs,
	.parse = hackbench_parse,
};
