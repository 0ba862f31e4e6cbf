/* adhoc/gitrange: --kernels PATH@A..B expanded into its commits, on small real git
 * repositories made here, and the ranges it refuses (empty, a merge in it, a dirty tree,
 * A not below B, ends missing). */
#include "adhoc/gitrange.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

/* git -C repo ARGS... (NULL-terminated) with a fixed identity; its output, first line
 * trimmed (NULL when git fails). */
static char *git(const char *repo, ...)
{
	struct hb_strv argv = { 0 };
	const char *fixed[] = { "git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid",
				"-c", "init.defaultBranch=main", "-c", "commit.gpgSign=false" };
	va_list ap;
	char *out;
	int rc = -1;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		hb_strv_push(&argv, xstrdup(fixed[i]));
	va_start(ap, repo);
	for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
		hb_strv_push(&argv, xstrdup(a));
	va_end(ap);
	out = hb_run_capture_quiet(argv.v, &rc);
	hb_free_strv(argv.v);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}

/* A commit of file f with text, subject msg; its id. */
static char *commit(const char *repo, const char *f, const char *text, const char *msg)
{
	scratch_write(repo, f, text);
	free(git(repo, "add", f, NULL));
	free(git(repo, "commit", "-q", "-m", msg, NULL));
	return git(repo, "rev-parse", "HEAD", NULL);
}

/* A repository with commits "zero" (c[0]) to "three" (c[3]) on main, one file each. */
static char *repo_of_four(char *c[4])
{
	char *dir = scratch_dir(), *repo = hb_path_join(dir, "linux");
	static const char *const names[] = { "zero", "one", "two", "three" };

	free(dir);
	if (hb_mkdir_p(repo, 0755) < 0)
		hb_fatal("mkdir %s", repo);
	free(git(repo, "init", "-q", NULL));
	for (int i = 0; i < 4; i++) {
		char *f = xasprintf("f%d.c", i), *text = xasprintf("int x%d;\n", i);
		c[i] = commit(repo, f, text, names[i]);
		if (!c[i])
			hb_fatal("git commit %s failed", names[i]);
		free(f);
		free(text);
	}
	return repo;
}

static void drop(char *repo, char *c[4])
{
	char *dir = xstrdup(repo);

	*strrchr(dir, '/') = '\0';
	hb_remove_tree(dir);
	free(dir);
	free(repo);
	for (int i = 0; i < 4; i++)
		free(c[i]);
}

/* repo@range is refused, the item named and the reason holding want. */
static void refused(int *failures, const char *repo, const char *range, const char *want)
{
	char *item = xasprintf("%s%s", repo, range), *why = NULL;
	struct gitrange r;

	CHECK(gitrange_is_spec(item));
	CHECK(gitrange_resolve(item, &r, &why) == -1, "%s accepted", item);
	CHECK_HAS(why, item);
	CHECK_HAS(why, want);
	free(why);
	free(item);
}

TEST(a_range_is_its_commits_in_order)
{
	char *c[4], *repo = repo_of_four(c), *why = NULL;
	char *item = xasprintf("%s@HEAD~3..main", repo);
	struct gitrange r;

	CHECK(gitrange_is_spec(item));
	CHECK(gitrange_resolve(item, &r, &why) == 0, "%s", why);
	CHECK_STR(r.base.commit, c[0]);
	CHECK(r.n == 3, "%zu steps", r.n);
	for (size_t k = 0; k < r.n && k < 3; k++) {
		char *want = xasprintf("main.%zu-%.7s", k + 1, c[k + 1]);
		CHECK_STR(r.steps[k].commit, c[k + 1]);
		CHECK_STR(r.steps[k].line, want);
		free(want);
	}
	if (r.n == 3) {
		CHECK_STR(r.subjects[0], "one");
		CHECK_STR(r.subjects[2], "three");
	}
	char *base_line = xasprintf("head-3-%.7s", c[0]);
	CHECK_STR(r.base.line, base_line);
	free(base_line);
	gitrange_free(&r);
	free(item);
	/* One commit is a range of one step. */
	item = xasprintf("%s@HEAD~1..HEAD", repo);
	CHECK(gitrange_resolve(item, &r, &why) == 0, "%s", why);
	CHECK(r.n == 1 && !strcmp(r.steps[0].commit, c[3]));
	gitrange_free(&r);
	free(item);
	drop(repo, c);
}

TEST(an_empty_range_is_refused)
{
	char *c[4], *repo = repo_of_four(c);

	refused(failures, repo, "@HEAD..HEAD", "no commit in HEAD..HEAD");
	/* B below A: A is not its ancestor (the range would be empty as well). */
	refused(failures, repo, "@HEAD..HEAD~2", "HEAD is not an ancestor of HEAD~2");
	drop(repo, c);
}

TEST(a_merge_in_the_range_is_refused)
{
	char *c[4], *repo = repo_of_four(c), *why = NULL, *item, *side;
	struct gitrange r;

	/* A side branch from "one", merged into main after "three". */
	free(git(repo, "checkout", "-q", "-b", "side", c[1], NULL));
	side = commit(repo, "side.c", "int side;\n", "side work");
	free(git(repo, "checkout", "-q", "main", NULL));
	free(git(repo, "merge", "-q", "--no-ff", "-m", "Merge branch side", "side", NULL));
	CHECK(side != NULL);
	/* HEAD~1 is "three": side and the merge on top of it. */
	refused(failures, repo, "@HEAD~1..HEAD", "'Merge branch side' is a merge");
	/* The range up to the merge's first parent is a line of commits. */
	item = xasprintf("%s@HEAD~3..HEAD^1", repo);
	CHECK(gitrange_resolve(item, &r, &why) == 0, "%s", why);
	CHECK(r.n == 2);
	gitrange_free(&r);
	free(item);
	free(side);
	drop(repo, c);
}

TEST(a_dirty_tree_is_refused)
{
	char *c[4], *repo = repo_of_four(c);

	scratch_write(repo, "f1.c", "int changed;\n");
	refused(failures, repo, "@HEAD~2..HEAD", "has uncommitted changes");
	drop(repo, c);
}

TEST(ends_missing_or_three_dots)
{
	char *c[4], *repo = repo_of_four(c);

	refused(failures, repo, "@..HEAD", "expected both ends of A..B");
	refused(failures, repo, "@HEAD..", "expected both ends of A..B");
	refused(failures, repo, "@HEAD~1...HEAD", "expected both ends of A..B");
	/* An unknown end is named as in the range given. */
	refused(failures, repo, "@nosuch..HEAD", "no commit 'nosuch'");
	CHECK(!gitrange_is_spec("6.1") && !gitrange_is_spec("/x/linux@HEAD"));
	drop(repo, c);
}

TEST_MAIN()
