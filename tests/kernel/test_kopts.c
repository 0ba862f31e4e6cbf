/* Fragment parsing and merging, and the check that a built .config holds every option a
 * fragment asks for. The .config is a real one: base.config on tinyconfig, 6.1.192,
 * captured from a build (tests/data/kernel/, with the fragment it was built from). */
#include <stdlib.h>

#include "test.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "kernel/kopts.h"

TEST(parse_and_merge)
{
	struct kopt_list l = { 0 };
	const char *base = "# a comment\n\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=64\n"
			   "CONFIG_S=\"x y\"\n  CONFIG_T=m  \n";
	const char *later = "CONFIG_A=m\nCONFIG_B=y\n# CONFIG_C is not set\n";

	CHECK(kopts_parse(&l, base, "base") == 0);
	CHECK(l.n == 5);
	CHECK_STR(kopts_get(&l, "CONFIG_A"), "y");
	CHECK_STR(kopts_get(&l, "CONFIG_B"), "n");
	CHECK_STR(kopts_get(&l, "CONFIG_C"), "64");
	CHECK_STR(kopts_get(&l, "CONFIG_S"), "\"x y\"");
	CHECK_STR(kopts_get(&l, "CONFIG_T"), "m");
	CHECK(kopts_get(&l, "CONFIG_NONE") == NULL);
	/* merge_config.sh's rule: the later fragment wins, and no option appears twice. */
	CHECK(kopts_parse(&l, later, "later") == 0);
	CHECK(l.n == 5);
	CHECK_STR(kopts_get(&l, "CONFIG_A"), "m");
	CHECK_STR(kopts_get(&l, "CONFIG_B"), "y");
	CHECK_STR(kopts_get(&l, "CONFIG_C"), "n");
	kopts_free(&l);
}

TEST(malformed_lines)
{
	const char *bad[] = { "CONFIG_A=y\nKASAN=y\n", "CONFIG_=y\n", "CONFIG_A\n", "CONFIG_A=\n",
			      "config A\n", NULL };

	for (size_t i = 0; bad[i]; i++) {
		struct kopt_list l = { 0 };
		CHECK(kopts_parse(&l, bad[i], "bad") == -1);
		kopts_free(&l);
	}
}

static bool has_line(char **lines, const char *text)
{
	for (size_t i = 0; lines[i]; i++)
		if (strstr(lines[i], text))
			return true;
	return false;
}

static void check_verify_real_config(const char *data, int *failures)
{
	char *config = xasprintf("%s/base-6.1.192.config", data);
	char *fragment = xasprintf("%s/base-6.1.192.fragment", data);
	struct kopt_list have = { 0 }, want = { 0 }, extra = { 0 };
	char **bad;

	CHECK(kopts_load(&have, config) == 0);
	CHECK(have.n > 300);
	CHECK(kopts_load(&want, fragment) == 0);
	CHECK(want.n > 50);
	/* The fragment this .config was built from holds in it. */
	bad = kopts_verify(&want, &have);
	CHECK(hb_strv_len(bad) == 0);
	for (size_t i = 0; bad[i]; i++)
		fprintf(stderr, "  unexpected: %s\n", bad[i]);
	hb_free_strv(bad);

	/* Asks that olddefconfig really drops or overrides on this base:
	 * KASAN_VMALLOC depends on KASAN (off): absent; NR_CPUS is 64; SLUB is on. */
	CHECK(kopts_parse(&extra, "CONFIG_KASAN_VMALLOC=y\nCONFIG_NR_CPUS=128\n"
				  "# CONFIG_SLUB is not set\n# CONFIG_KASAN is not set\n"
				  "CONFIG_SMP=y\n", "extra") == 0);
	bad = kopts_verify(&extra, &have);
	CHECK(hb_strv_len(bad) == 3);
	CHECK(has_line(bad, "CONFIG_KASAN_VMALLOC: asked y, got absent"));
	CHECK(has_line(bad, "CONFIG_NR_CPUS: asked 128, got 64"));
	CHECK(has_line(bad, "CONFIG_SLUB: asked not set, got y"));
	CHECK(!has_line(bad, "CONFIG_KASAN:"));
	CHECK(!has_line(bad, "CONFIG_SMP"));
	hb_free_strv(bad);
	kopts_free(&extra);
	kopts_free(&want);
	kopts_free(&have);
	free(fragment);
	free(config);
}

/* On DATA_DIR's real .config of the base build and the fragment it was built from. */
TEST(verify_real_config)
{
	const char *data = test_arg(failures, t, 1);

	if (data)
		check_verify_real_config(data, failures);
}

TEST_MAIN()
