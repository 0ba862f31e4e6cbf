/* --dry-run: what a build would do, printed from the same recipe the build runs. */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "kernel/cachekey.h"
#include "configs/extmod.h"
#include "kernel/plan.h"
#include "kernel/recipe.h"
#include "common/argparse.h"
#include "common/paths.h"
#include "common/unpriv.h"
#include "common/xalloc.h"
#include "kernel/kopts.h"

static void print_argv(FILE *f, char *const *argv)
{
	char *line = recipe_render(argv);
	fprintf(f, "  $ %s\n", line);
	free(line);
}

static void print_env(FILE *f, const struct recipe *r)
{
	char **env = recipe_env(r);
	char *line = recipe_render(env);

	fprintf(f, "  environment of every step: %s\n", line);
	free(line);
	hb_free_strv(env);
}

static void print_source_steps(const struct kernel_plan *p, const char *copy, bool unpriv, FILE *f)
{
	char *shared = ksource_shared_path(&p->src, p->cache);

	if (!ksource_tree_ready(&p->src, p->cache))
		fprintf(f, "  extract %s into %s (once, read-only afterwards)\n", p->src.path, shared);
	fprintf(f, "  $ cp -al %s %s\n", shared, copy);
	fprintf(f, "  $ cd %s\n", copy);
	if (p->def.series_missing)
		fprintf(f, "  ERROR: patch folder %s %s\n", p->def.patch_dir,
			hb_is_dir(p->def.patch_dir) ? "has no *.patch files" : "does not exist");
	if (unpriv && p->def.patches[0])
		fprintf(f, "  chown the copy's folders to uid %u; patch runs as it, each patch on its "
			   "standard input:\n", HB_UNPRIV_ID_DEFAULT);
	for (size_t i = 0; p->def.patches[i]; i++) {
		char *argv[] = { "patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch", "-i",
				 p->def.patches[i], NULL };
		if (unpriv) {
			argv[5] = NULL;
			fprintf(f, "  $ patch -p1 --forward --batch --no-backup-if-mismatch < %s\n", p->def.patches[i]);
		} else {
			print_argv(f, argv);
		}
	}
	free(shared);
}

/* The number of options the fragments ask for, as verify will check them. */
static size_t count_options(const struct kernel_plan *p)
{
	struct kopt_list want = { 0 };
	size_t n;

	for (size_t i = 0; p->def.fragments[i]; i++)
		kopts_load(&want, p->def.fragments[i]);
	n = want.n;
	kopts_free(&want);
	return n;
}

/* The out-of-tree modules' steps, after the kernel's modules_install. */
static void print_module_steps(const struct kernel_plan *p, const struct recipe *r,
			       const struct build_sandbox *sb, FILE *f)
{
	for (size_t i = 0; p->def.modules && p->def.modules[i]; i++) {
		char *copy = extmod_work_dir(p->work, p->def.modules[i]);

		fprintf(f, "  module %s: copy the sources of %s to %s\n", extmod_name(p->def.modules[i]),
			p->def.modules[i], copy);
		char *seen = sandbox_path(sb, copy);
		for (int install = 0; install <= 1; install++) {
			char **argv = recipe_module_argv(r, seen, install);
			print_argv(f, argv);
			hb_free_strv(argv);
		}
		free(seen);
		free(copy);
	}
}

/* The fragments as the build reads them: copied into <work>/fragments/ (make.c). */
static char **fragment_copies(const struct kernel_plan *p, const struct build_sandbox *sb)
{
	struct hb_strv v = { 0 };

	hb_strv_push(&v, NULL);
	v.n = 0;
	for (size_t i = 0; p->def.fragments[i]; i++) {
		const char *slash = strrchr(p->def.fragments[i], '/');
		char *host = xasprintf("%s/fragments/%zu-%s", p->work, i,
				       slash ? slash + 1 : p->def.fragments[i]);
		hb_strv_push(&v, sandbox_path(sb, host));
		free(host);
	}
	return v.v;
}

void kernel_print_plan(const struct kernel_plan *p, bool cached, FILE *f)
{
	char *copy = hb_path_join(p->work, "src");
	char *modules = hb_path_join(p->work, "modules");
	char *statslog = hb_path_join(p->work, "ccache.stats");
	struct build_sandbox sb = { .on = geteuid() == 0, .work = p->work };
	char *seen_modules = sandbox_path(&sb, modules), *seen_stats = sandbox_path(&sb, statslog);
	char **frags = fragment_copies(p, &sb);
	struct recipe r = { .tree = copy, .fragments = frags, .jobs = p->jobs, .ccache = p->ccache,
			    .modules_dir = seen_modules, .ccache_log = seen_stats, .sandbox = &sb };

	fprintf(f, "%s: %s (key %.*s) %s\n", p->def.name, cached ? "cached" : "not cached",
		KBUILD_KEY_PREFIX, p->key, p->entry);
	if (!cached) {
		fprintf(f, "  source %s (%s)\n", p->src.path, p->src.identity);
		print_source_steps(p, copy, sb.on, f);
		if (sb.on)
			fprintf(f, "  every make below as uid %u (no account, no groups, no_new_privs; "
				   "kernel/sandbox.h) in a mount namespace where %s is " SANDBOX_WORK
				   " and %s/" SANDBOX_CCACHE_DIR " is " SANDBOX_CCACHE "; the fragments "
				   "copied into %s/fragments/\n", HB_UNPRIV_ID_DEFAULT, p->work, p->cache,
				p->work);
		print_env(f, &r);
		for (enum recipe_step s = STEP_TINYCONFIG; s < STEP_COUNT; s++) {
			char **argv = recipe_argv(&r, s);
			print_argv(f, argv);
			hb_free_strv(argv);
			if (s == STEP_OLDDEFCONFIG)
				fprintf(f, "  verify the %zu options of %zu fragment(s) in %s/.config\n",
					count_options(p), hb_strv_len(p->def.fragments), RECIPE_OBJ);
		}
		print_module_steps(p, &r, &sb, f);
		fprintf(f, "  %sstore bzImage, vmlinux, config, modules/, build.log, manifest.json; "
			   "rename %s to %s\n", sb.on ? "take the work folder back (chown to root), " : "",
			p->staging, p->entry);
	}
	hb_free_strv(frags);
	free(seen_stats);
	free(seen_modules);
	free(statslog);
	free(modules);
	free(copy);
}
