#include "insn.h"

#include "guest/marker.h"

enum hb_marker_kind hb_marker_decode(const uint8_t *b, size_t len, int *id)
{
	if (len != HB_MARK_LEN || b[0] != HB_MARK_OP0 || b[1] != HB_MARK_OP1 ||
	    b[2] != HB_MARK_MODRM || b[3] != HB_MARK_TAG0 || b[4] != HB_MARK_TAG1)
		return HB_MARKER_NONE;
	*id = b[6];
	if (b[5] == HB_MARK_START_KIND)
		return HB_MARKER_START;
	if (b[5] == HB_MARK_END_KIND)
		return HB_MARKER_END;
	return HB_MARKER_NONE;
}

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3:                       /* lock, repne, rep */
	case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65: /* segments */
	case 0x66: case 0x67:                                  /* operand, address size */
		return true;
	default:
		return false;
	}
}

bool hb_rep_string_decode(const uint8_t *b, size_t len, struct hb_rep_string *out)
{
	bool rep = false, opsize16 = false, rexw = false;
	size_t i = 0;

	for (; i < len && (is_legacy_prefix(b[i]) || (b[i] & 0xf0) == 0x40); i++) {
		rep |= b[i] == 0xf3 || b[i] == 0xf2;
		opsize16 |= b[i] == 0x66;
		/* REX: only the one right before the opcode counts */
		rexw = (b[i] & 0xf0) == 0x40 ? (b[i] & 0x08) != 0 : false;
	}
	if (!rep || i + 1 != len)
		return false; /* string instructions are one opcode byte, no operands */
	switch (b[i]) {
	case 0xa4: case 0xa5: out->op = HB_REP_MOVS; break;
	case 0xa6: case 0xa7: out->op = HB_REP_CMPS; break;
	case 0xaa: case 0xab: out->op = HB_REP_STOS; break;
	case 0xac: case 0xad: out->op = HB_REP_LODS; break;
	case 0xae: case 0xaf: out->op = HB_REP_SCAS; break;
	default: return false;
	}
	out->elem_bytes = !(b[i] & 1) ? 1 : rexw ? 8 : opsize16 ? 2 : 4;
	return true;
}

const char *hb_rep_op_name(enum hb_rep_op op)
{
	static const char *const names[HB_REP_NOPS] = { "movs", "stos", "lods", "cmps", "scas" };
	return op < HB_REP_NOPS ? names[op] : "?";
}

char hb_rep_size_suffix(unsigned elem_bytes)
{
	switch (elem_bytes) {
	case 1: return 'b';
	case 2: return 'w';
	case 4: return 'd';
	case 8: return 'q';
	default: return '?';
	}
}

bool hb_insn_is_hlt(const uint8_t *b, size_t len)
{
	return len == 1 && b[0] == 0xf4;
}
