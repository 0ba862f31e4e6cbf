/* The parts of the project's QEMU plugins that need no QEMU (plugins/common, the profile
 * plugin's symbol table): the marker bytes the guest's macro really emits decode as what
 * they mean; rep string element sizes from opcode, 66 and REX.W; the section state
 * machine's nesting, restarts and stray ends; vmlinux-style symbol lookups on this test's
 * own ELF file, aliases resolved the same way every time. */
#include <stdint.h>
#include <string.h>

#include "guest/marker.h"
#include "insn.h"
#include "qemu_api.h"
#include "sections.h"
#include "symbols.h"
#include "test.h"

/* Finds the first marker in the code of fn (within 256 bytes). */
static enum hb_marker_kind first_marker(const void *fn, int *id)
{
	const uint8_t *p = fn;

	for (size_t i = 0; i < 256; i++) {
		enum hb_marker_kind k = hb_marker_decode(p + i, HB_MARK_LEN, id);
		if (k != HB_MARKER_NONE)
			return k;
	}
	return HB_MARKER_NONE;
}

__attribute__((noinline, used)) void marked_start_7(void) { HB_MARK_START(7); }
__attribute__((noinline, used)) void marked_end_255(void) { HB_MARK_END(255); }
void zz_alias_of_start(void) __attribute__((alias("marked_start_7")));
void _under_alias_of_start(void) __attribute__((alias("marked_start_7")));

TEST(the_marker_macros_emit_what_the_decoder_reads)
{
	int id = -1;

	CHECK(first_marker((const void *)marked_start_7, &id) == HB_MARKER_START);
	CHECK(id == 7);
	CHECK(first_marker((const void *)marked_end_255, &id) == HB_MARKER_END);
	CHECK(id == 255);
}

TEST(only_the_exact_marker_shape_decodes)
{
	uint8_t ok[] = { 0x0f, 0x1f, 0x80, 'H', 'B', 'S', 3 };
	uint8_t pad[] = { 0x0f, 0x1f, 0x80, 0, 0, 0, 0 };        /* compiler padding */
	uint8_t kind[] = { 0x0f, 0x1f, 0x80, 'H', 'B', 'X', 3 };
	uint8_t sib[] = { 0x0f, 0x1f, 0x84, 'H', 'B', 'S', 3 };
	int id = -1;

	CHECK(hb_marker_decode(ok, sizeof(ok), &id) == HB_MARKER_START && id == 3);
	CHECK(hb_marker_decode(ok, sizeof(ok) - 1, &id) == HB_MARKER_NONE);
	CHECK(hb_marker_decode(pad, sizeof(pad), &id) == HB_MARKER_NONE);
	CHECK(hb_marker_decode(kind, sizeof(kind), &id) == HB_MARKER_NONE);
	CHECK(hb_marker_decode(sib, sizeof(sib), &id) == HB_MARKER_NONE);
	CHECK(HB_MARK_DISP('S', 3) == 0x03534248u);
}

struct rep_case {
	uint8_t bytes[6];
	size_t len;
	int rep;                 /* 1: a rep string instruction */
	enum hb_rep_op op;
	unsigned size;
	const char *name;
};

TEST(rep_string_instructions_decode_with_their_element_size)
{
	static const struct rep_case cases[] = {
		{ { 0xf3, 0xaa }, 2, 1, HB_REP_STOS, 1, "stosb" },          /* clear_page_erms */
		{ { 0xf3, 0x48, 0xab }, 3, 1, HB_REP_STOS, 8, "stosq" },    /* clear_page_rep */
		{ { 0xf3, 0xab }, 2, 1, HB_REP_STOS, 4, "stosd" },
		{ { 0x66, 0xf3, 0xab }, 3, 1, HB_REP_STOS, 2, "stosw" },
		{ { 0xf3, 0xa4 }, 2, 1, HB_REP_MOVS, 1, "movsb" },          /* memcpy_erms */
		{ { 0xf3, 0x48, 0xa5 }, 3, 1, HB_REP_MOVS, 8, "movsq" },
		{ { 0xf2, 0xae }, 2, 1, HB_REP_SCAS, 1, "scasb" },          /* repne scasb */
		{ { 0xf3, 0x48, 0xa7 }, 3, 1, HB_REP_CMPS, 8, "cmpsq" },
		/* A REX that is not right before the opcode is ignored by the CPU. */
		{ { 0x48, 0xf3, 0xa5 }, 3, 1, HB_REP_MOVS, 4, "movsd" },
		{ { 0xaa }, 1, 0, 0, 0, NULL },                              /* no rep: one store */
		{ { 0xf3, 0x0f, 0xb8, 0xc0 }, 4, 0, 0, 0, NULL },            /* popcnt */
		{ { 0xf3, 0x90 }, 2, 0, 0, 0, NULL },                        /* pause */
		{ { 0xf3, 0xc3 }, 2, 0, 0, 0, NULL },                        /* rep ret */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rep_case *c = &cases[i];
		struct hb_rep_string r = { 0 };
		char name[8];
		bool got = hb_rep_string_decode(c->bytes, c->len, &r);
		CHECK(got == (bool)c->rep, "case %zu: rep %d", i, c->rep);
		if (!got || !c->rep)
			continue;
		snprintf(name, sizeof(name), "%s%c", hb_rep_op_name(r.op), hb_rep_size_suffix(r.elem_bytes));
		CHECK(r.op == c->op && r.elem_bytes == c->size, "case %zu", i);
		CHECK_STR(name, c->name);
	}
	CHECK(hb_insn_is_hlt((const uint8_t[]){ 0xf4 }, 1));
	CHECK(!hb_insn_is_hlt((const uint8_t[]){ 0xf4, 0x00 }, 2));
}

