/* Scratch folders and files for the C unit tests. */
#ifndef HB_TESTS_COMMON_SCRATCH_H
#define HB_TESTS_COMMON_SCRATCH_H

#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* A fresh folder under /tmp; the caller removes it with hb_remove_tree and frees it. */
static inline char *scratch_dir(void)
{
	char *t = xstrdup("/tmp/hardbench-test-XXXXXX");

	if (!mkdtemp(t))
		hb_fatal("scratch: mkdtemp failed");
	return t;
}

/* Writes text, exactly (no newline added), to dir/name. */
static inline void scratch_write(const char *dir, const char *name, const char *text)
{
	char *path = hb_path_join(dir, name);

	if (hb_write_file_atomic(path, text, strlen(text)) < 0)
		hb_fatal("scratch: cannot write %s", path);
	free(path);
}

/* dir/name's text, or NULL when it cannot be read. */
static inline char *scratch_read(const char *dir, const char *name)
{
	char *path = hb_path_join(dir, name), *text = hb_read_file(path, NULL);

	free(path);
	return text;
}

#endif
