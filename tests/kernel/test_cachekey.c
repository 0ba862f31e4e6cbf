/* The cache key changes when a fragment, a patch, the source or the compiler changes, and
 * not when nothing does (nor when only a file's time changes). */
#include <stdlib.h>
#include <unistd.h>
#include <utime.h>

#include "kernel/cachekey.h"
#include "test.h"
#include "configs/kconfigs.h"
#include "kconfigs_fixture.h"

static void key_of(const char *build, const char *source, const char *cc, char key[HB_SHA256_HEX])
{
	struct build_def b;

	if (config_load_build(build, &b) < 0 || kernel_cache_key(&b, source, cc, key) < 0)
		hb_fatal("cannot key build %s", build);
	build_def_free(&b);
}

static void check_key(const char *root, int *failures)
{
	char k1[HB_SHA256_HEX], k2[HB_SHA256_HEX], k3[HB_SHA256_HEX];
	char *frag = hb_path_join(root, "kernel-configs/fragments/extra.config");

	key_of("patched", "tarball:aa", "gcc 12", k1);
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK_STR(k1, k2);
	CHECK(strlen(k1) == 64);

	/* Touching a file changes nothing: content counts, not time. */
	utime(frag, NULL);
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK_STR(k1, k2);

	fixture_write(root, "kernel-configs/fragments/extra.config", "CONFIG_B=m\n");
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK(strcmp(k1, k2) != 0);
	fixture_write(root, "kernel-configs/fragments/extra.config", "CONFIG_B=y\n");
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK_STR(k1, k2);

	fixture_write(root, "kernel-configs/base.config", "CONFIG_A=m\n# CONFIG_B is not set\n");
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK(strcmp(k1, k2) != 0);
	fixture_write(root, "kernel-configs/base.config", "CONFIG_A=y\n# CONFIG_B is not set\n");

	fixture_write(root, "kernel-configs/patches/patched/6.1/0002-second.patch", "two, changed\n");
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK(strcmp(k1, k2) != 0);
	fixture_write(root, "kernel-configs/patches/patched/6.1/0002-second.patch", "two\n");
	fixture_write(root, "kernel-configs/patches/patched/6.1/0003-third.patch", "three\n");
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK(strcmp(k1, k2) != 0);
	{
		char *third = hb_path_join(root, "kernel-configs/patches/patched/6.1/0003-third.patch");
		unlink(third);
		free(third);
	}
	key_of("patched", "tarball:aa", "gcc 12", k2);
	CHECK_STR(k1, k2);

	key_of("patched", "tarball:bb", "gcc 12", k2);
	key_of("patched", "tarball:aa", "gcc 13", k3);
	CHECK(strcmp(k1, k2) != 0);
	CHECK(strcmp(k1, k3) != 0);

	/* A build's key does not depend on another build's files. */
	key_of("plain", "tarball:aa", "gcc 12", k2);
	fixture_write(root, "kernel-configs/fragments/extra.config", "CONFIG_B=m\n");
	key_of("plain", "tarball:aa", "gcc 12", k3);
	CHECK_STR(k2, k3);
	free(frag);
}

TEST(key_follows_content)
{
	fixture_run(failures, check_key);
}

TEST(compiler_id)
{
	char *cc = kernel_compiler_id();

	CHECK(cc && strstr(cc, "gcc"), "compiler id '%s'", cc ? cc : "(null)");
	free(cc);
}

TEST_MAIN()
