/* Stale temporary folders: those of a process that is gone are removed, the others not. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"
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
	char *bare = xasprintf("/tmp/%sbare", pre);

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

TEST_MAIN()
