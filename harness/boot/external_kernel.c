#include "boot/external_kernel.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/required_options.h"
#include "boot/vm.h"
#include "common/fileutil.h"
#include "common/hash.h"
#include "common/paths.h"
#include "common/xalloc.h"

static bool is_elf(const char *path)
{
	char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);

	if (f)
		fclose(f);
	return elf;
}

int external_kernel_load(const struct external_kernel_req *req, struct kernel_image *out, char **why)
{
	struct guest_needs needs = { .machine = req->machine ? req->machine : vm_default_machine(),
				     .rootfs = req->rootfs ? req->rootfs : "auto",
				     .pvh = is_elf(req->image) };
	char hex[HB_SHA256_HEX], *config, *text, *missing;

	*out = (struct kernel_image){ 0 };
	if (!hb_is_file(req->image) || hb_sha256_file(req->image, hex) < 0) {
		*why = xasprintf("%s: cannot read %s (accepted: a bzImage or a PVH vmlinux)", req->option,
				 req->image);
		return -1;
	}
	if (req->modules && !hb_is_dir(req->modules)) {
		*why = xasprintf("%s: modules %s is not a folder", req->option, req->modules);
		return -1;
	}
	config = find_kernel_config(req->image);
	if (!config) {
		*why = xasprintf("no config found for %s (looked next to it and in /boot): not checked",
				 req->image);
	} else {
		text = hb_read_file(config, NULL);
		missing = text ? required_options_missing(text, &needs) : NULL;
		free(text);
		if (missing) {
			*why = xasprintf("%s: its config %s lacks what the guest path needs: %s",
					 req->option, config, missing);
			free(missing);
			free(config);
			return -1;
		}
	}
	*out = (struct kernel_image){ .build = xstrdup(req->name), .config = config,
				      .key = xstrdup(hex),
				      .modules_root = req->modules ? xstrdup(req->modules) : NULL,
				      .release = needs.pvh ? NULL : bzimage_release(req->image) };
	*(needs.pvh ? &out->vmlinux : &out->bzimage) = xstrdup(req->image);
	return config ? 0 : 1;
}
