/* Decoding the few x86-64 instructions the project's plugins treat apart, from the bytes
 * QEMU hands a plugin at translation time (qemu_plugin_insn_data): the section markers of
 * guest/marker.h, the rep string instructions and hlt. Pure functions, no QEMU: the unit
 * tests run them on byte strings (tests/plugins/).
 *
 * Why by hand: the only x86 decoder QEMU offers a plugin is a disassembly string
 * (qemu_plugin_insn_disas, capstone's text), which would have to be parsed back; these
 * three shapes are a prefix scan and an opcode byte. */
#ifndef HB_PLUGINS_INSN_H
#define HB_PLUGINS_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hb_marker_kind { HB_MARKER_NONE, HB_MARKER_START, HB_MARKER_END };

/* A section marker (guest/marker.h)? HB_MARKER_START or _END with *id set, else NONE. */
enum hb_marker_kind hb_marker_decode(const uint8_t *bytes, size_t len, int *id);

/* The string operations a rep prefix repeats. Under QEMU 7.2 every iteration re-executes
 * the instruction (its TB jumps back to it), so an instruction counter sees one execution
 * per element, plus one for the final check of rcx = 0. */
enum hb_rep_op { HB_REP_MOVS, HB_REP_STOS, HB_REP_LODS, HB_REP_CMPS, HB_REP_SCAS, HB_REP_NOPS };

struct hb_rep_string {
	enum hb_rep_op op;
	unsigned elem_bytes;    /* 1, 2, 4 or 8: from the opcode, 66 and REX.W */
};

/* A rep- (F3) or repne- (F2) prefixed string instruction? Fills *out. Legacy prefixes in
 * any order, then at most one REX byte right before the opcode (a REX elsewhere is
 * ignored by the CPU, and so here). */
bool hb_rep_string_decode(const uint8_t *bytes, size_t len, struct hb_rep_string *out);

/* "movs", "stos", ... with the element size as a suffix letter: "stosb", "movsq". */
const char *hb_rep_op_name(enum hb_rep_op op);
char hb_rep_size_suffix(unsigned elem_bytes);

/* hlt (F4): under icount with sleep=off a halted vCPU lets the clock jump to the next timer
 * without executing anything, so halts mark time that is not instructions. */
bool hb_insn_is_hlt(const uint8_t *bytes, size_t len);

#endif
