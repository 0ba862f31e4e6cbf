/* One kernel build, from source copy to published cache entry. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel/cachekey.h"
#include "configs/extmod.h"
#include "kernel/make.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "kernel/kopts.h"

/* Progress estimate for a build no entry of the same build remembers: base.config on
 * 6.1.192 prints about this many "  CC " lines. */
#define KBUILD_COMPILES_GUESS 1100

/* The compile count of the newest entry of the same build, for the ETA. */
static size_t expected_compiles(const struct kernel_plan *p)
{
	char *dir = hb_path_join(p->cache, "kernels");
	char *prefix = xasprintf("%s-", p->def.name);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t best = 0;
	time_t newest = 0;

	while (d && (e = readdir(d))) {
		char *entry;
		struct manifest_info m;
		struct stat st;

		if (strncmp(e->d_name, prefix, strlen(prefix)) ||
		    strlen(e->d_name) != strlen(prefix) + KBUILD_KEY_PREFIX)
			continue;
		entry = hb_path_join(dir, e->d_name);
		if (stat(entry, &st) == 0 && st.st_mtime >= newest && manifest_read(entry, &m) == 0) {
			if (m.compiles) {
				best = m.compiles;
				newest = st.st_mtime;
			}
			manifest_info_free(&m);
		}
		free(entry);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(dir);
	return best ? best : KBUILD_COMPILES_GUESS;
}

static void log_line(const char *log, const char *line)
{
	FILE *f = hb_fopen_nofollow(log, "a");

	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

static int prepare_source(struct make_state *r)
{
	char *shared;
	double t0 = hb_now();
	int rc = -1;

	make_phase(r, "prepare source");
	if (!ksource_tree_ready(&r->p->src, r->p->cache))
		make_end_progress_line(r); /* extraction prints its own lines */
	shared = ksource_shared_tree(&r->p->src, r->p->cache);
	if (shared) {
		char *line = xasprintf("+ copy %s to %s (hard links), then apply %zu patch(es)", shared,
				       r->copy, hb_strv_len(r->p->def.patches));
		log_line(r->log, line);
		free(line);
	}
	/* The copy is root's; its folders are then the build uid's (the files stay shared
	 * hard links it cannot write, patch replaces them), and the series applies as it. */
	if (shared && ksource_copy(shared, r->copy) == 0 && sandbox_give(&r->sb, "src") == 0 &&
	    ksource_apply_patches_unpriv(r->copy, r->p->def.patches, r->log) == 0)
		rc = 0;
	free(shared);
	r->stats.seconds_prepare = hb_now() - t0;
	return rc;
}

static int make_step(struct make_state *r, enum recipe_step step)
{
	int rc = recipe_run(&r->recipe, step, r->log, &r->progress,
			    step == STEP_COMPILE ? &r->stats.compiles : NULL);
	if (rc != 0) {
		make_fail(r, recipe_step_name(step), rc);
		return -1;
	}
	return 0;
}

/* Every option the fragments ask for must hold after olddefconfig. */
static int verify_config(struct make_state *r)
{
	char *config = hb_path_join(r->obj, ".config");
	struct kopt_list have = { 0 };
	char **bad = NULL;
	int rc = -1;

	for (size_t i = 0; r->p->def.fragments[i]; i++)
		if (kopts_load(&r->want, r->p->def.fragments[i]) < 0)
			goto out;
	if (kopts_load(&have, config) < 0)
		goto out;
	bad = kopts_verify(&r->want, &have);
	if (bad[0]) {
		FILE *f = hb_fopen_nofollow(r->log, "a");
		char *msg = xasprintf("%zu option(s) the fragments ask for did not hold after "
				      "olddefconfig", hb_strv_len(bad));
		for (size_t i = 0; f && bad[i]; i++)
			fprintf(f, "error: dropped %s\n", bad[i]);
		if (f)
			fclose(f);
		make_fail(r, msg, 0);
		free(msg);
		goto out;
	}
	rc = 0;
out:
	hb_free_strv(bad);
	kopts_free(&have);
	free(config);
	return rc;
}

static int configure(struct make_state *r)
{
	double t0 = hb_now();

	make_phase(r, "configure");
	if (make_step(r, STEP_TINYCONFIG) < 0 || make_step(r, STEP_MERGE) < 0 ||
	    make_step(r, STEP_OLDDEFCONFIG) < 0)
		return -1;
	make_phase(r, "verify");
	if (verify_config(r) < 0)
		return -1;
	r->stats.seconds_configure = hb_now() - t0;
	return 0;
}

static int compile(struct make_state *r)
{
	double t0 = hb_now();

	make_phase(r, "compile");
	if (make_step(r, STEP_COMPILE) < 0)
		return -1;
	r->stats.seconds_compile = hb_now() - t0;
	t0 = hb_now();
	make_phase(r, "modules_install");
	if (make_step(r, STEP_MODULES_INSTALL) < 0)
		return -1;
	r->stats.seconds_install = hb_now() - t0;
	return 0;
}

/* Runs the module's make line (install or not); -1 after make_fail. */
static int module_make(struct make_state *r, const char *step, const char *copy, bool install)
{
	char **argv = recipe_module_argv(&r->recipe, copy, install);
	int rc = recipe_run_argv(&r->recipe, argv, r->log);

	hb_free_strv(argv);
	if (rc != 0)
		make_fail(r, step, rc);
	return rc ? -1 : 0;
}

/* Each out-of-tree module of the build: copied to <work>/extmod/<name> (kbuild writes its
 * outputs next to the sources), compiled against this tree, installed with its modules. */
static int build_modules(struct make_state *r)
{
	char *const *mods = r->p->def.modules;
	double t0 = hb_now();
	int rc = 0;

	for (size_t i = 0; rc == 0 && mods && mods[i]; i++) {
		char *step = xasprintf("module %s", extmod_name(mods[i]));
		char *copy = extmod_work_dir(r->p->work, mods[i]);
		char *why = NULL, *line;

		make_phase(r, step);
		line = xasprintf("+ copy the sources of %s to %s", mods[i], copy);
		log_line(r->log, line);
		free(line);
		if (extmod_copy(mods[i], copy, &why) < 0 ||
		    (sandbox_give(&r->sb, copy + strlen(r->p->work) + 1) < 0 &&
		     (why = xasprintf("cannot hand %s to the build uid: %s", copy, strerror(errno))))) {
			line = xasprintf("error: %s", why);
			log_line(r->log, line);
			make_fail(r, step, 0);
			rc = -1;
			free(line);
			free(why);
		} else {
			char *seen = sandbox_path(&r->sb, copy);
			rc = module_make(r, step, seen, false);
			if (rc == 0)
				rc = module_make(r, step, seen, true);
			free(seen);
		}
		free(copy);
		free(step);
	}
	r->stats.seconds_modules = hb_now() - t0;
	return rc;
}

static void make_free(struct make_state *r)
{
	kopts_free(&r->want);
	free(r->copy);
	free(r->obj);
	free(r->log);
	free(r->ccache_log);
	free(r->modules);
	free((char *)r->recipe.modules_dir);
	free((char *)r->recipe.ccache_log);
	hb_free_strv(r->frag_copies);
	sandbox_free(&r->sb);
}

/* The fragments, copied into <work>/fragments/ by root: the project's tree may be in a
 * folder the build uid cannot enter (a CI clone in a mktemp -d). */
static int copy_fragments(struct make_state *r)
{
	char *dir = hb_path_join(r->p->work, "fragments");
	struct hb_strv v = { 0 };
	int rc = hb_mkdir_p(dir, 0755);

	hb_strv_push(&v, NULL);
	v.n = 0;
	for (size_t i = 0; rc == 0 && r->p->def.fragments[i]; i++) {
		size_t len;
		char *text = hb_read_file(r->p->def.fragments[i], &len);
		char *name = xasprintf("%zu-%s", i, strrchr(r->p->def.fragments[i], '/') ?
						     strrchr(r->p->def.fragments[i], '/') + 1 :
						     r->p->def.fragments[i]);
		char *copy = hb_path_join(dir, name);
		if (!text || hb_write_file_atomic(copy, text, len) < 0) {
			hb_error("cannot copy %s to %s: %s", r->p->def.fragments[i], copy, strerror(errno));
			rc = -1;
		}
		hb_strv_push(&v, sandbox_path(&r->sb, copy));
		free(copy);
		free(name);
		free(text);
	}
	free(dir);
	r->frag_copies = v.v;
	r->recipe.fragments = r->frag_copies;
	return rc;
}

/* What make writes besides the tree: the modules it installs and ccache's statistics. */
static int prepare_sandbox(struct make_state *r)
{
	char *why = NULL;

	if (sandbox_init(&r->sb, r->p->cache, r->p->work, &why) < 0) {
		hb_error("build '%s': %s", r->p->def.name, why);
		free(why);
		return -1;
	}
	r->recipe.sandbox = &r->sb;
	r->modules = hb_path_join(r->p->work, "modules");
	r->recipe.modules_dir = sandbox_path(&r->sb, r->modules);
	r->recipe.ccache_log = r->p->ccache ? sandbox_path(&r->sb, r->ccache_log) : NULL;
	if (mkdir(r->modules, 0755) < 0 || sandbox_give(&r->sb, "modules") < 0 ||
	    (r->p->ccache && sandbox_give_file(&r->sb, "ccache.stats") < 0)) {
		hb_error("build '%s': cannot prepare %s for the build uid: %s", r->p->def.name,
			 r->p->work, strerror(errno));
		return -1;
	}
	return copy_fragments(r);
}

/* After the last make: the work folder is root's again (no file the build uid left is
 * read before), and the modules go where the entry is staged. */
static int take_back(struct make_state *r)
{
	char *staged = hb_path_join(r->p->staging, "modules");
	int rc = 0;

	if (sandbox_take_back(&r->sb) < 0) {
		hb_error("build '%s': cannot take %s back from the build uid: %s", r->p->def.name,
			 r->p->work, strerror(errno));
		rc = -1;
	} else if (rename(r->modules, staged) < 0 && errno != ENOENT) {
		hb_error("cannot move %s to %s: %s", r->modules, staged, strerror(errno));
		rc = -1;
	}
	free(staged);
	return rc;
}

static int start(struct make_state *r)
{
	const struct kernel_plan *p = r->p;

	/* Leftovers of a build that was killed: we hold the slot's lock, they are ours. */
	if (hb_is_dir(p->work))
		make_discard(p, p->work);
	make_remove_owned(p->staging);
	if (hb_mkdir_p(p->work, 0755) < 0 || hb_mkdir_p(p->staging, 0755) < 0) {
		hb_error("cannot create %s or %s: %s", p->work, p->staging, strerror(errno));
		return -1;
	}
	if (p->ccache)
		unlink(r->ccache_log);
	return 0;
}

int kernel_make(const struct kernel_plan *p)
{
	struct make_state r = { .p = p, .t0 = hb_now(), .cpu0 = hb_children_cpu_s() };
	char *label = xasprintf("build %s", p->def.name);
	int rc = -1;

	r.copy = hb_path_join(p->work, "src");
	r.obj = hb_path_join(r.copy, RECIPE_OBJ);
	r.log = hb_path_join(p->work, "build.log");
	r.ccache_log = hb_path_join(p->work, "ccache.stats");
	r.recipe = (struct recipe){ .tree = r.copy, .fragments = p->def.fragments, .jobs = p->jobs,
				    .ccache = p->ccache };
	progress_start(&r.progress, label, expected_compiles(p));
	if (start(&r) < 0 || prepare_sandbox(&r) < 0)
		goto out;
	if (prepare_source(&r) < 0) {
		make_fail(&r, "prepare source", 0);
		goto out;
	}
	if (configure(&r) < 0 || compile(&r) < 0 || build_modules(&r) < 0)
		goto out;
	if (take_back(&r) < 0 || make_store(&r) < 0 || make_publish(p) < 0) {
		make_fail(&r, "store", 0);
		goto out;
	}
	make_end_progress_line(&r);
	make_report_success(&r);
	make_discard(p, p->work);
	rc = 0;
out:
	make_free(&r);
	free(label);
	return rc;
}
