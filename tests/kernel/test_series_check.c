/* adhoc/apply_check: the real patch(1) on a tiny tree (tests/data/adhoc/tree, the first
 * commit of the repository that made format-patch/ and archive.mbox). */
#include "kernel/series_check.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

static int check_series(struct test_state *t, int *failures, struct series *s, char **why)
{
	char *tree = hb_path_join(test_arg(failures, t, 1), "tree"), *scratch = scratch_dir();
	int rc = series_check_applies(s, tree, scratch, why);
	char *patched = scratch_read(scratch, "net/unix/af_unix.c");
	char *original = scratch_read(tree, "net/unix/af_unix.c");

	CHECK(original && !strstr(original, "int b = 1;"), "the tree itself is untouched");
	CHECK(rc != 0 || (patched && strstr(patched, "int b = 1;") && strstr(patched, "int f = 2;")),
	      "both patches applied to the scratch copy");
	free(patched);
	free(original);
	hb_remove_tree(scratch);
	free(scratch);
	free(tree);
	return rc;
}

static int load_mbox(struct test_state *t, int *failures, struct series *s)
{
	char *path = hb_path_join(test_arg(failures, t, 1), "archive.mbox"), *why = NULL;
	int rc = series_load((char *[]){ path, NULL }, s, &why);

	CHECK(rc == 0, "%s", why);
	free(path);
	return rc;
}

TEST(series_from_the_archive_applies_in_number_order)
{
	struct series s;
	char *why = NULL;

	if (load_mbox(t, failures, &s) < 0)
		return;
	CHECK(check_series(t, failures, &s, &why) == 0, "%s", why);
	series_free(&s);
}

TEST(damaged_hunk_is_named_with_its_file)
{
	struct series s;
	char *why = NULL, *line;

	if (load_mbox(t, failures, &s) < 0)
		return;
	/* One context line of patch 2 no longer matches the tree. */
	line = strstr(s.patches[1].text, "\n int e;\n");
	CHECK(line != NULL);
	if (line)
		line[6] = 'E';
	CHECK(check_series(t, failures, &s, &why) == -1);
	CHECK_HAS(why, "archive.mbox (mail 2): patch 2/2 'af_unix: set f, which depends on b' does not apply");
	CHECK_HAS(why, "hunk #1 FAILED at 3 in net/unix/af_unix.c");
	CHECK(why && !strchr(why, '\n'), "one line");
	free(why);
	series_free(&s);
}

TEST(paths_leaving_the_tree_are_refused)
{
	char *why = NULL;
	char **files = series_patch_files("--- a/../../etc/passwd\n+++ b/../../etc/passwd\n", &why);

	CHECK(files == NULL);
	CHECK_HAS(why, "'../../etc/passwd', which is outside the kernel tree");
	free(why);
	files = series_patch_files("--- /dev/null\n+++ b/include/new.h\n--- a/x.c\n+++ b/x.c\n", &why);
	CHECK(files && hb_strv_len(files) == 2 && !strcmp(files[0], "include/new.h"));
	hb_free_strv(files);
}

TEST_MAIN()
