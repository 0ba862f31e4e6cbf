#include "common/tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

#define TMP_ROOT "/tmp"
#define OWNER_FILE "OWNER"

/* Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces);
 * 0 when unknown. */
static unsigned long long start_time(long pid)
{
	char path[64], *text, *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	text = hb_read_file(path, NULL);
	p = text ? strrchr(text, ')') : NULL;
	/* After ")": state is field 3, so the start time is the 20th word from here. */
	for (int field = 2; p && *p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	free(text);
	return t;
}

char *hb_mkdtemp_owned(const char *prefix)
{
	char *dir = xasprintf("%s/%sXXXXXX", TMP_ROOT, prefix);
	char *owner, *text;
	int e;

	if (!mkdtemp(dir)) {
		e = errno;
		free(dir);
		errno = e;
		return NULL;
	}
	owner = hb_path_join(dir, OWNER_FILE);
	text = xasprintf("%ld %llu\n", (long)getpid(), start_time((long)getpid()));
	if (hb_write_file_atomic(owner, text, strlen(text)) < 0)
		hb_warn("cannot write %s: %s", owner, strerror(errno));
	free(text);
	free(owner);
	return dir;
}

/* True when the OWNER file names a process that no longer exists. */
static bool owner_gone(const char *dir)
{
	char *path = hb_path_join(dir, OWNER_FILE);
	char *text = hb_read_file(path, NULL);
	long pid = 0;
	unsigned long long t0 = 0, now;
	bool gone = false;

	if (text && sscanf(text, "%ld %llu", &pid, &t0) >= 1 && pid > 0) {
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			gone = true;
		else if (t0 && (now = start_time(pid)) && now != t0)
			gone = true; /* the pid was reused by another process */
	}
	free(text);
	free(path);
	return gone;
}

int hb_clean_stale_tmp(const char *prefix)
{
	DIR *d = opendir(TMP_ROOT);
	struct dirent *e;
	int removed = 0;

	while (d && (e = readdir(d))) {
		char *dir;
		if (strncmp(e->d_name, prefix, strlen(prefix)) || e->d_type != DT_DIR)
			continue;
		dir = hb_path_join(TMP_ROOT, e->d_name);
		if (owner_gone(dir) && hb_remove_tree(dir) == 0)
			removed++;
		free(dir);
	}
	if (d)
		closedir(d);
	return removed;
}

void hb_clean_stale_vm_tmp(void)
{
	int n = hb_clean_stale_tmp(HB_TMP_VM) + hb_clean_stale_tmp(HB_TMP_PROBE) +
		hb_clean_stale_tmp(HB_TMP_CONFIGS);

	if (n > 0)
		hb_info("removed %d temporary folder(s) of harness processes that are gone "
			"(%s/%s*, %s/%s*, %s/%s*)", n, TMP_ROOT, HB_TMP_VM, TMP_ROOT, HB_TMP_PROBE,
			TMP_ROOT, HB_TMP_CONFIGS);
}
