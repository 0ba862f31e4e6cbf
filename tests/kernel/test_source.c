/* Source handling on a tiny tree: tarball identity and its memo, extraction into a
 * read-only shared tree, hard-link copies, and patches that change the copy but never the
 * shared tree (GNU patch replaces files; it does not write through the hard link). */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "kernel/source.h"
#include "test.h"
#include "common/spawn.h"
#include "kconfigs_fixture.h"

static const char patch_text[] =
	"From 0000 Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH] change a.c\n\n"
	"The idea, as a commit message would say it.\n---\n"
	"diff --git a/mm/a.c b/mm/a.c\n"
	"--- a/mm/a.c\n+++ b/mm/a.c\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	"-- \n2.39.5\n";

static ino_t inode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_mode : 0;
}

/* The one file in dir (the memo of the one tarball identified so far). */
static char *only_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && !found)
			found = hb_path_join(dir, e->d_name);
	if (d)
		closedir(d);
	if (!found)
		hb_fatal("no memo file in %s", dir);
	return found;
}

static char *make_tarball(const char *tmp)
{
	char *mk = hb_path_join(tmp, "mk");
	char *tarball = hb_path_join(tmp, "linux-x.tar.xz");
	char *argv[] = { "tar", "-cJf", tarball, "-C", mk, "linux-x", NULL };

	fixture_write(mk, "linux-x/Makefile", "all:\n");
	fixture_write(mk, "linux-x/Kconfig", "config A\n\tbool\n");
	fixture_write(mk, "linux-x/mm/a.c", "one\ntwo\nthree\n");
	if (hb_run(argv, NULL) != 0)
		hb_fatal("cannot create %s", tarball);
	free(mk);
	return tarball;
}

static void check_tarball_identity(const char *tarball, const char *cache, int *failures)
{
	struct ksource a, b;
	char *memo_dir = xasprintf("%s/src/ids", cache);

	CHECK(ksource_identify(tarball, cache, &a) == 0);
	CHECK(a.is_tarball);
	CHECK(!strncmp(a.identity, "tarball:", 8) && strlen(a.identity) == 8 + 64);
	CHECK(!strncmp(a.label, "linux-x-", 8));
	CHECK(hb_is_dir(memo_dir));
	CHECK(ksource_identify(tarball, cache, &b) == 0);
	CHECK_STR(a.identity, b.identity);
	ksource_free(&b);

	/* The memo is trusted while size and mtime match (so a hit need not reread the
	 * tarball), and ignored once the file's mtime changes. */
	{
		char *memo = only_file(memo_dir);
		char *text = hb_read_file(memo, NULL);
		char *fake = xstrdup(text);

		memset(strrchr(fake, ' ') + 1, 'f', 64);
		hb_write_file_atomic(memo, fake, strlen(fake));
		CHECK(ksource_identify(tarball, cache, &b) == 0);
		CHECK(strstr(b.identity, "ffffffffffffffff") != NULL);
		ksource_free(&b);
		sleep(1);
		utime(tarball, NULL);
		CHECK(ksource_identify(tarball, cache, &b) == 0);
		CHECK_STR(b.identity, a.identity);
		ksource_free(&b);
		free(fake);
		free(text);
		free(memo);
	}
	ksource_free(&a);
	free(memo_dir);
}

static void check_extract_copy_patch(const char *tmp, const char *tarball, const char *cache,
				    int *failures)
{
	struct ksource s;
	char *work = hb_path_join(tmp, "work");
	char *shared, *copy = hb_path_join(tmp, "work/src");
	char *patch = hb_path_join(tmp, "0001-change.patch");
	char *patches[] = { patch, NULL };
	char *log = hb_path_join(tmp, "patch.log");
	char *shared_a, *copy_a, *text;

	fixture_write(tmp, "0001-change.patch", patch_text);
	CHECK(ksource_identify(tarball, cache, &s) == 0);
	shared = ksource_shared_tree(&s, cache);
	CHECK(shared != NULL);
	if (!shared)
		return;
	shared_a = hb_path_join(shared, "mm/a.c");
	copy_a = hb_path_join(copy, "mm/a.c");
	CHECK(hb_is_file(shared_a));
	CHECK((mode_of(shared_a) & 0222) == 0);
	CHECK((mode_of(shared) & 0222) == 0);

	CHECK(hb_mkdir_p(work, 0755) == 0);
	CHECK(ksource_copy(shared, copy) == 0);
	CHECK(inode_of(shared_a) == inode_of(copy_a));
	CHECK((mode_of(copy) & 0200) != 0);

	CHECK(ksource_apply_patches(copy, patches, log) == 0);
	text = hb_read_file(copy_a, NULL);
	CHECK_STR(text, "one\nTWO\nthree\n");
	free(text);
	text = hb_read_file(shared_a, NULL);
	CHECK_STR(text, "one\ntwo\nthree\n");
	free(text);
	CHECK(inode_of(shared_a) != inode_of(copy_a));
	/* Applying it again must fail, not silently reverse it. */
	CHECK(ksource_apply_patches(copy, patches, log) == -1);

	free(shared_a);
	free(copy_a);
	free(shared);
	free(log);
	free(patch);
	free(copy);
	free(work);
	ksource_free(&s);
}

