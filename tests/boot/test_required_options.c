/* The kernel-config check for --kernel images, on the real .config of the base build and
 * on edited copies of it; and the bzImage release reader on a fabricated header. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/required_options.h"
#include "test.h"
#include "common/fileutil.h"
#include "boot/vm.h"
#include "common/xalloc.h"

/* A copy of text with line "NAME=..." replaced by repl (a full line, or "" to drop it). */
static char *edit(const char *text, const char *name, const char *repl)
{
	char *key = xasprintf("\n%s=", name);
	const char *at = strstr(text, key);
	char *out;

	if (!at) {
		fprintf(stderr, "%s not in the config\n", name);
		exit(1);
	}
	const char *end = strchr(at + 1, '\n');
	out = xasprintf("%.*s\n%s%s", (int)(at - text), text, repl, end ? end : "");
	free(key);
	return out;
}

/* DATA_DIR/base-6.1.192.config, a real base build's .config; NULL after a failed check. */
static char *base_config(int *failures, const struct test_state *t)
{
	const char *dir = test_arg(failures, t, 1);
	char *path, *config;

	if (!dir)
		return NULL;
	path = xasprintf("%s/base-6.1.192.config", dir);
	config = hb_read_file(path, NULL);
	CHECK(config != NULL, "cannot read %s", path);
	free(path);
	return config;
}

/* Runs check on the base config's text. */
static void with_base_config(int *failures, const struct test_state *t,
			     void (*check)(int *failures, const char *config))
{
	char *config = base_config(failures, t);

	if (config)
		check(failures, config);
	free(config);
}

static void check_base_config(int *failures, const char *config)
{
	struct guest_needs all[] = {
		{ "microvm", "auto", false }, { "q35", "virtiofs", true }, { "q35", "9p", false },
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		char *missing = required_options_missing(config, &all[i]);
		CHECK(missing == NULL, "unexpected: %s", missing);
		free(missing);
	}
}

TEST(base_config)
{
	with_base_config(failures, t, check_base_config);
}

static void check_missing(int *failures, const char *config)
{
	struct guest_needs q35_virtiofs = { "q35", "virtiofs", false };
	struct guest_needs q35_auto = { "q35", "auto", false };
	char *no_console = edit(config, "CONFIG_VIRTIO_CONSOLE", "# CONFIG_VIRTIO_CONSOLE is not set");
	char *fs_module = edit(no_console, "CONFIG_VIRTIO_FS", "CONFIG_VIRTIO_FS=m");
	char *missing = required_options_missing(fs_module, &q35_virtiofs);

	CHECK(missing && strstr(missing, "CONFIG_VIRTIO_CONSOLE (not set;"));
	CHECK(missing && strstr(missing, "CONFIG_VIRTIO_FS (=m, must be built in"));
	CHECK(missing && !strstr(missing, "9P"));
	free(missing);

	/* auto: 9p is complete, so only the console is missing. */
	missing = required_options_missing(fs_module, &q35_auto);
	CHECK(missing && strstr(missing, "CONFIG_VIRTIO_CONSOLE") && !strstr(missing, "VIRTIO_FS"));
	free(missing);

	/* No PVH: fine for a bzImage, named for a vmlinux. */
	char *no_pvh = edit(config, "CONFIG_PVH", "# CONFIG_PVH is not set");
	struct guest_needs pvh = { "microvm", "auto", true }, bz = { "microvm", "auto", false };
	missing = required_options_missing(no_pvh, &pvh);
	CHECK(missing && strstr(missing, "CONFIG_PVH"));
	free(missing);
	CHECK(required_options_missing(no_pvh, &bz) == NULL);

	/* microvm needs virtio-mmio, q35 does not. */
	char *no_mmio = edit(config, "CONFIG_VIRTIO_MMIO", "");
	struct guest_needs mv = { "microvm", "auto", false };
	missing = required_options_missing(no_mmio, &mv);
	CHECK(missing && strstr(missing, "CONFIG_VIRTIO_MMIO"));
	free(missing);
	CHECK(required_options_missing(no_mmio, &q35_auto) == NULL);

	free(no_mmio);
	free(no_pvh);
	free(no_console);
	free(fs_module);
}

TEST(missing)
{
	with_base_config(failures, t, check_missing);
}

/* A minimal bzImage header: "HdrS" at 0x202, kernel_version at 0x20e. */
static void check_release_and_lookup(int *failures, const char *config)
{
	char dir[] = "/tmp/hb-test-reqopt-XXXXXX";
	unsigned char img[0x400] = { 0 };

	CHECK(mkdtemp(dir) != NULL);
	char *boot = xasprintf("%s/vmlinuz-6.1.0-test", dir), *cfg = xasprintf("%s/config-6.1.0-test", dir);
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00; /* string at 0x200 + 0x100 */
	img[0x20f] = 0x01;
	strcpy((char *)img + 0x300, "6.1.0-test (builder@host) #1 SMP");
	CHECK(hb_write_file_atomic(boot, img, sizeof(img)) == 0);
	char *rel = bzimage_release(boot);
	CHECK_STR(rel, "6.1.0-test");
	free(rel);
	char *none = find_kernel_config(boot);
	CHECK(none == NULL);
	free(none);
	CHECK(hb_write_file_atomic(cfg, config, strlen(config)) == 0);
	char *found = find_kernel_config(boot);
	CHECK_STR(found, cfg);
	free(found);
	unlink(boot);
	unlink(cfg);
	rmdir(dir);
	free(boot);
	free(cfg);
}

TEST(release_and_lookup)
{
	with_base_config(failures, t, check_release_and_lookup);
}

/* KASAN kernels take the bzImage entry (they crash in the PVH one); others may use PVH. */
static void check_entry_choice(int *failures, const char *data_dir)
{
	char *base = xasprintf("%s/base-6.1.192.config", data_dir);
	char *kasan = xasprintf("%s/kasan-6.1.192.config", data_dir);
	struct kernel_image with_base = { .config = base }, with_kasan = { .config = kasan };
	struct kernel_image unknown = { .config = NULL };

	CHECK(!vm_kernel_needs_bzimage(&with_base), "base kernel may boot through PVH");
	CHECK(vm_kernel_needs_bzimage(&with_kasan), "KASAN kernel must boot its bzImage");
	CHECK(!vm_kernel_needs_bzimage(&unknown), "no config: keep the default entry");
	free(base);
	free(kasan);
}

TEST(entry_choice)
{
	const char *dir = test_arg(failures, t, 1);

	if (dir)
		check_entry_choice(failures, dir);
}

TEST_MAIN()
