/* Out-of-tree modules of a build (extmod.h): modules= parsing and its errors, which files are
 * sources, the cache key following the module's sources (and nothing else), the module's
 * make lines sharing the kernel steps' variables, and the project's builds that ship the
 * XPFO probe. */
#include <stdlib.h>
#include <unistd.h>
#include <utime.h>

#include "test.h"
#include "common/argparse.h"
#include "kernel/cachekey.h"
#include "configs/extmod.h"
#include "configs/kconfigs.h"
#include "kernel/recipe.h"
#include "kconfigs_fixture.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* The fixture plus module "probe" (Kbuild, probe.c, sub/h.h) and build "withmod" naming it. */
static void add_module(const char *root)
{
	fixture_write(root, "kernel-configs/modules/probe/Kbuild", "obj-m := probe.o\n");
	fixture_write(root, "kernel-configs/modules/probe/probe.c", "int x;\n");
	fixture_write(root, "kernel-configs/modules/probe/sub/h.h", "#define Y 1\n");
	fixture_write(root, "kernel-configs/builds/withmod.build",
		      "[build]\ndescription = m\nfragments = extra\nmodules = probe\n");
}

static int key_of(const char *build, char key[HB_SHA256_HEX])
{
	struct build_def b;
	int rc = config_load_build(build, &b);

	if (rc == 0)
		rc = kernel_cache_key(&b, "tarball:aa", "gcc 12", key);
	build_def_free(&b);
	return rc;
}

static void check_parse(const char *root, int *failures)
{
	struct build_def b;

	add_module(root);
	CHECK(config_load_build("withmod", &b) == 0);
	CHECK(hb_strv_len(b.modules) == 1);
	CHECK(b.modules[0] && ends_with(b.modules[0], "/kernel-configs/modules/probe"));
	CHECK_STR(extmod_name(b.modules[0]), "probe");
	build_def_free(&b);
	/* No modules= is an empty list, not NULL. */
	CHECK(config_load_build("plain", &b) == 0);
	CHECK(b.modules && hb_strv_len(b.modules) == 0);
	build_def_free(&b);
	/* Two, comma or space separated, in the order named. */
	fixture_write(root, "kernel-configs/modules/other/Makefile", "obj-m := other.o\n");
	fixture_write(root, "kernel-configs/builds/two.build", "[build]\nmodules = other, probe\n");
	CHECK(config_load_build("two", &b) == 0);
	CHECK(hb_strv_len(b.modules) == 2);
	CHECK(b.modules[1] && !strcmp(extmod_name(b.modules[0]), "other") &&
	      !strcmp(extmod_name(b.modules[1]), "probe"));
	build_def_free(&b);
}

static void check_errors(const char *root, int *failures)
{
	struct build_def b;

	add_module(root);
	fixture_write(root, "kernel-configs/builds/missing.build", "[build]\nmodules = nosuch\n");
	CHECK(config_load_build("missing", &b) == -2);
	CHECK(b.modules == NULL && b.fragments == NULL);
	fixture_write(root, "kernel-configs/builds/escape.build", "[build]\nmodules = ../modules/probe\n");
	CHECK(config_load_build("escape", &b) == -2);
	fixture_write(root, "kernel-configs/builds/upper.build", "[build]\nmodules = Probe\n");
	CHECK(config_load_build("upper", &b) == -2);
	/* A folder without a Kbuild or Makefile is not a module. */
	fixture_write(root, "kernel-configs/modules/bare/bare.c", "int z;\n");
	fixture_write(root, "kernel-configs/builds/bare.build", "[build]\nmodules = bare\n");
	CHECK(config_load_build("bare", &b) == -2);
	fixture_write(root, "kernel-configs/builds/typo.build", "[build]\nmodule = probe\n");
	CHECK(config_load_build("typo", &b) == -2);
}

static void check_sources(const char *root, int *failures)
{
	char *dir = hb_path_join(root, "kernel-configs/modules/probe");
	char **files;

	add_module(root);
	/* What a build by hand leaves in the folder is not a source. */
	fixture_write(root, "kernel-configs/modules/probe/probe.o", "obj");
	fixture_write(root, "kernel-configs/modules/probe/probe.ko", "ko");
	fixture_write(root, "kernel-configs/modules/probe/probe.mod.c", "gen");
	fixture_write(root, "kernel-configs/modules/probe/.probe.o.cmd", "cmd");
	fixture_write(root, "kernel-configs/modules/probe/modules.order", "probe.ko\n");
	fixture_write(root, "kernel-configs/modules/probe/Module.symvers", "");
	files = extmod_sources(dir);
	CHECK(hb_strv_len(files) == 3, "%zu sources", hb_strv_len(files));
	CHECK(files[0] && !strcmp(files[0], "Kbuild"));
	CHECK(files[1] && !strcmp(files[1], "probe.c"));
	CHECK(files[2] && !strcmp(files[2], "sub/h.h"));
	hb_free_strv(files);
	CHECK(extmod_is_output("x.mod") && extmod_is_output(".tmp_versions"));
	CHECK(!extmod_is_output("probe.c") && !extmod_is_output("Kbuild") && !extmod_is_output("a.h"));
	free(dir);
}

