#include "boot/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kvm.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "boot/clock.h"
#include "boot/qemu_argv.h"
#include "boot/qemu_version.h"
#include "boot/vm_options.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"

/* {"KEY": {"accel", "reason", "time"}, ...}: a verdict per host key, so that two keys (two
 * QEMU binaries; harness versions that key differently) do not evict each other's and
 * probe again, 8 s each, on every boot that alternates between them. (accel-probe.json,
 * one verdict keyed by QEMU's --version, is left to harnesses from before.) */
#define CACHE_FILE "accel-probes.json"

static char *cpu_model(void)
{
	char *text = hb_read_file("/proc/cpuinfo", NULL);
	char *line = text ? strstr(text, "model name") : NULL;
	char *model;

	if (!line) {
		free(text);
		return xstrdup("unknown");
	}
	line = strchr(line, ':');
	line = line ? line + 2 : "unknown";
	model = xstrndup(line, strcspn(line, "\n"));
	free(text);
	return model;
}

char *accel_host_key(void)
{
	struct utsname u;
	char *model = cpu_model(), *qemu = qemu_binary_identity(), *key;

	uname(&u);
	key = xasprintf("%s | %s | %s", u.release, model, qemu);
	free(model);
	free(qemu);
	return key;
}

static bool fresh(json_object *entry)
{
	json_object *t;

	return entry && json_object_is_type(entry, json_type_object) &&
	       json_object_object_get_ex(entry, "time", &t) &&
	       (double)time(NULL) - json_object_get_double(t) < ACCEL_CACHE_TTL_S;
}

/* Every host key's verdict (an empty object when there is no readable file). */
static json_object *cache_read(void)
{
	char *path = hb_cache_file(CACHE_FILE);
	json_object *c = hb_json_from_file_nofollow(path);

	free(path);
	if (!c || !json_object_is_type(c, json_type_object)) {
		json_object_put(c);
		c = json_object_new_object();
	}
	return c;
}

/* The cached entry for this host when fresh, else NULL. */
static json_object *cache_load(const char *key)
{
	json_object *c = cache_read(), *entry = NULL;

	if (json_object_object_get_ex(c, key, &entry) && fresh(entry))
		entry = json_object_get(entry);
	else
		entry = NULL;
	json_object_put(c);
	return entry;
}

static void cache_store(json_object *c)
{
	char *path = hb_cache_file(CACHE_FILE);
	const char *text = json_object_to_json_string_ext(c, JSON_C_TO_STRING_PRETTY);

	if (hb_write_file_atomic(path, text, strlen(text)) < 0)
		hb_warn("cannot write %s: %s", path, strerror(errno));
	free(path);
}

static const char *cached_string(json_object *c, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(c, name, &v) ? json_object_get_string(v) : NULL;
}

static bool booted(const struct vm_result *r)
{
	return r->status == VM_OK && r->boot_s > 0;
}

/* One real boot with no job and a short timeout: VM_OK with a boot time means the
 * guest init said hello. r is filled either way. */
static void probe_boot(const struct kernel_image *k, enum accel_kind accel, double timeout_s,
		       struct vm_result *r)
{
	char *log_dir = hb_mkdtemp_owned(HB_TMP_PROBE);
	struct vm_opts o = { .cores = 1, .mem_mib = VM_MIN_MEM_MIB, .timeout_s = timeout_s,
			     .accel = accel, .accel_reason = "the KVM probe", .pin = false,
			     .quiet = true };

	if (!log_dir) {
		*r = (struct vm_result){ .status = VM_ERR_START,
					 .error = xasprintf("mkdtemp: %s", strerror(errno)) };
		return;
	}
	o.log_dir = log_dir;
	vm_run(k, "", NULL, 0, &o, r);
	/* A failure's error names its log: kept (a later harness removes it, OWNER gone). */
	if (booted(r))
		hb_remove_tree(log_dir);
	free(log_dir);
}

static char *failure_text(const struct vm_result *r)
{
	return xasprintf("%s: %s", r->phase ? r->phase : "start",
			 r->status == VM_ERR_TIMEOUT ? "no hello from the guest init in time"
			 : r->error ? r->error : "unknown");
}

/* Can this process create a VM at all? KVM_CREATE_VM failing is KVM's fault. */
static int kvm_create_vm(int kvm_fd, char **reason)
{
	int vm = ioctl(kvm_fd, KVM_CREATE_VM, 0);

	if (vm < 0) {
		*reason = xasprintf("KVM_CREATE_VM: %s", strerror(errno));
		return -1;
	}
	close(vm);
	return 0;
}

/* The KVM boot failed: the same kernel under TCG tells whose fault it is. Booting there
 * means KVM's (a verdict to cache); failing there too means the kernel's (ACCEL_NONE, not
 * cached, so one damaged image never sends a day of runs to TCG). */