static void check_tree_identity(const char *tmp, const char *cache, int *failures)
{
	char *tree = hb_path_join(tmp, "tree");
	struct ksource a, b;

	fixture_write(tree, "Makefile", "all:\n");
	CHECK(ksource_identify(tree, cache, &a) == 0);
	CHECK(!a.is_tarball && !strncmp(a.identity, "tree:", 5));
	fixture_write(tree, "Makefile", "all: more\n");
	CHECK(ksource_identify(tree, cache, &b) == 0);
	CHECK(strcmp(a.identity, b.identity) != 0);
	ksource_free(&a);
	ksource_free(&b);
	free(tree);
}

/* A git tree keys by HEAD and by its dirty state (a scratch repository of the test's own). */
static void check_git_identity(const char *tmp, const char *cache, int *failures)
{
	char *repo = hb_path_join(tmp, "repo");
	char *init[] = { "git", "init", "-q", repo, NULL };
	char *add[] = { "git", "-C", repo, "add", "f", NULL };
	char *commit[] = { "git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit",
			   "-q", "-m", "m", NULL };
	struct ksource clean, dirty, again;

	if (!hb_have_program("git")) {
		printf("git not installed: git identity not checked\n");
		free(repo);
		return;
	}
	fixture_write(repo, "f", "x\n");
	CHECK(hb_run(init, NULL) == 0 && hb_run(add, NULL) == 0 && hb_run(commit, NULL) == 0);
	CHECK(ksource_identify(repo, cache, &clean) == 0);
	CHECK(!strncmp(clean.identity, "git:", 4));
	fixture_write(repo, "f", "y\n");
	CHECK(ksource_identify(repo, cache, &dirty) == 0);
	CHECK(strcmp(clean.identity, dirty.identity) != 0);
	fixture_write(repo, "f", "x\n");
	CHECK(ksource_identify(repo, cache, &again) == 0);
	CHECK_STR(again.identity, clean.identity);
	/* A folder inside the repository is a plain tree, not the repository's HEAD. */
	{
		char *sub = hb_path_join(repo, "sub");
		struct ksource inner;
		fixture_write(sub, "Makefile", "all:\n");
		CHECK(ksource_identify(sub, cache, &inner) == 0);
		CHECK(!strncmp(inner.identity, "tree:", 5));
		ksource_free(&inner);
		free(sub);
	}
	ksource_free(&clean);
	ksource_free(&dirty);
	ksource_free(&again);
	free(repo);
}

/* Each case: a scratch folder with an empty cache and a tiny tarball. */
struct src {
	char *tmp, *cache, *tarball;
};

static void src_setup(struct src *f)
{
	f->tmp = fixture_tmpdir();
	f->cache = hb_path_join(f->tmp, "cache");
	f->tarball = make_tarball(f->tmp);
	hb_mkdir_p(f->cache, 0755);
}

/* The shared tree is read-only: make it writable again to remove it. */
static void src_drop(struct src *f)
{
	char *chmod_argv[] = { "chmod", "-R", "u+w", f->tmp, NULL };

	hb_run(chmod_argv, NULL);
	fixture_drop(f->tmp);
	free(f->tarball);
	free(f->cache);
}

TEST(tarball_identity)
{
	struct src f;

	src_setup(&f);
	check_tarball_identity(f.tarball, f.cache, failures);
	src_drop(&f);
}

TEST(extract_copy_patch)
{
	struct src f;

	src_setup(&f);
	check_extract_copy_patch(f.tmp, f.tarball, f.cache, failures);
	src_drop(&f);
}

/* A tree at the shared path that no complete extraction stamped (planted, or left by a
 * crash) is never built from: it is set aside and the tarball extracted anew. */
static uid_t owner_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_uid : (uid_t)-1;
}

TEST(unstamped_tree_is_not_trusted)
{
	struct src f;
	struct ksource s;
	char *final, *planted, *shared;

	src_setup(&f);
	CHECK(ksource_identify(f.tarball, f.cache, &s) == 0);
	final = ksource_shared_path(&s, f.cache);
	planted = hb_path_join(final, "Makefile");
	CHECK(hb_mkdir_p(final, 0755) == 0);
	fixture_write(final, "Makefile", "all:\n\tplanted\n");
	fixture_write(final, "Kconfig", "");
	CHECK(!ksource_tree_ready(&s, f.cache));
	shared = ksource_shared_tree(&s, f.cache);
	CHECK(shared != NULL);
	CHECK(ksource_tree_ready(&s, f.cache));
	free(planted);
	planted = shared ? hb_path_join(shared, "mm/a.c") : NULL;
	CHECK(planted && hb_is_file(planted)); /* the tarball's tree, not the planted one */
	free(planted);
	free(shared);
	/* An older harness's complete extraction (ours, top folder read-only) is adopted. */
	planted = xasprintf("%s.extracted", final);
	CHECK(unlink(planted) == 0);
	shared = ksource_shared_tree(&s, f.cache);
	CHECK(shared && hb_is_file(planted));
	free(shared);
	/* Someone else's read-only tree is not. */
	CHECK(unlink(planted) == 0 && chown(final, 65534, 65534) == 0);
	shared = ksource_shared_tree(&s, f.cache);
	CHECK(shared && hb_is_file(planted));
	CHECK(shared && owner_of(shared) == geteuid());
	free(shared);
	free(planted);
	free(final);
	ksource_free(&s);
	src_drop(&f);
}

TEST(tree_identity)
{
	struct src f;

	src_setup(&f);
	check_tree_identity(f.tmp, f.cache, failures);
	src_drop(&f);
}

TEST(git_identity)
{
	struct src f;

	src_setup(&f);
	check_git_identity(f.tmp, f.cache, failures);
	src_drop(&f);
}

TEST_MAIN()
