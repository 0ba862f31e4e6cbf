/* Build (.build) and variant (.variant) files: parsing, errors that name file and line, lists,
 * and the project's real kernel-configs/ (every variant resolves to a loadable build). */
#include <stdlib.h>

#include "test.h"
#include "common/argparse.h"
#include "configs/kconfigs.h"
#include "kconfigs_fixture.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

static void check_fixture_build(const char *root, int *failures)
{
	struct build_def b;

	(void)root; /* found through HARDBENCH_SOURCE_DIR */
	CHECK(config_load_build("patched", &b) == 0);
	CHECK_STR(b.name, "patched");
	CHECK_STR(b.description, "with patches");
	CHECK_STR(b.seed, "000");
	CHECK(hb_strv_len(b.fragments) == 2);
	CHECK(ends_with(b.fragments[0], "/kernel-configs/base.config"));
	CHECK(ends_with(b.fragments[1], "/kernel-configs/fragments/extra.config"));
	/* Apply order is file name order; files not named *.patch are not patches. */
	CHECK(hb_strv_len(b.patches) == 2);
	CHECK(ends_with(b.patches[0], "/0001-first.patch"));
	CHECK(ends_with(b.patches[1], "/0002-second.patch"));
	CHECK(b.patch_dir && ends_with(b.patch_dir, "/kernel-configs/patches/patched/6.1"));
	build_def_free(&b);

	CHECK(config_load_build("plain", &b) == 0);
	CHECK(hb_strv_len(b.fragments) == 1);
	CHECK(hb_strv_len(b.patches) == 0);
	CHECK(b.patch_dir == NULL);
	build_def_free(&b);
}

static void check_fixture_errors(const char *root, int *failures)
{
	struct build_def b;
	struct variant_def v;

	CHECK(config_load_build("nosuch", &b) == -1);
	CHECK(config_load_build("../kernel-configs/builds/plain", &b) == -1);
	CHECK(config_load_variant("nosuch", &v) == -1);
	fixture_write(root, "kernel-configs/builds/typo.build", "[build]\nfragmnets = extra\n");
	CHECK(config_load_build("typo", &b) == -2);
	fixture_write(root, "kernel-configs/builds/section.build", "[variant]\nbuild = plain\n");
	CHECK(config_load_build("section", &b) == -2);
	fixture_write(root, "kernel-configs/builds/nofrag.build", "[build]\nfragments = missing\n");
	CHECK(config_load_build("nofrag", &b) == -2);
	fixture_write(root, "kernel-configs/builds/twopatch.build", "[build]\npatches = a b\n");
	CHECK(config_load_build("twopatch", &b) == -2);
	fixture_write(root, "kernel-configs/variants/nobuild.variant", "[variant]\ncmdline = x\n");
	CHECK(config_load_variant("nobuild", &v) == -2);
	fixture_write(root, "kernel-configs/variants/maybe.variant",
		      "[variant]\nbuild = plain\ndefault_set = maybe\n");
	CHECK(config_load_variant("maybe", &v) == -2, "default_set = maybe was accepted");
	fixture_write(root, "kernel-configs/variants/debugonly.variant",
		      "[variant]\nbuild = plain\ndefault_set = no\n");
	CHECK(config_load_variant("debugonly", &v) == 0);
	CHECK(!v.in_default_set, "default_set = no still in the default set");
	variant_def_free(&v);
	fixture_write(root, "kernel-configs/variants/plainv.variant", "[variant]\nbuild = plain\n");
	CHECK(config_load_variant("plainv", &v) == 0);
	CHECK(v.in_default_set, "a variant is in the default set unless it says no");
	variant_def_free(&v);
	/* A missing patch folder still loads (the build step names it), with no patches. */
	fixture_write(root, "kernel-configs/builds/gone.build", "[build]\npatches = gone\n");
	CHECK(config_load_build("gone", &b) == 0);
	CHECK(b.patch_dir && ends_with(b.patch_dir, "/patches/gone/6.1"));
	CHECK(hb_strv_len(b.patches) == 0);
	build_def_free(&b);
}

static void check_fixture_lists(const char *root, int *failures)
{
	char **builds = config_list_builds();
	char **variants = config_list_variants();

	(void)root; /* found through HARDBENCH_SOURCE_DIR */	struct variant_def v;
	char *name;

	CHECK(hb_strv_len(variants) >= 1);
	CHECK(hb_strv_contains(variants, "v1"));
	CHECK(hb_strv_contains(builds, "plain") && hb_strv_contains(builds, "patched"));
	for (size_t i = 1; builds[i]; i++)
		CHECK(strcmp(builds[i - 1], builds[i]) < 0);
	CHECK(config_require_variant("v1", &v, &(char *){ NULL }) == 0);
	CHECK_STR(v.build, "plain");
	CHECK_STR(v.cmdline, "init_on_alloc=0 init_on_free=0");
	variant_def_free(&v);
	name = config_require_build_name("v1", &(char *){ NULL });
	CHECK_STR(name, "plain");
	free(name);
	name = config_require_build_name("patched", &(char *){ NULL });
	CHECK_STR(name, "patched");
	free(name);
	hb_free_strv(builds);
	hb_free_strv(variants);
}

/* The project's own kernel-configs/: what the issue asks for. */
TEST(project_configs)
{
	static const char *const variants[] = { "baseline", "init_on_alloc", "init_on_free",
						"exclusions", "hugetlb-noinit", "unix-noinit",
						"kasan", "kasan-vmalloc", NULL };
	static const char *const builds[] = { "base", "kasan", "kasan-vmalloc", "exclusions",
					      "hugetlb-noinit", "unix-noinit", NULL };
	struct variant_def v;
	struct build_def b;

	setenv("HARDBENCH_SOURCE_DIR", HB_SOURCE_DIR, 1);
	for (size_t i = 0; builds[i]; i++) {
		CHECK(config_load_build(builds[i], &b) == 0);
		build_def_free(&b);
	}
	for (size_t i = 0; variants[i]; i++) {
		CHECK(config_require_variant(variants[i], &v, &(char *){ NULL }) == 0);
		CHECK(v.description && *v.description);
		CHECK(strstr(v.cmdline, "init_on_alloc=") && strstr(v.cmdline, "init_on_free="));
		variant_def_free(&v);
	}
	CHECK(config_require_variant("baseline", &v, &(char *){ NULL }) == 0);
	CHECK_STR(v.build, "base");
	CHECK(strstr(v.cmdline, "init_on_alloc=0") && strstr(v.cmdline, "init_on_free=0"));
	variant_def_free(&v);
	CHECK(config_require_variant("init_on_free", &v, &(char *){ NULL }) == 0);
	CHECK_STR(v.build, "base");
	CHECK(strstr(v.cmdline, "init_on_free=1"));
	variant_def_free(&v);
	CHECK(config_load_build("kasan-vmalloc", &b) == 0);
	CHECK(hb_strv_len(b.fragments) == 3);
	CHECK(ends_with(b.fragments[2], "/kasan-vmalloc.config"));
	build_def_free(&b);
	CHECK(config_load_build("exclusions", &b) == 0);
	CHECK(b.patch_dir && ends_with(b.patch_dir, "/patches/exclusions/6.1"));
	build_def_free(&b);
}

/* The cases on the scratch tree of fixture.h, each on a fresh one. */
TEST(fixture_build)
{
	fixture_run(failures, check_fixture_build);
}

TEST(fixture_errors)
{
	fixture_run(failures, check_fixture_errors);
}

TEST(fixture_lists)
{
	fixture_run(failures, check_fixture_lists);
}

TEST_MAIN()
