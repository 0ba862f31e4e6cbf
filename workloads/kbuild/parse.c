/* kbuild: the guest helper hb-kbuild mounts the cached source image and a fresh copy of
 * the host-prepared objects, builds the targets and prints the timings of that make;
 * this side plans the job and makes the cached files (files.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "files.h"
#include "workload/parser.h"

/* Guest RAM for the tmpfs objects plus compilers: measured O= sizes, rounded up. */
#define TINY_MEM_MIB 1024
#define DEFCONFIG_MEM_MIB 4096
#define ARGV_MAX 48

/* The cached image and prepared objects: made now, or (dry run) noted as to be made. */
static int host_files(const struct workload *w, struct workload_cell *cell,
		      struct kbuild_files *f, char **why)
{
	const char *param = workload_param(w, "source"), *config = workload_param(w, "config");

	if (kbuild_files_locate(strcmp(param, "default") ? param : NULL, config, f) < 0) {
		*why = xasprintf("cannot identify the kernel source '%s'", param);
		return -1;
	}
	if (f->have_image && f->have_prepared)
		return 0;
	if (cell->target.prepare) {
		if (kbuild_files_make(config, f) == 0)
			return 0;
		*why = xasprintf("cannot make the source image %s or the prepared objects %s",
				 f->image, f->prepared);
		return -1;
	}
	char *note = xasprintf("kbuild: %s%s%s will be made from %s (a few minutes, once)",
			       f->have_image ? "" : f->image, f->have_image ? "" : " and ",
			       f->prepared, f->source);
	workload_add_note(cell, note);
	free(note);
	return 0;
}

/* kbuild accepts a missing directory as a target and builds nothing: catch that here. A
 * target with a '/' must be a directory of the tree ("mm/") or an object of a source
 * file ("mm/page_alloc.o"); one without is a top-level target (vmlinux, bzImage). */
static int check_target(const char *tree, const char *target, char **why)
{
	size_t len = strlen(target);
	char *path = xasprintf("%s/%s", tree, target);
	bool ok = !strchr(target, '/') || hb_is_dir(path);

	if (!ok && len > 2 && !strcmp(target + len - 2, ".o")) {
		path[strlen(path) - 1] = 'c';
		ok = hb_is_file(path);
		path[strlen(path) - 1] = 'S';
		ok = ok || hb_is_file(path);
	}
	free(path);
	if (ok)
		return 0;
	*why = xasprintf("--param kbuild.target: '%s' is neither a directory nor an object of a "
			 "source file in %s (accepted: e.g. kernel/sched/, mm/page_alloc.o, vmlinux)",
			 target, tree);
	return WORKLOAD_BAD_PARAM;
}

static int kbuild_jobs(const struct workload *w, struct workload_cell *cell, char **why)
{
	char *helper = workload_helper_path(w, why), *targets, *save = NULL, jobs[24];
	struct kbuild_files f;
	const char *argv[ARGV_MAX] = { helper, "--label", KBUILD_DISK_LABEL, "--jobs", jobs };
	size_t n = 5;
	int rc = 0;

	if (!helper)
		return -1;
	if (host_files(w, cell, &f, why) < 0) {
		free(helper);
		return -1;
	}
	snprintf(jobs, sizeof(jobs), "%ld", workload_param_long(w, "jobs", cell->target.cores));
	argv[n++] = "--tree";
	argv[n++] = f.tree;
	argv[n++] = "--prepared";
	argv[n++] = f.prepared;
	targets = xstrdup(workload_param(w, "target"));
	for (char *t = strtok_r(targets, " ", &save); t && n < ARGV_MAX - 1 && !rc; t = strtok_r(NULL, " ", &save)) {
		if (hb_is_dir(f.tree)) /* not yet extracted in a dry run */
			rc = check_target(f.tree, t, why);
		argv[n++] = t;
	}
	if (!rc) {
		workload_add_job(cell, w, NULL, argv, NULL);
		workload_add_disk(cell, f.image);
		/* The disk is mounted over the tree's path, the prepared objects copied from. */
		workload_add_share(cell, f.tree);
		workload_add_share(cell, f.prepared);
		workload_need_mem(cell, strcmp(workload_param(w, "config"), "defconfig") ? TINY_MEM_MIB
											    : DEFCONFIG_MEM_MIB);
	}
	kbuild_files_free(&f);
	free(targets);
	free(helper);
	return rc;
}

static const struct workload_seconds_line timings[] = {
	{ "wall_s", "wall" },
	{ "user_s", "user" },
	{ "sys_s", "sys" },
	{ "guest_sys_s", "guest_sys" },
};

/* Printed since 2026-12-02: optional, so captures from before still parse (a key and its
 * metric, as for the timings, though not all are seconds). */
static const struct workload_seconds_line wait_lines[] = {
	{ "guest_idle_s", "guest_idle" },
	{ "guest_iowait_s", "guest_iowait" },
	{ "disk_read_kib", "disk_read" },
};

static int kbuild_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx, char **why)
{
	double v;

	(void)err;
	if (workload_emit_seconds(out, timings, sizeof(timings) / sizeof(timings[0]), "hb-kbuild",
				  emit, ctx, why) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(wait_lines) / sizeof(wait_lines[0]); i++)
		if (workload_line_number(out, wait_lines[i].key, &v) && v >= 0)
			emit(ctx, wait_lines[i].metric, v);
	return 0;
}

const struct workload_parser kbuild_parser = {
	.name = "kbuild",
	.jobs = kbuild_jobs,
	.parse = kbuild_parse,
};
