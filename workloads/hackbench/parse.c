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

static int hackbench_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx,
			   char **why)
{
	double seconds;

	(void)err;
	if (!workload_line_number(out, "Time:", &seconds) || seconds < 0) {
		*why = xstrdup("no 'Time: <seconds>' line in hackbench's output");
		return -1;
	}
	emit(ctx, "time", seconds);
	return 0;
}

const struct workload_parser hackbench_parser = {
	.name = "hackbench",
	.jobs = hackbench_jobs,
	.parse = hackbench_parse,
};
