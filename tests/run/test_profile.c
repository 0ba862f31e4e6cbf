/* --profile's reading of the plugin's output (run/profile.c) on a captured real one
 * (tests/data/profile/): its sections and their invariant (the f lines sum to the
 * section's instructions), and what a broken copy gets: the line that is not of the
 * format; a section cut by QEMU's end is dropped, not half kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "run/profile.h"
#include "scratch.h"
#include "test.h"

static char *captured(struct test_state *t)
{
	char *path = hb_path_join(t->argv[1], "boot-true.profile.txt"), *text;
	size_t len;

	text = hb_read_file(path, &len);
	free(path);
	return text;
}

/* A scratch folder holding text as profile.txt. */
static char *folder_with(const char *text)
{
	char *d = scratch_dir();
	scratch_write(d, PROFILE_RAW_NAME, text);
	return d;
}

static void replace_once(char **text, const char *from, const char *to)
{
	char *at = strstr(*text, from), *out;

	if (!at)
		abort();
	out = xasprintf("%.*s%s%s", (int)(at - *text), *text, to, at + strlen(from));
	free(*text);
	*text = out;
}

TEST(the_captured_profile_reads_as_two_whole_sections)
{
	char *text = captured(t), *d = text ? folder_with(text) : NULL, *why = NULL;
	struct cell_profile *p = d ? cell_profile_read(d, &why) : NULL;

	CHECK(text != NULL);
	CHECK(p != NULL, "%s", why ? why : "");
	CHECK(cell_profile_sections(p) == 2);
	CHECK(cell_profile_section_insns(p, 0) == 2322176);
	CHECK(cell_profile_section_insns(p, 1) == 1485133);
	cell_profile_free(p);
	if (d)
		hb_remove_tree(d);
	free(d);
	free(text);
}

TEST(a_count_that_breaks_the_sum_is_refused_with_its_line)
{
	char *text = captured(t), *d, *why = NULL;

	if (!text)
		return;
	replace_once(&text, "section 1 marker 0 insns 1485133", "section 1 marker 0 insns 1485134");
	d = folder_with(text);
	CHECK(cell_profile_read(d, &why) == NULL);
	CHECK_HAS(why, "is not of its format");
	free(why);
	hb_remove_tree(d);
	free(d);
	free(text);
}

TEST(a_section_cut_by_the_end_of_qemu_is_dropped)
{
	char *text = captured(t), *d, *why = NULL, *cut;
	struct cell_profile *p;

	if (!text)
		return;
	cut = strstr(text, "end 1\n");
	CHECK(cut != NULL);
	if (!cut)
		return;
	*cut = '\0'; /* QEMU killed in the middle of the second section */
	d = folder_with(text);
	p = cell_profile_read(d, &why);
	CHECK(p != NULL, "%s", why ? why : "");
	CHECK(cell_profile_sections(p) == 1);
	cell_profile_free(p);
	hb_remove_tree(d);
	free(d);
	free(text);
}

TEST(garbage_and_hostile_names_are_refused)
{
	static const char *const bad[] = {
		"hb-profile 2 symbols 1 vmlinux -\n",                         /* another version */
		"hb-profile 1 symbols 1 vmlinux -\nsection 0 marker 0 insns 1 halts 0\nf 1 a;rm\nend 0\n",
		"hb-profile 1 symbols 1 vmlinux -\nsection 0 marker 300 insns 1 halts 0\n",
		"hb-profile 1 symbols 1 vmlinux -\nf 1 outside_a_section\n",
		"hb-profile 1 symbols 1 vmlinux -\nsection 0 marker 0 insns 1 halts 0\nsection 1 marker 0 insns 1 halts 0\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *d = folder_with(bad[i]), *why = NULL;
		struct cell_profile *p = cell_profile_read(d, &why);
		CHECK(p == NULL, "case %zu read", i);
		cell_profile_free(p);
		free(why);
		hb_remove_tree(d);
		free(d);
	}
}

TEST(no_file_says_so)
{
	char *d = scratch_dir(), *why = NULL;

	CHECK(cell_profile_read(d, &why) == NULL);
	CHECK_HAS(why, "no profile");
	free(why);
	hb_remove_tree(d);
	free(d);
}

TEST_MAIN()
