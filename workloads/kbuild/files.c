/* kbuild's cached host files (see files.h). */
#include "files.h"

#include <errno.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/lock.h"
#include "kernel/source.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/spawn.h"
#include "common/xalloc.h"

#define BLOCK 4096ULL
/* Room for directories, inode tables and ext4's own metadata beyond the file data. */
#define SLACK_BYTES (128ULL << 20)

int kbuild_files_locate(const char *source, const char *config, struct kbuild_files *f)
{
	char *cache = hb_cache_dir(), *mark;
	struct ksource ks;

	*f = (struct kbuild_files){ 0 };
	if (ksource_identify(source, cache, &ks) < 0) {
		free(cache);
		return -1;
	}
	f->source = xstrdup(ks.path);
	f->tree = ksource_shared_path(&ks, cache);
	f->image = xasprintf("%s/workloads/kbuild/%s.ext4", cache, ks.label);
	f->prepared = xasprintf("%s/workloads/kbuild/%s-%s.obj", cache, ks.label, config);
	mark = xasprintf("%s/" KBUILD_PREPARED_MARK, f->prepared);
	f->have_image = hb_is_file(f->image);
	f->have_prepared = hb_is_file(mark);
	free(mark);
	ksource_free(&ks);
	free(cache);
	return 0;
}

struct tree_size {
	unsigned long long bytes; /* file data rounded up to blocks */
	unsigned long long inodes;
};

static int measure_tree(const char *tree, struct tree_size *t)
{
	char *const roots[] = { (char *)tree, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;

	*t = (struct tree_size){ 0 };
	if (!fts)
		return -1;
	while ((e = fts_read(fts))) {
		if (e->fts_info == FTS_DP)
			continue;
		t->inodes++;
		if (e->fts_statp)
			t->bytes += ((unsigned long long)e->fts_statp->st_size + BLOCK - 1) / BLOCK * BLOCK;
	}
	fts_close(fts);
	return 0;
}

static int run_logged(char *const argv[], const char *log, const char *cwd)
{
	struct spawn_opts so = { .cwd = cwd, .stdout_path = log, .stderr_path = "=stdout",
				 .append = true, .stdin_null = true };
	return hb_run(argv, &so) == 0 ? 0 : -1;
}

static int make_image(const struct kbuild_files *f)
{
	struct tree_size t;
	char inodes[32], size[32], took[32];
	char *tmp = xasprintf("%s.tmp.%ld", f->image, (long)getpid());
	char *log = xasprintf("%s.log", f->image);
	char *argv[] = { "mke2fs", "-q", "-F", "-t", "ext4", "-O", "^has_journal",
			 "-L", KBUILD_DISK_LABEL, "-N", inodes, "-E", "root_owner=0:0",
			 "-d", f->tree, tmp, size, NULL };
	double t0 = hb_now();
	int ret = -1;

	if (measure_tree(f->tree, &t) < 0) {
		hb_error("kbuild: cannot read the source tree %s: %s", f->tree, strerror(errno));
	} else {
		snprintf(inodes, sizeof(inodes), "%llu", t.inodes + t.inodes / 4 + 1024);
		snprintf(size, sizeof(size), "%lluk",
			 (t.bytes + t.bytes / 8 + t.inodes * 512 + SLACK_BYTES) / 1024);
		hb_info("kbuild: making the source disk image %s (%llu files, %llu MiB; once, "
			"about 30 s)", f->image, t.inodes, t.bytes >> 20);
		unlink(log);
		if (run_logged(argv, log, NULL) == 0 && rename(tmp, f->image) == 0) {
			hb_info("kbuild: source image made in %s",
				hb_format_duration(hb_now() - t0, took, sizeof(took)));
			ret = 0;
		} else {
			hb_error("kbuild: mke2fs could not make %s; see %s", f->image, log);
		}
	}
	unlink(tmp);
	free(tmp);
	free(log);
	return ret;
}

/* make -s -C TREE O=DIR ARCH=x86_64 CC=gcc HOSTCC=gcc -jN TARGET, as hb-kbuild runs it. */
static int host_make(const struct kbuild_files *f, const char *target, const char *log)
{
	char *obj = xasprintf("O=%s", f->prepared);
	char *jobs = xasprintf("-j%ld", sysconf(_SC_NPROCESSORS_ONLN));
	char *argv[] = { "make", "-s", "-C", f->tree, obj, "ARCH=x86_64", "CC=gcc", "HOSTCC=gcc",
			 jobs, (char *)target, NULL };
	char *const env[] = { "CCACHE_DISABLE=1", NULL };
	struct spawn_opts so = { .stdout_path = log, .stderr_path = "=stdout", .append = true,
				 .stdin_null = true, .env_add = env };
	int ret = hb_run(argv, &so) == 0 ? 0 : -1;

	free(obj);
	free(jobs);
	return ret;
}

/* The guest starts from this copy, so it compiles only what a rep times. */
static int make_prepared(const char *config, const struct kbuild_files *f)
{
	char *log = xasprintf("%s.log", f->prepared);
	char *mark = xasprintf("%s/" KBUILD_PREPARED_MARK, f->prepared);
	char took[32];
	double t0 = hb_now();
	int ret = -1;

	hb_info("kbuild: configuring (%s) and preparing %s on the host (once, about 2 min)",
		config, f->prepared);
	unlink(log);
	if (hb_remove_tree(f->prepared) < 0 && errno != ENOENT)
		hb_error("kbuild: cannot clear %s: %s", f->prepared, strerror(errno));
	else if (hb_mkdir_p(f->prepared, 0755) < 0 || host_make(f, config, log) < 0 ||
		 host_make(f, "prepare", log) < 0 || hb_write_file_atomic(mark, "", 0) < 0)
		hb_error("kbuild: preparing %s failed; see %s", f->prepared, log);
	else
		ret = 0;
	if (ret == 0)
		hb_info("kbuild: prepared in %s", hb_format_duration(hb_now() - t0, took, sizeof(took)));
	free(log);
	free(mark);
	return ret;
}

int kbuild_files_make(const char *config, struct kbuild_files *f)
{
	char *cache = hb_cache_dir(), *dir = xasprintf("%s/workloads/kbuild", cache);
	char *tree = NULL;
	struct ksource ks;
	int lock = -1, ret = -1;

	if (hb_mkdir_p(dir, 0755) < 0 || ksource_identify(f->source, cache, &ks) < 0)
		goto out;
	tree = ksource_shared_tree(&ks, cache);
	lock = tree ? kernel_cache_lock(cache, "workloads-kbuild", "another harness making kbuild's files") : -1;
	if (lock >= 0) {
		/* Another harness may have made them while this one waited: look again, or it
		 * would re-prepare the directory under that harness's running guest. */
		char *mark = xasprintf("%s/" KBUILD_PREPARED_MARK, f->prepared);
		f->have_prepared = f->have_prepared || hb_is_file(mark);
		free(mark);
		f->have_image = f->have_image || hb_is_file(f->image);
		ret = f->have_image ? 0 : make_image(f);
		f->have_image = ret == 0;
		if (ret == 0 && !f->have_prepared)
			ret = make_prepared(config, f);
		f->have_prepared = ret == 0;
	}
	kernel_cache_unlock(lock);
	ksource_free(&ks);
out:
	free(tree);
	free(dir);
	free(cache);
	return ret;
}

void kbuild_files_free(struct kbuild_files *f)
{
	free(f->source);
	free(f->tree);
	free(f->image);
	free(f->prepared);
	*f = (struct kbuild_files){ 0 };
}
