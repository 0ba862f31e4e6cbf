/* The QEMU of a set and the rule for putting two sets side by side (provenance.h). One
 * rule for gate, merge and report --compare, as the clock rule is one. */
#include "results/provenance.h"

#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/xalloc.h"
#include "results/store.h"

static const char *text(json_object *v)
{
	return v && json_object_is_type(v, json_type_string) && *json_object_get_string(v)
		? json_object_get_string(v) : NULL;
}

const char *rs_qemu_version(json_object *meta)
{
	return text(hb_json_get(hb_json_get(meta, RS_META_QEMU), "version"));
}

/* icount counts instructions; "model" (a modelled clock) prices them: both are QEMU's
 * translation of the guest. Any other name is a host clock. */
static bool counts(const char *clock)
{
	return clock && (!strcmp(clock, "icount") || !strcmp(clock, "model"));
}

bool rs_counted_clock(json_object *meta)
{
	json_object *c = hb_json_get(meta, RS_META_CLOCK), *ws;

	if (counts(text(c)) || counts(text(hb_json_get(c, "name"))))
		return true;
	ws = hb_json_get(c, "workloads");
	if (!ws || !json_object_is_type(ws, json_type_object))
		return false;
	json_object_object_foreach(ws, name, w) {
		(void)name;
		if (counts(text(hb_json_get(w, "name"))))
			return true;
	}
	return false;
}

int rs_qemu_check(json_object *a, json_object *b, const char *name_a, const char *name_b, char **why)
{
	const char *va = rs_qemu_version(a), *vb = rs_qemu_version(b);
	bool counted = rs_counted_clock(a) || rs_counted_clock(b);

	*why = NULL;
	if (va && vb && !strcmp(va, vb))
		return 0;
	if (!va && !vb)
		return 0; /* two sets from before the record: nothing to say that was not true before */
	if (!va || !vb) {
		if (!counted)
			return 0;
		*why = xasprintf("%s does not record which QEMU ran it (%s: QEMU %s): its instruction "
				 "counts may come from another QEMU", va ? name_b : name_a,
				 va ? name_a : name_b, va ? va : vb);
		return 1;
	}
	if (counted) {
		*why = xasprintf("%s was measured with QEMU %s, %s with QEMU %s: instruction counts of "
				 "different QEMU versions do not compare (accepted: sets measured with the "
				 "same QEMU)", name_a, va, name_b, vb);
		return -1;
	}
	*why = xasprintf("%s was measured with QEMU %s, %s with QEMU %s (host clock: times are the "
			 "host's, but the emulator differs)", name_a, va, name_b, vb);
	return 1;
}
