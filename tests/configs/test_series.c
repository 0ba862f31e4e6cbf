/* adhoc/series: real git format-patch output, an archive mbox made of it (lore's mboxrd
 * "From " lines, arrival order, a cover letter and a reply), and bad inputs. */
#include "configs/series.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/hash.h"
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
	/* encoded, and no diff once decoded */
	scratch_write(dir, "qp.patch", "From a\nSubject: [PATCH] x\nContent-Transfer-Encoding: "
		      "quoted-printable\n\nThe numbers: 7=3D7.\n");
	char *qp = hb_path_join(dir, "qp.patch");
	CHECK(series_load((char *[]){ qp, NULL }, &s, &why) == -1);
	CHECK_HAS(why, "qp.patch: the quoted-printable mail holds no unified diff once decoded");
	free(why);
	free(qp);
	hb_remove_tree(dir);
	free(dir);
	free(notes);
	free(none);
	free(two);
}

/* Mails as their senders encoded them, decoded as git am would (GMime): the decoded text
 * names the SHA-256 of the bytes given, so the kernel's cache key still covers them. */
TEST(encoded_mails_are_decoded)
{
	char *dir = scratch_dir(), *why = NULL, *path;
	struct series s;
	/* quoted-printable: "=3D" is "=", a soft line break "=" joins two lines, an encoded-word
	 * subject */
	const char *qp = "From a\nSubject: =?utf-8?q?=5BPATCH=5D_net=3A_set_b?=\nMIME-Version: 1.0\n"
			 "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
			 "Set b.\n---\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b =3D 1; /* a long line, broke=\nn by the mailer */\n";
	/* base64 */
	const char *b64 = "From b\nSubject: [PATCH] set c\nContent-Type: text/plain\n"
			  "Content-Transfer-Encoding: base64\n\nRml4IGl0LgotLS0KLS0tIGEvZgorKysgYi9mCkBAIC0xICsxIEBACi1hCitiID0gMTsK\n";
	/* a multipart whose diff is a base64 attachment */
	const char *multi = "From c\nSubject: [PATCH] set c\nMIME-Version: 1.0\n"
			    "Content-Type: multipart/mixed; boundary=\"XX\"\n\n--XX\nContent-Type: text/plain\n\n"
			    "See the attachment.\n--XX\nContent-Type: application/octet-stream; name=\"c.patch\"\n"
			    "Content-Transfer-Encoding: base64\n\nLS0tIGEvZgorKysgYi9mCkBAIC0xICsxIEBACi1hCitjID0gMjsK\n--XX--\n";
	char hex[HB_SHA256_HEX], *want;

	scratch_write(dir, "qp.patch", qp);
	path = hb_path_join(dir, "qp.patch");
	CHECK(series_load((char *[]){ path, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 1);
	if (s.n == 1) {
		CHECK_STR(s.patches[0].subject, "net: set b");
		CHECK_HAS(s.patches[0].text, "\n+b = 1; /* a long line, broken by the mailer */\n");
		CHECK(!strstr(s.patches[0].text, "=3D") && !strstr(s.patches[0].text, "Content-Transfer-Encoding"),
		      "%s", s.patches[0].text);
		hb_sha256_str(qp, hex);
		want = xasprintf("X-Hardbench-Decoded: quoted-printable; sha256 %s of the mail as given\nFrom a\n", hex);
		CHECK(!strncmp(s.patches[0].text, want, strlen(want)), "%s", s.patches[0].text);
		free(want);
	}
	series_free(&s);
	free(path);

	scratch_write(dir, "b64.patch", b64);
	path = hb_path_join(dir, "b64.patch");
	CHECK(series_load((char *[]){ path, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 1 && strstr(s.patches[0].text, "\n\nFix it.\n---\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b = 1;\n"));
	series_free(&s);
	free(path);

	scratch_write(dir, "multi.patch", multi);
	path = hb_path_join(dir, "multi.patch");
	CHECK(series_load((char *[]){ path, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 1 && strstr(s.patches[0].text, "X-Hardbench-Decoded: multipart;") &&
	      strstr(s.patches[0].text, "\n+c = 2;\n") && !strstr(s.patches[0].text, "See the attachment"));
	series_free(&s);
	free(path);
	hb_remove_tree(dir);
	free(dir);
}

/* b4 am's .mbx: each mail after "From git@z Thu Jan  1 00:00:00 1970", with or without an
 * empty line before it; one of them quoted-printable. */
TEST(b4_mbx)
{
	char *dir = scratch_dir(), *why = NULL, *path;
	struct series s;

	scratch_write(dir, "v2_b4.mbx",
		      "From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH v2 1/2] set b\n\n---\n--- a/f\n+++ b/f\n"
		      "@@ -1 +1 @@\n-a\n+b\n-- \n2.39.5\n"
		      "From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH v2 2/2] set c\n"
		      "Content-Transfer-Encoding: quoted-printable\n\n---\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-a\n+c =3D 3\n");
	path = hb_path_join(dir, "v2_b4.mbx");
	CHECK(series_load((char *[]){ path, NULL }, &s, &why) == 0, "%s", why);
	CHECK(s.n == 2);
	if (s.n == 2) {
		CHECK_STR(s.patches[0].subject, "set b");
		CHECK(!strstr(s.patches[0].text, "set c"), "%s", s.patches[0].text);
		CHECK_STR(s.patches[1].subject, "set c");
		CHECK_HAS(s.patches[1].text, "+c = 3\n");
	}
	series_free(&s);
	free(path);
	hb_remove_tree(dir);
	free(dir);
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
