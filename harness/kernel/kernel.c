/* kernel_ensure/kernel_lookup: the kernel cache. An entry is
 * <cache>/kernels/<build>-<key prefix>/ holding bzImage, vmlinux, config, modules/,
 * build.log and manifest.json; it appears by one rename, so it is whole or absent. */
#include "kernel/kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/cachekey.h"
#include "kernel/integrity.h"
#include "kernel/plan.h"
#include "common/lock.h"
#include "kernel/manifest.h"
#include "kernel/recipe.h"
#include "kernel/source.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "kernel/kopts.h"
#include "configs/kline.h"

/* The source of the build's line: opts->source, else the line's source=. */
static int plan_source(struct kernel_plan *p, const struct kernel_opts *opts)
{
	struct line_def l;
	int rc;

	if (opts && opts->source)
		return ksource_identify(opts->source, p->cache, &p->src);
	if (config_load_line(p->def.line, &l) != 0) {
		hb_error("kernel line '%s' has no readable kernel-configs/lines/%s.line", p->def.line,
			 p->def.line);
		return -1;
	}
	rc = ksource_identify(l.source, p->cache, &p->src);
	line_def_free(&l);
	return rc;
}

/* What every use of an entry checks (see integrity.h and the figure in kernel.h). */
#define ENTRY_CHECK INTEGRITY_FULL

int kernel_plan_init(const char *build, const struct kernel_opts *opts, struct kernel_plan *p)
{
	char *abs, *why = NULL;
	int rc;

	*p = (struct kernel_plan){ 0 };
	rc = config_load_build_line(build, opts ? opts->line : NULL, &p->def);
	if (rc == -1)
		hb_error("unknown build '%s' (no kernel-configs/builds/%s.build)", build, build);
	if (rc < 0)
		return -1;
	p->cache = opts && opts->cache ? xstrdup(opts->cache) : hb_cache_dir();
	if (hb_mkdir_p(p->cache, 0755) < 0 || !(abs = realpath(p->cache, NULL))) {
		hb_error("cannot create cache directory %s: %s", p->cache, strerror(errno));
		kernel_plan_free(p);
		return -1;
	}
	/* Absolute, because make runs inside the source copy (INSTALL_MOD_PATH, ccache). */
	free(p->cache);
	p->cache = abs;
	/* --cache too: root runs make in what it finds there. */
	if (hb_check_own_dir(p->cache, "cache", &why) < 0) {
		hb_error("%s", why);
		free(why);
		kernel_plan_free(p);
		return -1;
	}
	if (plan_source(p, opts) < 0 ||
	    !(p->compiler = kernel_compiler_id()) ||
	    kernel_cache_key(&p->def, p->src.identity, p->compiler, p->key) < 0) {
		kernel_plan_free(p);
		return -1;
	}
	p->slot = kernel_slot_name(&p->def, p->key);
	p->entry = xasprintf("%s/kernels/%s", p->cache, p->slot);
	p->work = xasprintf("%s/work/%s", p->cache, p->slot);
	p->staging = xasprintf("%s/kernels/.tmp-%s", p->cache, p->slot);
	p->jobs = opts && opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (p->jobs < 1)
		p->jobs = 1;
	p->ccache = hb_have_program("ccache");
	return 0;
}

void kernel_plan_free(struct kernel_plan *p)
{
	build_def_free(&p->def);
	ksource_free(&p->src);
	free(p->cache);
	free(p->compiler);
	free(p->slot);
	free(p->entry);
	free(p->work);
	free(p->staging);
	*p = (struct kernel_plan){ 0 };
}

int kernel_plan_check_patches(const struct kernel_plan *p)
{
	char *why = NULL;

	if (config_check_series(&p->def, &why) == 0)
		return 0;
	hb_error("%s", why);
	free(why);
	return -1;
}

/* Fills *out from a complete entry; -1 when the entry is missing, partial or stale. */
static int image_from_entry(const struct kernel_plan *p, struct kernel_image *out)
{
	struct manifest_info m;
	char *bz = hb_path_join(p->entry, "bzImage");
	int rc = -1;

	*out = (struct kernel_image){ 0 };
	if (hb_is_file(bz) && manifest_read(p->entry, &m) == 0) {
		if (!strcmp(m.key, p->key)) {
			char *vmlinux = hb_path_join(p->entry, "vmlinux");
			char *modules = hb_path_join(p->entry, "modules");
			*out = (struct kernel_image){
				.build = xstrdup(p->def.name), .entry_dir = xstrdup(p->entry),
				.bzimage = bz, .release = xstrdup(m.release),
				.config = hb_path_join(p->entry, "config"), .key = xstrdup(p->key),
				.vmlinux = hb_is_file(vmlinux) ? vmlinux : NULL,
				.modules_root = hb_is_dir(modules) ? modules : NULL,
			};
			if (!out->vmlinux)
				free(vmlinux);
			if (!out->modules_root)
				free(modules);
			bz = NULL;
			rc = 0;
		}
		manifest_info_free(&m);
	}
	free(bz);
	return rc;
}

int kernel_lookup(const char *build, const struct kernel_opts *opts, struct kernel_image *out)
{
	struct kernel_plan p;
	char *why = NULL;
	int rc;

	*out = (struct kernel_image){ 0 };
	if (kernel_plan_init(build, opts, &p) < 0)
		return -1;
	rc = image_from_entry(&p, out) == 0 ? 0 : 1;
	if (rc == 0 && integrity_check(p.entry, INTEGRITY_QUICK, NULL, &why) == INTEGRITY_BAD) {
		kernel_image_free(out);
		rc = 2;
	}
	free(why);
	kernel_plan_free(&p);
	return rc;
}

