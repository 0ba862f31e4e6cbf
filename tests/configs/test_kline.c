/* Kernel lines: a line resolves to its source and fragments, a build loaded for a line
 * stacks them and takes that line's series, a build with no series for a line is
 * refused by name, keys of two lines never collide (the default line's keys are those of
 * before lines), and --source [LINE=]PATH picks the right value. */
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "kernel/cachekey.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"
#include "test.h"
#include "kconfigs_fixture.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

static void check_resolution(const char *root, int *failures)
{
	struct line_def l;
	char *why = NULL, **lines = config_list_lines();

	(void)root;
	CHECK(hb_strv_len(lines) == 2 && !strcmp(lines[0], "6.1") && !strcmp(lines[1], "6.12"));
	hb_free_strv(lines);
	CHECK(config_require_line("6.12", &l, &why) == 0);
	CHECK_STR(l.source, "/src/6.12.tar.xz");
	CHECK(hb_strv_len(l.fragments) == 1 && ends_with(l.fragments[0], "/fragments/l12.config"));
	line_def_free(&l);
	CHECK(config_require_line("7.0", &l, &why) == -1);
	CHECK(why && strstr(why, "unknown kernel line '7.0' (accepted: 6.1, 6.12)"));
	free(why);
	why = NULL;
	CHECK(config_require_line("../lines/6.1", &l, &why) == -1);
	free(why);
}

static void check_build_per_line(const char *root, int *failures)
{
	struct build_def b;
	char *why = NULL;

	(void)root;
	CHECK(config_load_build("patched", &b) == 0);
	CHECK_STR(b.line, HB_DEFAULT_LINE);
	CHECK(hb_strv_len(b.fragments) == 2 && hb_strv_len(b.patches) == 2);
	CHECK(config_check_series(&b, &why) == 0);
	build_def_free(&b);
	/* 6.12: base, the line's fragment, the build's; no series there. */
	CHECK(config_load_build_line("patched", "6.12", &b) == 0);
	CHECK(hb_strv_len(b.fragments) == 3);
	CHECK(ends_with(b.fragments[0], "/base.config") && ends_with(b.fragments[1], "/l12.config") &&
	      ends_with(b.fragments[2], "/extra.config"));
	CHECK(b.patches && !b.patches[0]);
	CHECK(config_check_series(&b, &why) == -1);
	CHECK(why && strstr(why, "build 'patched' has no patch series for kernel line 6.12") &&
	      strstr(why, "patches/patched/6.12 does not exist") && strstr(why, "(lines with a series: 6.1)"));
	free(why);
	build_def_free(&b);
	/* A build with no patches works on every line. */
	CHECK(config_load_build_line("plain", "6.12", &b) == 0);
	CHECK(config_check_series(&b, &(char *){ NULL }) == 0);
	build_def_free(&b);
	CHECK(config_load_build_line("plain", "7.0", &b) == -2);
}

static void key_for(const char *line, const char *source, char key[HB_SHA256_HEX], char **slot)
{
	struct build_def b;

	if (config_load_build_line("plain", line, &b) < 0 ||
	    kernel_cache_key(&b, source, "gcc 12", key) < 0)
		hb_fatal("cannot key plain on %s", line);
	*slot = kernel_slot_name(&b, key);
	build_def_free(&b);
}

static void check_keys(const char *root, int *failures)
{
	char k61[HB_SHA256_HEX], k612[HB_SHA256_HEX], k612s[HB_SHA256_HEX], *s61, *s612, *s612s;

	key_for("6.1", "tarball:aa", k61, &s61);
	key_for("6.12", "tarball:aa", k612, &s612);
	/* Same source: the line alone keeps the keys apart. */
	CHECK(strcmp(k61, k612) != 0);
	CHECK(strncmp(s61, "plain-", 6) == 0 && strlen(s61) == 6 + KBUILD_KEY_PREFIX);
	CHECK(strncmp(s612, "plain-6.12-", 11) == 0);
	/* Without the line's fragment, the 6.12 key still differs (the line is hashed). */
	fixture_write(root, "kernel-configs/lines/6.12.line", "[line]\nsource = /s\n");
	key_for("6.12", "tarball:aa", k612s, &s612s);
	CHECK(strcmp(k61, k612s) != 0 && strcmp(k612, k612s) != 0);
	free(s61);
	free(s612);
	free(s612s);
}

static void check_sources(const char *root, int *failures)
{
	char *tar = hb_path_join(root, "src.tar.xz"), *v612 = xasprintf("6.12=%s", tar);
	char *bad = xasprintf("7.0=%s", tar), *why = NULL;
	char *plain[] = { tar, NULL }, *both[] = { v612, tar, NULL }, *wrong[] = { bad, NULL };

	fixture_write(root, "src.tar.xz", "x");
	CHECK(kline_source_for(NULL, "6.1") == NULL);
	CHECK(kline_source_for(plain, "6.1") == tar);
	CHECK(kline_source_for(plain, "6.12") == NULL);
	CHECK(kline_source_for(both, "6.12") && !strcmp(kline_source_for(both, "6.12"), tar));
	CHECK(kline_source_for(both, "6.1") == tar);
	CHECK(kline_check_sources(both, &why) == 0);
	CHECK(kline_check_sources(wrong, &why) == -1);
	CHECK(why && strstr(why, "unknown kernel line '7.0'"));
	free(why);
	free(tar);
	free(v612);
	free(bad);
}

/* The project's own kernel-configs/: both lines parse with their tarballs; the variants
 * without patches build on every line; each ported series exists on both; mseal-off and
 * mseal-prewalk only on 6.12. */
TEST(project_lines)
{
	static const char *const anywhere[] = { "base", "kasan", "kasan-vmalloc", "exclusions",
						"hugetlb-noinit", "unix-noinit", "xpfo", NULL };
	static const char *const only612[] = { "mseal-off", "mseal-prewalk", NULL };
	struct line_def l;
	char *why = NULL;

	setenv("HARDBENCH_SOURCE_DIR", HB_SOURCE_DIR, 1);
	CHECK(config_require_line("6.1", &l, &why) == 0 && !strcmp(l.source, "/usr/src/linux-source-6.1.tar.xz"));
	CHECK(l.fragments && !l.fragments[0], "6.1 keeps no fragment of its own (its keys stay)");
	line_def_free(&l);
	CHECK(config_require_line("6.12", &l, &why) == 0 &&
	      !strcmp(l.source, "/usr/src/linux-source-6.12.tar.xz"));
	CHECK(hb_strv_len(l.fragments) == 1 && ends_with(l.fragments[0], "/line-6.12.config"));
	line_def_free(&l);
	for (size_t i = 0; anywhere[i]; i++) {
		CHECK(config_require_series(anywhere[i], "6.1", &why) == 0, "%s on 6.1", anywhere[i]);
		CHECK(config_require_series(anywhere[i], "6.12", &why) == 0, "%s on 6.12", anywhere[i]);
	}
	for (size_t i = 0; only612[i]; i++) {
		CHECK(config_require_series(only612[i], "6.12", &why) == 0, "%s on 6.12", only612[i]);
		why = NULL;
		CHECK(config_require_series(only612[i], "6.1", &why) == -1 && why &&
		      strstr(why, "(lines with a series: 6.12)"), "%s refused on 6.1", only612[i]);
		free(why);
		why = NULL;
	}
}

TEST(resolution) { fixture_run(failures, check_resolution); }
TEST(build_per_line) { fixture_run(failures, check_build_per_line); }
TEST(keys_per_line) { fixture_run(failures, check_keys); }
TEST(sources) { fixture_run(failures, check_sources); }

TEST_MAIN()
