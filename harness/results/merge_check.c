/* Which result sets can be pooled: the same kernels, workload parameters, variant
 * definitions, accel and clock, and for counted clocks the same QEMU. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "results/merge.h"
#include "results/provenance.h"

static const char *str_or(json_object *v, const char *dflt)
{
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : dflt;
}

static const char *compact(json_object *v)
{
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* For each key both objects have: the first whose value differs (by field, when given:
 * e.g. a kernel's "key"). NULL when none. */
static const char *first_difference(json_object *a, json_object *b, const char *field,
				    json_object **va, json_object **vb)
{
	if (!a || !b || !json_object_is_type(a, json_type_object) || !json_object_is_type(b, json_type_object))
		return NULL;
	json_object_object_foreach(a, name, x) {
		json_object *y = hb_json_get(b, name);
		if (!y)
			continue;
		*va = field ? hb_json_get(x, field) : x;
		*vb = field ? hb_json_get(y, field) : y;
		if (!json_object_equal(*va, *vb))
			return name;
	}
	return NULL;
}

/* A kernel of a line both sets ran whose cache key differs: "'base' on line 6.12 (...)".
 * Sets from before lines (no "kernels_by_line") compare "kernels", all 6.1's. */
static char *kernel_difference(json_object *a, json_object *b)
{
	json_object *la = hb_json_get(a, "kernels_by_line"), *lb = hb_json_get(b, "kernels_by_line"), *va = NULL, *vb = NULL;
	const char *name;

	if (!la || !lb || !json_object_is_type(la, json_type_object)) {
		name = first_difference(hb_json_get(a, "kernels"), hb_json_get(b, "kernels"), "key", &va, &vb);
		return name ? xasprintf("the cache key of kernel '%s' (%.12s vs %.12s)", name,
					str_or(va, "none"), str_or(vb, "none")) : NULL;
	}
	json_object_object_foreach(la, line, ka) {
		name = first_difference(ka, hb_json_get(lb, line), "key", &va, &vb);
		if (name)
			return xasprintf("the cache key of kernel '%s' on line %s (%.12s vs %.12s)", name,
					 line, str_or(va, "none"), str_or(vb, "none"));
	}
	return NULL;
}

/* The clock of a set: meta.json "clock": {"name": ...} (or a bare name); none: host. */
static const char *clock_name(json_object *meta)
{
	json_object *c = hb_json_get(meta, "clock");
	return c && json_object_is_type(c, json_type_object) ? str_or(hb_json_get(c, "name"), "host")
		: str_or(c, "host");
}

/* A workload both sets ran under different clocks; sets from before the per-workload
 * record (--clock auto) compare their one clock. Halves split by workload may differ as a
 * whole (kbuild under host, the rest under icount) and still pool. Caller frees. */
static char *clock_difference(json_object *a, json_object *b)
{
	json_object *wa = hb_json_get(hb_json_get(a, "clock"), "workloads"), *wb = hb_json_get(hb_json_get(b, "clock"), "workloads");

	if (!wa || !wb || !json_object_is_type(wa, json_type_object)) {
		if (strcmp(clock_name(a), clock_name(b)))
			return xasprintf("clock ('%s' vs '%s')", clock_name(a), clock_name(b));
		return NULL;
	}
	json_object_object_foreach(wa, name, x) {
		const char *ca = str_or(hb_json_get(x, "name"), "host"), *cb = str_or(hb_json_get(hb_json_get(wb, name), "name"), ca);
		if (strcmp(ca, cb))
			return xasprintf("the clock of workload '%s' ('%s' vs '%s')", name, ca, cb);
	}
	return NULL;
}

/* The difference between two sets' meta.json in words, or NULL. Caller frees. */
static char *difference(json_object *a, json_object *b)
{
	json_object *va = NULL, *vb = NULL;
	const char *name;
	char *kd;

	if ((kd = clock_difference(a, b)))
		return kd;
	if (hb_json_get(a, "accel") && hb_json_get(b, "accel") && strcmp(str_or(hb_json_get(a, "accel"), ""), str_or(hb_json_get(b, "accel"), "")))
		return xasprintf("accel ('%s' vs '%s')", str_or(hb_json_get(a, "accel"), ""), str_or(hb_json_get(b, "accel"), ""));
	if ((kd = kernel_difference(a, b)))
		return kd;
	if ((name = first_difference(hb_json_get(a, "workloads"), hb_json_get(b, "workloads"), NULL, &va, &vb))) {
		char *sa = xstrdup(compact(va));
		char *r = xasprintf("the parameters of workload '%s' (%s vs %s)", name, sa, compact(vb));
		free(sa);
		return r;
	}
	if ((name = first_difference(hb_json_get(a, "variants"), hb_json_get(b, "variants"), NULL, &va, &vb))) {
		char *sa = xstrdup(compact(va));
		char *r = xasprintf("the definition of variant '%s' (%s vs %s)", name, sa, compact(vb));
		free(sa);
		return r;
	}
	return NULL;
}

int merge_check(json_object *const *metas, char *const *sets, size_t n, bool warn, char **why)
{
	for (size_t i = 1; i < n; i++) {
		char *d = difference(metas[0], metas[i]), *q = NULL;
		int qrc = d ? 0 : rs_qemu_check(metas[0], metas[i], sets[0], sets[i], &q);

		if (qrc < 0) {
			*why = xasprintf("merge: %s", q);
			free(q);
			return -1;
		}
		if (qrc > 0 && warn)
			hb_warn("merge: %s", q);
		free(q);
		if (d) {
			*why = xasprintf("merge: %s and %s differ in %s (accepted: sets measured with the "
					 "same kernels, workload parameters, variants, accel and clock)",
					 sets[0], sets[i], d);
			free(d);
			return -1;
		}
	}
	return 0;
}

char *merge_host_name(json_object *meta, const char *dir)
{
	const char *h = str_or(hb_json_get(hb_json_get(meta, "host"), "hostname"), NULL);
	char *copy, *base;

	if (!h)
		h = str_or(hb_json_get(hb_json_get(meta, "shard"), "node"), NULL);
	if (h)
		return xstrdup(h);
	copy = xstrdup(dir);
	base = xstrdup(basename(copy));
	free(copy);
	return base;
}