static void say_cached(const struct kernel_image *k)
{
	hb_info("%s: cached kernel %s in %s", k->build, k->release, k->entry_dir);
}

enum entry_state { ENTRY_OK, ENTRY_MISS, ENTRY_BAD, ENTRY_UNRECORDED };

/* The entry, checked against its manifest's hashes (ENTRY_CHECK); *out filled only on
 * ENTRY_OK, *why set on ENTRY_BAD. */
static enum entry_state check_entry(const struct kernel_plan *p, struct kernel_image *out,
				    char **why)
{
	enum integrity_state st;

	if (image_from_entry(p, out) < 0)
		return ENTRY_MISS;
	st = integrity_check(p->entry, ENTRY_CHECK, NULL, why);
	if (st == INTEGRITY_OK)
		return ENTRY_OK;
	kernel_image_free(out);
	return st == INTEGRITY_BAD ? ENTRY_BAD : ENTRY_UNRECORDED;
}

/* With the slot's lock: an entry from before the hashes is checked for being whole and
 * hashed once, rather than rebuilt (10-17 minutes here): its files appeared by one rename
 * after a complete build, so what is whole is what was built. */
static enum entry_state check_entry_locked(const struct kernel_plan *p, struct kernel_image *out,
					   char **why)
{
	enum entry_state st = check_entry(p, out, why);

	if (st != ENTRY_UNRECORDED)
		return st;
	if (integrity_upgrade(p->entry, why) < 0)
		return ENTRY_BAD;
	hb_info("%s: %s had no hashes (made before they were kept): checked it is whole and "
		"recorded them", p->def.name, p->entry);
	return check_entry(p, out, why);
}

/* ENTRY_BAD: -2 after the one-line error, or (rebuild_bad, as harness run asks) 0 after
 * saying it will be rebuilt. */
static int handle_bad(const struct kernel_plan *p, const struct kernel_opts *opts, char *why)
{
	int rc = 0;

	if (opts && opts->rebuild_bad) {
		hb_info("%s: damaged cache entry: %s; rebuilding it", p->def.name, why);
	} else {
		hb_error("%s: damaged cache entry: %s (rebuild it: harness build %s --force)",
			 p->def.name, why, p->def.name);
		rc = -2;
	}
	free(why);
	return rc;
}

/* announced: the damage was already reported (before the lock); a run waiting for another
 * that rebuilt the entry finds it good here and does not rebuild it again. */
static int ensure_locked(const struct kernel_plan *p, const struct kernel_opts *opts, bool force,
			 bool announced, struct kernel_image *out)
{
	char *why = NULL;
	int rc;

	if (!force) {
		enum entry_state st = check_entry_locked(p, out, &why);
		if (st == ENTRY_OK) { /* whoever held the lock may have just built it */
			say_cached(out);
			return 0;
		}
		if (st == ENTRY_BAD && announced)
			free(why);
		else if (st == ENTRY_BAD && handle_bad(p, opts, why) < 0)
			return -2;
	}
	if ((rc = kernel_make(p)) == 0 && (rc = image_from_entry(p, out)) < 0)
		hb_error("%s: the new entry %s is not readable", p->def.name, p->entry);
	return rc;
}

static int dry_run(struct kernel_plan *p, bool force, struct kernel_image *out)
{
	char *why = NULL;
	bool hit = check_entry(p, out, &why) == ENTRY_OK;
	int rc;

	free(why);
	kernel_print_plan(p, hit && !force, stdout);
	rc = hit && !force ? 0 : kernel_plan_check_patches(p);
	kernel_plan_free(p);
	return rc;
}

int kernel_ensure(const char *build, const struct kernel_opts *opts, struct kernel_image *out)
{
	struct kernel_plan p;
	bool force = opts && opts->force, announced = false;
	char *what, *why = NULL;
	int fd, rc = -1;

	*out = (struct kernel_image){ 0 };
	if (kernel_plan_init(build, opts, &p) < 0)
		return -1;
	if (opts && opts->dry_run)
		return dry_run(&p, force, out);
	if (!force) {
		enum entry_state st = check_entry(&p, out, &why);
		if (st == ENTRY_OK) {
			say_cached(out);
			kernel_plan_free(&p);
			return 0;
		}
		if (st == ENTRY_BAD && (rc = handle_bad(&p, opts, why)) < 0)
			goto out;
		announced = st == ENTRY_BAD;
	}
	if ((rc = kernel_plan_check_patches(&p)) < 0)
		goto out;
	what = xasprintf("another build of %s", p.def.name);
	fd = kernel_cache_lock(p.cache, p.slot, what);
	free(what);
	rc = -1;
	if (fd >= 0) {
		rc = ensure_locked(&p, opts, force, announced, out);
		kernel_cache_unlock(fd);
	}
out:
	kernel_plan_free(&p);
	return rc;
}

void kernel_image_free(struct kernel_image *k)
{
	free(k->build);
	free(k->entry_dir);
	free(k->bzimage);
	free(k->vmlinux);
	free(k->modules_root);
	free(k->release);
	free(k->config);
	free(k->key);
	*k = (struct kernel_image){ 0 };
}
