/* --kernel NAME=IMAGE[,modules=DIR][,cmdline=ARGS]: kernels built elsewhere as variants of
 * the run. Each is checked as boot --kernel checks it, before anything is built; its
 * cache key (in meta.json, and what --resume compares) is the image's SHA-256. */
#include <stdlib.h>
#include <string.h>

#include "adhoc/specs.h"
#include "boot/external_kernel.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "run/run.h"

static int check_name(const struct run *r, const char *value, const char *name, char **why)
{
	char **builds = config_list_builds(), **variants = config_list_variants();
	bool taken = hb_strv_contains(builds, name) || hb_strv_contains(variants, name);

	for (size_t i = 0; !taken && i < r->nprebuilt; i++)
		taken = !strcmp(r->prebuilt[i].name, name);
	if (taken)
		*why = xasprintf("--kernel %s: the name '%s' is taken (accepted: a name that 'harness "
				 "list' does not show and no other --kernel has)", value, name);
	hb_free_strv(builds);
	hb_free_strv(variants);
	return taken ? -1 : 0;
}

static int load_one(struct run *r, const char *value, char **why)
{
	struct kernel_spec k;
	struct run_prebuilt *p;
	char *option, *note = NULL;
	int rc;

	if (kernel_spec_parse(value, &k, why) < 0)
		return -1;
	if (check_name(r, value, k.name, why) < 0) {
		kernel_spec_free(&k);
		return -1;
	}
	option = xasprintf("--kernel %s", value);
	r->prebuilt = xrealloc(r->prebuilt, (r->nprebuilt + 1) * sizeof(*r->prebuilt));
	p = &r->prebuilt[r->nprebuilt];
	*p = (struct run_prebuilt){ .name = xstrdup(k.name), .cmdline = xstrdup(k.cmdline) };
	rc = external_kernel_load(&(struct external_kernel_req){
		.option = option, .name = k.name, .image = k.image, .modules = k.modules,
		.machine = r->opts->vm.machine, .rootfs = r->opts->vm.rootfs }, &p->image, &note);
	if (rc < 0) {
		*why = note;
		free(p->name);
		free(p->cmdline);
	} else {
		if (rc == 1)
			hb_warn("%s", note);
		free(note);
		r->nprebuilt++;
	}
	free(option);
	kernel_spec_free(&k);
	return rc < 0 ? -1 : 0;
}

int run_prebuilt_load(struct run *r, char **why)
{
	for (size_t i = 0; r->opts->prebuilt && r->opts->prebuilt[i]; i++)
		if (load_one(r, r->opts->prebuilt[i], why) < 0)
			return -1;
	return 0;
}

const struct run_prebuilt *run_prebuilt_find(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nprebuilt; i++)
		if (!strcmp(r->prebuilt[i].name, name))
			return &r->prebuilt[i];
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct kernel_image run_prebuilt_image(const struct run_prebuilt *p)
{
	const struct kernel_image *k = &p->image;

	return (struct kernel_image){ .build = dup_or_null(k->build), .bzimage = dup_or_null(k->bzimage),
				      .vmlinux = dup_or_null(k->vmlinux),
				      .modules_root = dup_or_null(k->modules_root),
				      .release = dup_or_null(k->release), .config = dup_or_null(k->config),
				      .key = dup_or_null(k->key) };
}

void run_prebuilt_free(struct run *r)
{
	for (size_t i = 0; i < r->nprebuilt; i++) {
		free(r->prebuilt[i].name);
		free(r->prebuilt[i].cmdline);
		kernel_image_free(&r->prebuilt[i].image);
	}
	free(r->prebuilt);
	r->prebuilt = NULL;
	r->nprebuilt = 0;
}