static void check_copy(const char *root, int *failures)
{
	char *src = hb_path_join(root, "kernel-configs/modules/probe");
	char *dst = hb_path_join(root, "work/extmod/probe");
	char *why = NULL, *text, *copied;

	add_module(root);
	fixture_write(root, "kernel-configs/modules/probe/probe.ko", "stale");
	CHECK(extmod_copy(src, dst, &why) == 0, "%s", why ? why : "");
	copied = hb_path_join(dst, "sub/h.h");
	text = hb_read_file(copied, NULL);
	CHECK(text && !strcmp(text, "#define Y 1\n"));
	free(text);
	free(copied);
	copied = hb_path_join(dst, "probe.ko");
	CHECK(!hb_is_file(copied), "an output was copied as a source");
	free(copied);
	copied = extmod_work_dir("/c/work/base-1", src);
	CHECK_STR(copied, "/c/work/base-1/extmod/probe");
	free(copied);
	free(why);
	free(src);
	free(dst);
}

static void check_key(const char *root, int *failures)
{
	char k1[HB_SHA256_HEX], k2[HB_SHA256_HEX], plain1[HB_SHA256_HEX], plain2[HB_SHA256_HEX];
	char *src = hb_path_join(root, "kernel-configs/modules/probe/probe.c");

	CHECK(key_of("plain", plain1) == 0);
	add_module(root);
	CHECK(key_of("withmod", k1) == 0);
	CHECK(key_of("withmod", k2) == 0);
	CHECK_STR(k1, k2);
	/* Content counts, not time; outputs left by a build by hand do not count. */
	utime(src, NULL);
	fixture_write(root, "kernel-configs/modules/probe/probe.ko", "ko");
	CHECK(key_of("withmod", k2) == 0);
	CHECK_STR(k1, k2);
	fixture_write(root, "kernel-configs/modules/probe/probe.c", "int x = 1;\n");
	CHECK(key_of("withmod", k2) == 0);
	CHECK(strcmp(k1, k2) != 0, "a changed module source kept the key");
	fixture_write(root, "kernel-configs/modules/probe/probe.c", "int x;\n");
	CHECK(key_of("withmod", k2) == 0);
	CHECK_STR(k1, k2);
	fixture_write(root, "kernel-configs/modules/probe/sub/new.h", "\n");
	CHECK(key_of("withmod", k2) == 0);
	CHECK(strcmp(k1, k2) != 0, "a new module file kept the key");
	/* A build without modules keeps its key, whatever modules/ holds. */
	CHECK(key_of("plain", plain2) == 0);
	CHECK_STR(plain1, plain2);
	free(src);
}

TEST(parse) { fixture_run(failures, check_parse); }
TEST(errors) { fixture_run(failures, check_errors); }
TEST(sources) { fixture_run(failures, check_sources); }
TEST(copy) { fixture_run(failures, check_copy); }
TEST(key) { fixture_run(failures, check_key); }

/* The module's make lines carry every variable of the kernel's own make steps. */
TEST(make_lines)
{
	char *frags[] = { "/k/base.config", NULL };
	struct recipe r = { .tree = "/w/src", .fragments = frags, .jobs = 3, .ccache = true,
			    .modules_dir = "/c/.tmp-x/modules" };
	char **kernel = recipe_argv(&r, STEP_COMPILE);
	char **build = recipe_module_argv(&r, "/w/extmod/probe", false);
	char **install = recipe_module_argv(&r, "/w/extmod/probe", true);
	char *b = recipe_render(build), *i = recipe_render(install);

	CHECK_STR(b, "make ARCH=x86_64 O=obj 'CC=ccache gcc' 'HOSTCC=ccache gcc' "
		     "M=/w/extmod/probe -j3 modules");
	CHECK_STR(i, "make ARCH=x86_64 O=obj 'CC=ccache gcc' 'HOSTCC=ccache gcc' "
		     "M=/w/extmod/probe modules_install INSTALL_MOD_PATH=/c/.tmp-x/modules "
		     "INSTALL_MOD_DIR=extra INSTALL_MOD_STRIP=1");
	/* The head (everything before the target) is the kernel compile's. */
	for (size_t k = 0; kernel[k] && strncmp(kernel[k], "-j", 2); k++)
		CHECK(build[k] && !strcmp(kernel[k], build[k]), "argument %zu", k);
	free(b);
	free(i);
	hb_free_strv(kernel);
	hb_free_strv(build);
	hb_free_strv(install);
}

/* The vanilla control and the XPFO build ship the probe of tests/xpfo/proof.sh. */
TEST(project_builds)
{
	static const char *const with_probe[] = { "base", "xpfo", NULL };
	struct build_def b;

	setenv("HARDBENCH_SOURCE_DIR", HB_SOURCE_DIR, 1);
	for (size_t i = 0; with_probe[i]; i++) {
		CHECK(config_load_build(with_probe[i], &b) == 0, "%s", with_probe[i]);
		CHECK(hb_strv_len(b.modules) == 1 && !strcmp(extmod_name(b.modules[0]), "xpfo_probe"),
		      "%s does not ship xpfo_probe", with_probe[i]);
		build_def_free(&b);
	}
	CHECK(config_load_build("kasan", &b) == 0);
	CHECK(hb_strv_len(b.modules) == 0);
	build_def_free(&b);
}

TEST_MAIN()
