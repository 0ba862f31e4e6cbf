#include "boot/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "boot/qemu_argv.h"
#include "boot/vm_options.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"

#define CACHE_FILE "accel-probe.json"

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

static char *qemu_version(void)
{
	char *argv[] = { QEMU_BINARY, "--version", NULL };
	int rc;
	char *out = hb_have_program(QEMU_BINARY) ? hb_run_capture(argv, &rc) : NULL;
	char *v = xstrndup(out ? out : "none", strcspn(out ? out : "none", "\n"));

	free(out);
	return v;
}

/* What the answer depends on: a new host kernel, CPU or QEMU asks again. */
static char *host_key(void)
{
	struct utsname u;
	char *model = cpu_model(), *qemu = qemu_version(), *key;

	uname(&u);
	key = xasprintf("%s | %s | %s", u.release, model, qemu);
	free(model);
	free(qemu);
	return key;
}

static char *cache_path(void)
{
	char *dir = hb_cache_dir(), *path = hb_path_join(dir, CACHE_FILE);
	free(dir);
	return path;
}

/* The cached entry for this host when fresh, else NULL. */
static json_object *cache_load(const char *key)
{
	char *path = cache_path();
	json_object *c = json_object_from_file(path), *k, *t;

	free(path);
	if (c && json_object_object_get_ex(c, "key", &k) && !strcmp(json_object_get_string(k), key) &&
	    json_object_object_get_ex(c, "time", &t) &&
	    (double)time(NULL) - json_object_get_double(t) < ACCEL_CACHE_TTL_S)
		return c;
	json_object_put(c);
	return NULL;
}

static void cache_store(json_object *c)
{
	char *path = cache_path();
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

/* One real boot under KVM with no job: the init's hello means KVM works. */
static enum accel_kind probe_kvm(const struct kernel_image *k, char **reason)
{
	char *log_dir = xstrdup("/tmp/hardbench-kvm-probe-XXXXXX");
	struct vm_opts o = { .cores = 1, .mem_mib = VM_MIN_MEM_MIB, .timeout_s = ACCEL_PROBE_TIMEOUT_S,
			     .accel = ACCEL_KVM, .accel_reason = "the KVM probe", .pin = false,
			     .quiet = true };
	struct vm_result r;
	enum accel_kind answer;

	if (!mkdtemp(log_dir)) {
		*reason = xasprintf("KVM probe: mkdtemp: %s", strerror(errno));
		free(log_dir);
		return ACCEL_TCG;
	}
	o.log_dir = log_dir;
	hb_info("probing KVM (a short boot, at most %.0f s; cached for a day)", ACCEL_PROBE_TIMEOUT_S);
	vm_run(k, "", NULL, 0, &o, &r);
	if (r.status == VM_OK && r.boot_s > 0) {
		answer = ACCEL_KVM;
		*reason = xasprintf("KVM probe booted the guest init in %.2f s", r.boot_s);
	} else {
		answer = ACCEL_TCG;
		*reason = xasprintf("KVM probe failed (%s): %s", r.phase ? r.phase : "start",
				    r.status == VM_ERR_TIMEOUT
				    ? "no hello from the guest init in time (nested KVM hangs?)"
				    : r.error ? r.error : "unknown");
	}
	vm_result_free(&r);
	hb_remove_tree(log_dir);
	free(log_dir);
	return answer;
}

static enum accel_kind resolve_auto(const struct kernel_image *k, bool may_probe, char **reason)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	char *key;
	json_object *c;
	enum accel_kind answer;

	if (fd < 0) {
		*reason = xasprintf("/dev/kvm: %s", strerror(errno));
		return ACCEL_TCG;
	}
	close(fd);
	key = host_key();
	c = cache_load(key);
	if (c && cached_string(c, "accel") && cached_string(c, "reason")) {
		answer = !strcmp(cached_string(c, "accel"), "kvm") ? ACCEL_KVM : ACCEL_TCG;
		*reason = xasprintf("%s (cached probe)", cached_string(c, "reason"));
	} else if (!may_probe) {
		answer = ACCEL_TCG;
		*reason = xstrdup("KVM not probed yet (dry run); a real boot probes it first");
	} else {
		answer = probe_kvm(k, reason);
		json_object_put(c);
		c = json_object_new_object();
		json_object_object_add(c, "key", json_object_new_string(key));
		json_object_object_add(c, "accel", json_object_new_string(vm_accel_name(answer)));
		json_object_object_add(c, "reason", json_object_new_string(*reason));
		json_object_object_add(c, "time", json_object_new_double((double)time(NULL)));
		cache_store(c);
	}
	json_object_put(c);
	free(key);
	return answer;
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
