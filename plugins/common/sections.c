#include "sections.h"

#include <stdint.h>

#include "guest/marker.h"
#include "qemu_api.h"

static struct {
	struct hb_section_hooks hooks;
	bool armed[HB_MARK_ID_MAX + 1];
	struct hb_section_stats stats;
} st;

void hb_sections_init(const struct hb_section_hooks *hooks)
{
	st.hooks = *hooks;
}

void hb_sections_event(enum hb_marker_kind kind, int id)
{
	if (id < 0 || id > HB_MARK_ID_MAX)
		return;
	if (kind == HB_MARKER_START) {
		bool restart = st.armed[id];
		st.armed[id] = true;
		st.stats.started++;
		st.stats.restarts += restart;
		if (st.hooks.start)
			st.hooks.start(st.hooks.ctx, id, restart);
	} else if (kind == HB_MARKER_END) {
		if (!st.armed[id]) {
			st.stats.stray_ends++;
			return;
		}
		st.armed[id] = false;
		st.stats.ended++;
		if (st.hooks.end)
			st.hooks.end(st.hooks.ctx, id);
	}
}

/* The callback's udata packs the kind and the id: no allocation per marker site. */
static void on_marker(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;

	(void)vcpu;
	hb_sections_event((enum hb_marker_kind)(v >> 8), (int)(v & 0xff));
}

bool hb_sections_instrument(struct qemu_plugin_insn *insn)
{
	int id;
	enum hb_marker_kind kind = hb_marker_decode(qemu_plugin_insn_data(insn),
						    qemu_plugin_insn_size(insn), &id);

	if (kind == HB_MARKER_NONE)
		return false;
	qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
					       (void *)(uintptr_t)((unsigned)kind << 8 | (unsigned)id));
	return true;
}

bool hb_section_armed(int id)
{
	return id >= 0 && id <= HB_MARK_ID_MAX && st.armed[id];
}

struct hb_section_stats hb_sections_stats(void)
{
	return st.stats;
}
