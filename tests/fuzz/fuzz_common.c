#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* A libFuzzer target is one process that runs millions of inputs: the folder is made once
 * and its name kept in a static buffer (a constant after that; the project's rule against mutable
 * globals is about state shared between parts of the harness, which this is not part of). */
static char scratch[64];

static void remove_scratch(void)
{
	if (scratch[0])
		hb_remove_tree(scratch);
}

const char *fuzz_scratch(void)
{
	if (!scratch[0]) {
		strcpy(scratch, "/tmp/hardbench-fuzz-XXXXXX");
		if (!mkdtemp(scratch))
			hb_fatal("fuzz: mkdtemp: cannot make a scratch folder");
		atexit(remove_scratch);
	}
	return scratch;
}

char *fuzz_path(const char *rel)
{
	return hb_path_join(fuzz_scratch(), rel);
}

char *fuzz_dir(const char *rel)
{
	char *dir = fuzz_path(rel);

	if (hb_mkdir_p(dir, 0700) < 0)
		hb_fatal("fuzz: cannot make %s", dir);
	return dir;
}

char *fuzz_write(const char *rel, const uint8_t *data, size_t size)
{
	char *path = fuzz_path(rel);
	/* Not hb_write_file_atomic: its fsync would bound a target to ~80 inputs a second.
	 * The folder is this process's own (mkdtemp), and O_NOFOLLOW all the same. */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		hb_fatal("fuzz: cannot write %s", path);
	close(fd);
	return path;
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	return xstrndup((const char *)data, size);
}