static enum accel_kind blame(const struct kernel_image *k, const struct vm_result *kvm,
			     char **reason, bool *cacheable)
{
	struct vm_result tcg;
	char *kvm_why = failure_text(kvm), *tcg_why;
	enum accel_kind answer;

	hb_info("KVM probe failed (%s): booting the same kernel under TCG to see whose fault", kvm_why);
	probe_boot(k, ACCEL_TCG, ACCEL_PROBE_TCG_TIMEOUT_S, &tcg);
	if (booted(&tcg)) {
		answer = ACCEL_TCG;
		*cacheable = true;
		*reason = xasprintf("KVM probe failed (%s%s) while the same kernel boots under TCG",
				    kvm_why, kvm->status == VM_ERR_TIMEOUT ? "; nested KVM hangs?" : "");
	} else {
		answer = ACCEL_NONE;
		tcg_why = failure_text(&tcg);
		*reason = xasprintf("the kernel %s boots under neither KVM (%s) nor TCG (%s): the "
				    "kernel's fault, not KVM's", k->vmlinux ? k->vmlinux : k->bzimage,
				    kvm_why, tcg_why);
		free(tcg_why);
	}
	free(kvm_why);
	vm_result_free(&tcg);
	return answer;
}

static enum accel_kind probe_kvm(int kvm_fd, const struct kernel_image *k, char **reason,
				 bool *cacheable)
{
	struct vm_result r;
	enum accel_kind answer;

	*cacheable = true;
	if (kvm_create_vm(kvm_fd, reason) < 0)
		return ACCEL_TCG;
	hb_info("probing KVM (a short boot, at most %.0f s; cached for a day)", ACCEL_PROBE_TIMEOUT_S);
	probe_boot(k, ACCEL_KVM, ACCEL_PROBE_TIMEOUT_S, &r);
	if (booted(&r)) {
		answer = ACCEL_KVM;
		*reason = xasprintf("KVM probe booted the guest init in %.2f s", r.boot_s);
	} else {
		*cacheable = false;
		answer = blame(k, &r, reason, cacheable);
	}
	vm_result_free(&r);
	return answer;
}

/* Adds this key's verdict to the others' (stale ones dropped). */
static void store_verdict(const char *key, enum accel_kind answer, const char *reason)
{
	json_object *all = cache_read(), *keep = json_object_new_object(), *c = json_object_new_object();

	json_object_object_foreach(all, k, v)
		if (strcmp(k, key) && fresh(v))
			json_object_object_add(keep, k, json_object_get(v));
	json_object_object_add(c, "accel", json_object_new_string(vm_accel_name(answer)));
	json_object_object_add(c, "reason", json_object_new_string(reason));
	json_object_object_add(c, "time", json_object_new_double((double)time(NULL)));
	json_object_object_add(keep, key, c);
	cache_store(keep);
	json_object_put(keep);
	json_object_put(all);
}

static enum accel_kind resolve_auto(const struct kernel_image *k, bool may_probe, char **reason)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	char *key;
	json_object *c;
	enum accel_kind answer;
	bool cacheable;

	if (fd < 0) {
		*reason = xasprintf("/dev/kvm: %s", strerror(errno));
		return ACCEL_TCG;
	}
	key = accel_host_key();
	c = cache_load(key);
	if (c && cached_string(c, "accel") && cached_string(c, "reason")) {
		answer = !strcmp(cached_string(c, "accel"), "kvm") ? ACCEL_KVM : ACCEL_TCG;
		*reason = xasprintf("%s (cached probe)", cached_string(c, "reason"));
	} else if (!may_probe) {
		answer = ACCEL_TCG;
		*reason = xstrdup("KVM not probed yet (dry run); a real boot probes it first");
	} else {
		answer = probe_kvm(fd, k, reason, &cacheable);
		if (cacheable)
			store_verdict(key, answer, *reason);
	}
	close(fd);
	json_object_put(c);
	free(key);
	return answer;
}

enum accel_kind accel_resolve_for_clock(enum guest_clock c, enum accel_kind want,
					const struct kernel_image *k, bool may_probe, char **reason)
{
	enum accel_kind accel;

	if (!clock_runs_icount(c))
		return accel_resolve(want, k, may_probe, reason);
	if (clock_accel_want(c, want, &accel, reason, &(char *){ NULL }) < 0)
		hb_fatal("--clock %s with --accel kvm: refused before (clock_accel_want)",
			 guest_clock_name(c));
	return accel;
}

enum accel_kind accel_resolve(enum accel_kind want, const struct kernel_image *k,
			      bool may_probe, char **reason)
{
	if (want == ACCEL_KVM) {
		*reason = xstrdup("asked for (--accel kvm)");
		return ACCEL_KVM;
	}
	if (want == ACCEL_TCG) {
		*reason = xstrdup("asked for (--accel tcg)");
		return ACCEL_TCG;
	}
	return resolve_auto(k, may_probe, reason);
}