struct events {
	char log[256];
};

static void ev_start(void *ctx, int id, bool restart)
{
	struct events *e = ctx;
	size_t n = strlen(e->log);
	snprintf(e->log + n, sizeof(e->log) - n, "S%d%s ", id, restart ? "r" : "");
}

static void ev_end(void *ctx, int id)
{
	struct events *e = ctx;
	size_t n = strlen(e->log);
	snprintf(e->log + n, sizeof(e->log) - n, "E%d ", id);
}

TEST(sections_nest_by_id_restart_and_ignore_stray_ends)
{
	struct events e = { "" };
	struct hb_section_hooks h = { .start = ev_start, .end = ev_end, .ctx = &e };

	hb_sections_init(&h);
	hb_sections_event(HB_MARKER_END, 0);        /* stray: nothing armed */
	hb_sections_event(HB_MARKER_START, 0);
	hb_sections_event(HB_MARKER_START, 1);
	CHECK(hb_section_armed(0) && hb_section_armed(1));
	hb_sections_event(HB_MARKER_END, 1);
	hb_sections_event(HB_MARKER_START, 1);
	hb_sections_event(HB_MARKER_START, 1);      /* restart */
	hb_sections_event(HB_MARKER_END, 1);
	hb_sections_event(HB_MARKER_END, 0);
	hb_sections_event(HB_MARKER_END, 0);        /* stray again */
	hb_sections_event(HB_MARKER_START, 300);    /* out of range: ignored */
	CHECK_STR(e.log, "S0 S1 E1 S1 S1r E1 E0 ");
	struct hb_section_stats s = hb_sections_stats();
	CHECK(s.started == 4 && s.ended == 3 && s.restarts == 1 && s.stray_ends == 2,
	      "started %lu ended %lu restarts %lu stray %lu", (unsigned long)s.started,
	      (unsigned long)s.ended, (unsigned long)s.restarts, (unsigned long)s.stray_ends);
	CHECK(!hb_section_armed(0) && !hb_section_armed(1));
}

/* QEMU's side of hb_sections_instrument, played by the test: an instruction is its bytes,
 * and registering a callback records it, to be "executed" by the test. */
struct qemu_plugin_insn {
	const uint8_t *bytes;
	size_t len;
	qemu_plugin_vcpu_udata_cb_t cb;
	void *udata;
};

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn) { return insn->bytes; }
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn) { return insn->len; }
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	insn->cb = cb;
	insn->udata = userdata;
}

TEST(marker_instructions_get_a_callback_that_drives_the_sections)
{
	uint8_t start[] = { 0x0f, 0x1f, 0x80, 'H', 'B', 'S', 42 };
	uint8_t end[] = { 0x0f, 0x1f, 0x80, 'H', 'B', 'E', 42 };
	uint8_t other[] = { 0xf3, 0xaa };
	struct qemu_plugin_insn s = { .bytes = start, .len = sizeof(start) },
				e = { .bytes = end, .len = sizeof(end) },
				o = { .bytes = other, .len = sizeof(other) };
	struct events ev = { "" };
	struct hb_section_hooks h = { .start = ev_start, .end = ev_end, .ctx = &ev };

	hb_sections_init(&h);
	CHECK(hb_sections_instrument(&s) && s.cb);
	CHECK(hb_sections_instrument(&e) && e.cb);
	CHECK(!hb_sections_instrument(&o) && !o.cb);
	if (!s.cb || !e.cb)
		return;
	s.cb(0, s.udata);
	CHECK(hb_section_armed(42));
	e.cb(1, e.udata); /* another vCPU ends it: one state for all */
	CHECK(!hb_section_armed(42));
	CHECK_STR(ev.log, "S42 E42 ");
}

static long index_of(const struct hb_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->sym[i].name, name))
			return (long)i;
	return -1;
}

TEST(symbols_of_an_elf_file_resolve_addresses_and_aliases)
{
	struct hb_symtab st;
	char why[256] = "";
	long i;

	CHECK(hb_symtab_load(&st, "/proc/self/exe", why, sizeof(why)) == 0, "%s", why);
	if (!st.n)
		return;
	/* Three names at one address: the global without an underscore, first by name. */
	i = index_of(&st, "marked_start_7");
	CHECK(i >= 0);
	CHECK(index_of(&st, "zz_alias_of_start") < 0 && index_of(&st, "_under_alias_of_start") < 0);
	if (i >= 0) {
		CHECK(hb_symtab_find(&st, st.sym[i].start) == i);
		CHECK(hb_symtab_find(&st, st.sym[i].end - 1) == i);
		CHECK(st.sym[i].end > st.sym[i].start);
	}
	for (size_t k = 1; k < st.n; k++)
		CHECK(st.sym[k - 1].end <= st.sym[k].start, "%s overlaps %s", st.sym[k - 1].name,
		      st.sym[k].name);
	CHECK(hb_symtab_find(&st, st.lo - 1) == -1);
	CHECK(hb_symtab_find(&st, st.hi) == -1);
	hb_symtab_free(&st);
	CHECK(hb_symtab_load(&st, "/nonexistent/vmlinux", why, sizeof(why)) == -1);
	CHECK_HAS(why, "cannot open /nonexistent/vmlinux");
	CHECK(hb_symtab_load(&st, "/proc/self/status", why, sizeof(why)) == -1);
	CHECK_HAS(why, "not a readable ELF file");
}

TEST_MAIN()
