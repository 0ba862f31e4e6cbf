/* The timed sections a guest marks (guest/marker.h), for any plugin: recognise the markers
 * at translation time, keep which ids are armed, and call the plugin's hooks when a
 * section starts and ends. One state per QEMU process (a plugin is loaded once): under
 * icount every vCPU runs in one host thread, so the state is coherent across vCPUs.
 *
 * Use: hb_sections_init(&hooks) in qemu_plugin_install; in the translation callback, for
 * each instruction, hb_sections_instrument(insn) (true: it was a marker, its callback is
 * registered). The hooks run on the vCPU thread, before the marker instruction executes. */
#ifndef HB_PLUGINS_SECTIONS_H
#define HB_PLUGINS_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "insn.h"

struct qemu_plugin_insn;

struct hb_section_hooks {
	/* id starts (restart: it was armed already, the earlier start is dropped). */
	void (*start)(void *ctx, int id, bool restart);
	/* id, armed, ends. */
	void (*end)(void *ctx, int id);
	void *ctx;
};

struct hb_section_stats {
	uint64_t started, ended;
	uint64_t restarts;       /* a start of an id already armed */
	uint64_t stray_ends;     /* an end of an id not armed: ignored */
};

void hb_sections_init(const struct hb_section_hooks *hooks);
/* Registers the marker callback on insn when it is a marker; true then. */
bool hb_sections_instrument(struct qemu_plugin_insn *insn);
/* What a marker does when it executes (the callback's body; tests call it directly). */
void hb_sections_event(enum hb_marker_kind kind, int id);
bool hb_section_armed(int id);
struct hb_section_stats hb_sections_stats(void);

#endif
