/* adhoc/series: real git format-patch output, an archive mbox made of it (lore's mboxrd
 * "From " lines, arrival order, a cover letter and a reply), and bad inputs. */
#include "configs/series.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

static char *data(struct test_state *t, int *failures, const char *name)
{
	return hb_path_join(test_arg(failures, t, 1), name);
}

TEST(archive_mbox_skips_cover_and_reply_and_orders_by_number)
{
	char *path = data(t, failures, "archive.mbox"), *why = NULL;
	struct series s;

	CHECK(series_load((char *[]){ path, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 2);
	if (s.n == 2) {
		CHECK_STR(s.patches[0].subject, "af_unix: set b");
		CHECK_STR(s.patches[1].subject, "af_unix: set f, which depends on b");
		CHECK_HAS(s.patches[0].origin, "(mail 4)");
		CHECK_HAS(s.patches[1].text, "+int f = 2;");
		CHECK(!strstr(s.patches[1].text, "How many cores"), "the reply is not part of patch 2");
		char *file = series_file_name(&s, 1);
		CHECK_STR(file, "0002-af-unix-set-f-which-depends-on-b.patch");
		free(file);
	}
	series_free(&s);
	free(path);
}

TEST(format_patch_folder_and_files_in_order)
{
	char *dir = data(t, failures, "format-patch"), *why = NULL;
	char *one = hb_path_join(dir, "0001-af_unix-set-b.patch");
	char *two = hb_path_join(dir, "0002-af_unix-set-f-which-depends-on-b.patch");
	struct series s;

	CHECK(series_load((char *[]){ dir, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 2 && s.patches[0].number == 1 && s.patches[1].number == 2);
	CHECK(s.n == 2 && !strcmp(s.patches[0].origin, one), "origin is the file itself");
	series_free(&s);
	/* Given backwards, numbered patches still apply in their order. */
	CHECK(series_load((char *[]){ two, one, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 2 && !strcmp(s.patches[0].subject, "af_unix: set b"));
	series_free(&s);
	free(one);
	free(two);
	free(dir);
}

TEST(concatenated_format_patch_files_split_without_blank_line)
{
	char *one = data(t, failures, "format-patch/0001-af_unix-set-b.patch");
	char *two = data(t, failures, "format-patch/0002-af_unix-set-f-which-depends-on-b.patch");
	char *a = hb_read_file(one, NULL), *b = hb_read_file(two, NULL), *why = NULL;
	char *joined = xasprintf("%.*s%s", (int)(strlen(a) - 1), a, b); /* drop git's last blank line */
	struct series s = { 0 };

	CHECK(series_split_mbox("cat.mbox", joined, &s, &why) == 0, "%s", why);
	CHECK(s.n == 2);
	series_free(&s);
	free(joined);
	free(a);
	free(b);
	free(one);
	free(two);
}

TEST(missing_duplicate_and_non_patch_inputs_are_refused)
{
	char *dir = scratch_dir(), *why = NULL;
	char *two = data(t, failures, "format-patch/0002-af_unix-set-f-which-depends-on-b.patch");
	char *notes = hb_path_join(dir, "notes.txt"), *none = hb_path_join(dir, "absent.patch");
	struct series s;

	scratch_write(dir, "notes.txt", "From me\nSubject: numbers\n\nhackbench was 7% slower.\n");
	CHECK(series_load((char *[]){ notes, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "no patch in it");
	free(why);
	CHECK(series_load((char *[]){ none, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "absent.patch: cannot read");
	free(why);
	CHECK(series_load((char *[]){ two, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "patch 1 of the series is missing");
	free(why);
	CHECK(series_load((char *[]){ two, two, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "patch 1 of the series is missing");
	free(why);
	CHECK(series_load((char *[]){ dir, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "a folder without *.patch files");
	free(why);
	scratch_write(dir, "qp.patch", "From a\nSubject: [PATCH] x\nContent-Transfer-Encoding: "
		      "quoted-printable\n\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b=3D\n");
	char *qp = hb_path_join(dir, "qp.patch");
	CHECK(series_load((char *[]){ qp, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "quoted-printable encoded");
	free(why);
	free(qp);
	hb_remove_tree(dir);
	free(dir);
	free(notes);
	free(none);
	free(two);
}

TEST(names_from_subjects)
{
	char *n = series_name_from_subject("net: unix: Clear skbs!");
	CHECK_STR(n, "net-unix-clear-skbs");
	free(n);
	n = series_name_from_subject("[[[ ]]]");
	CHECK_STR(n, "patch");
	free(n);
	n = series_name_from_subject("a very long subject line that goes on and on past forty characters");
	CHECK(strlen(n) <= 40 && n[strlen(n) - 1] != '-');
	free(n);
	/* 40 characters end inside "a": cut at the word before. */
	n = series_name_from_subject("af_unix: clear each stream skb once more (a known cost)");
	CHECK_STR(n, "af-unix-clear-each-stream-skb-once-more");
	free(n);
}

TEST_MAIN()
