/* Stale temporary folders: those of a process that is gone are removed, the others not;
 * nothing that is not the harness's own (another owner, another mode, a symlink) is
 * touched, and a tree removal follows no symlink. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/paths.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

/* A prefix of this test process, so parallel tests never touch each other's folders. */
static char *prefix(void)
{
	return xasprintf("hardbench-test-tmpdir-%ld-", (long)getpid());
}

/* The folder a child makes before it exits: its owner is then gone. */
static char *orphan_dir(const char *pre)
{
	int fds[2];
	char buf[256] = "";
	pid_t pid;

	if (pipe(fds) < 0)
		return NULL;
	pid = fork();
	if (pid == 0) {
		char *d = hb_mkdtemp_owned(pre);
		if (d) {
			char *f = hb_path_join(d, "sock");
			fclose(fopen(f, "w"));
			(void)!write(fds[1], d, strlen(d));
		}
		_exit(0);
	}
	close(fds[1]);
	(void)!read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return *buf ? xstrdup(buf) : NULL;
}

TEST(removes_only_folders_whose_owner_is_gone)
{
	char *pre = prefix(), *mine = hb_mkdtemp_owned(pre), *orphan = orphan_dir(pre);
	char *root = hb_tmp_root(), *bare = xasprintf("%s/%sbare", root, pre);

	CHECK(mine && orphan);
	CHECK(mkdir(bare, 0700) == 0); /* no OWNER file: being created, or older */
	CHECK(hb_clean_stale_tmp(pre) == 1);
	CHECK(!hb_is_dir(orphan));
	CHECK(hb_is_dir(mine));
	CHECK(hb_is_dir(bare));
	CHECK(hb_clean_stale_tmp(pre) == 0);
	rmdir(bare);
	if (mine) {
		char *owner = hb_path_join(mine, "OWNER");
		unlink(owner);
		rmdir(mine);
		free(owner);
	}
	free(bare);
	free(root);
	free(orphan);
	free(mine);
	free(pre);
}

TEST(a_reused_pid_is_not_an_owner)
{
	char *pre = prefix(), *d = hb_mkdtemp_owned(pre);
	char *owner = d ? hb_path_join(d, "OWNER") : NULL;
	FILE *f = owner ? fopen(owner, "w") : NULL;

	CHECK(f != NULL);
	if (f) { /* this process, with another start time: the pid was reused */
		fprintf(f, "%ld 1\n", (long)getpid());
		fclose(f);
	}
	CHECK(hb_clean_stale_tmp(pre) == 1);
	CHECK(d && !hb_is_dir(d));
	free(owner);
	free(d);
	free(pre);
}

/* A stale folder that another uid owns, or with another mode, is not the harness's. */
TEST(leaves_folders_it_did_not_make)
{
	char *pre = prefix(), *other = orphan_dir(pre), *open_mode = orphan_dir(pre);

	CHECK(other && open_mode);
	CHECK(other && chown(other, 65534, 65534) == 0);
	CHECK(open_mode && chmod(open_mode, 0755) == 0);
	CHECK(hb_clean_stale_tmp(pre) == 0);
	CHECK(other && hb_is_dir(other));
	CHECK(open_mode && hb_is_dir(open_mode));
	CHECK(other && chown(other, 0, 0) == 0 && chmod(other, 0700) == 0);
	CHECK(open_mode && chmod(open_mode, 0700) == 0);
	CHECK(hb_clean_stale_tmp(pre) == 2);
	free(open_mode);
	free(other);
	free(pre);
}

/* A symlink named like a folder, to a stale folder elsewhere: not followed. */
TEST(a_symlinked_entry_is_not_followed)
{
	char *pre = prefix(), *orphan = orphan_dir(pre), *root = hb_tmp_root();
	char *elsewhere = scratch_dir(), *target = hb_path_join(elsewhere, "d");
	char *link = xasprintf("%s/%slink", root, pre);

	CHECK(orphan && rename(orphan, target) == 0);
	CHECK(symlink(target, link) == 0);
	CHECK(hb_clean_stale_tmp(pre) == 0);
	CHECK(hb_is_dir(target));
	unlink(link);
	hb_remove_tree(elsewhere);
	free(link);
	free(target);
	free(elsewhere);
	free(root);
	free(orphan);
	free(pre);
}

/* rm -rf of a tree holding a symlink to a folder removes the link, not what it names. */
TEST(tree_removal_follows_no_symlink)
{
	char *tree = scratch_dir(), *victim = scratch_dir();
	char *sub = hb_path_join(tree, "sub"), *link = hb_path_join(sub, "link");

	scratch_write(victim, "keep", "x");
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(symlink(victim, link) == 0);
	CHECK(hb_remove_tree(tree) == 0);
	CHECK(!hb_is_dir(tree));
	free(link);
	link = scratch_read(victim, "keep");
	CHECK(link && !strcmp(link, "x"));
	hb_remove_tree(victim);
	free(link);
	free(sub);
	free(victim);
	free(tree);
}

/* A root that another user could write to is refused: nothing is made in it. */
TEST(refuses_a_root_others_can_write)
{
	char *run = scratch_dir(), *root = hb_path_join(run, "hardbench");
	const char *saved = getenv("XDG_RUNTIME_DIR");
	char *keep = saved ? xstrdup(saved) : NULL, *d;

	CHECK(mkdir(root, 0777) == 0 && chmod(root, 0777) == 0);
	setenv("XDG_RUNTIME_DIR", run, 1);
	d = hb_mkdtemp_owned("hardbench-test-");
	CHECK(d == NULL);
	CHECK(chmod(root, 0700) == 0);
	free(d);
	d = hb_mkdtemp_owned("hardbench-test-");
	CHECK(d && !strncmp(d, root, strlen(root)));
	if (keep)
		setenv("XDG_RUNTIME_DIR", keep, 1);
	else
		unsetenv("XDG_RUNTIME_DIR");
	hb_remove_tree(run);
	free(d);
	free(keep);
	free(root);
	free(run);
}

/* A temp file planted as a symlink at <path>.tmp.<pid> is not followed. */
TEST(atomic_write_follows_no_planted_temp_file)
{
	char *dir = scratch_dir(), *victim = scratch_dir(), *path = hb_path_join(dir, "f");
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid()), *target = hb_path_join(victim, "v");
	char *text;

	scratch_write(victim, "v", "victim");
	CHECK(symlink(target, tmp) == 0);
	CHECK(hb_write_file_atomic(path, "new", 3) == 0);
	text = scratch_read(victim, "v");
	CHECK(text && !strcmp(text, "victim"));
	free(text);
	text = scratch_read(dir, "f");
	CHECK(text && !strcmp(text, "new"));
	free(text);
	hb_remove_tree(dir);
	hb_remove_tree(victim);
	free(target);
	free(tmp);
	free(path);
	free(victim);
	free(dir);
}

TEST_MAIN()
