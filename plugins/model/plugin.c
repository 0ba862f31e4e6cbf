/* hb-model.so: the counting half of `--clock model` (docs/model.md), a QEMU TCG plugin (QEMU
 * 7.2, plugin API version 1). Between a start and an end marker of the guest
 * (guest/marker.h), for kernel mode and user mode apart, it counts what the model prices:
 * instructions, rep stos/movs elements by element size and the rep instructions started,
 * other rep executions, and, through bench/cache-model's cache model, data accesses that
 * miss its first level (hit or miss the second) and guest pages touched for the first
 * time. At each section's end it writes one line (plugins/model/model_format.h) to stderr,
 * which QEMU's log keeps and the harness reads (harness/model/). It changes no guest time:
 * under icount the guest's clock counts instructions, and the plugin's work is outside
 * them. TCG only; `harness run --clock model` loads it.
 *
 * Arguments (optional): mem=BYTES, the guest RAM tracked for first touches (default 64 GiB).
 *
 * How it counts (why it stays cheap): inline adds at translation time for instructions and
 * rep executions, one callback per data access (the cache model needs each address), one
 * per marker. A rep string instruction ends its translation block under QEMU 7.2 and each
 * further element re-enters a block that starts at it, so an execution of it at a block's
 * first instruction is a continuation and one after others in its block is a start; each
 * rep instruction also executes once more to find rcx at 0, so its elements are its
 * executions minus its starts. A rep entered by a jump straight to it counts as a
 * continuation (one element too many, no start): rare in kernel code, where a count is
 * loaded right before.
 *
 * Under icount every vCPU runs in one host thread, so the counters need no lock; under
 * MTTCG (the host clock, several vCPUs) counts would race: the harness loads it only
 * with icount. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_model.h"
#include "guest/marker.h"
#include "insn.h"
#include "plugins/model/model_format.h"
#include "qemu_api.h"
#include "sections.h"

HB_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define KERNEL_HALF 0xffff800000000000ull

/* Raw counters per mode; the reported fields are derived from them (report()). */
enum raw {
	R_INSNS,
	R_STOS_EXEC,                 /* 4 sizes: 1, 2, 4, 8 bytes */
	R_MOVS_EXEC = R_STOS_EXEC + 4,
	R_STOS_START = R_MOVS_EXEC + 4,
	R_MOVS_START = R_STOS_START + 4,
	R_OTHER = R_MOVS_START + 4,
	R_L2_HITS,
	R_L2_MISSES,
	R_NEW_4K,
	R_NEW_2M,
	R_COUNT
};

static struct {
	uint64_t c[HB_MODEL_NMODES][R_COUNT];
	uint64_t snap[HB_MARK_ID_MAX + 1][HB_MODEL_NMODES][R_COUNT];
	int snap_rep[HB_MARK_ID_MAX + 1];
	uint64_t reps;               /* id-0 sections started: the next repetition's ordinal */
	int rep;                     /* the current repetition's ordinal */
	struct cache_model cm;
} P;

static int size_index(unsigned bytes)
{
	return bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
}

/* udata of a memory callback: bit 0 the mode, bit 1 "a rep stos/movs". */
static void on_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
	struct qemu_plugin_hwaddr *h = qemu_plugin_get_hwaddr(info, vaddr);
	uintptr_t u = (uintptr_t)ud;
	uint64_t *c = P.c[u & 1];
	uint64_t m0 = P.cm.all.misses[0], m1 = P.cm.all.misses[1];
	uint64_t p4 = P.cm.new_pages, p2 = P.cm.new_huge_pages;

	(void)vcpu;
	if (!h || qemu_plugin_hwaddr_is_io(h))
		return;
	cm_access(&P.cm, vaddr, qemu_plugin_hwaddr_phys_addr(h));
	if (!(u & 2)) { /* a string op's price is a bandwidth, its misses included */
		uint64_t l1 = P.cm.all.misses[0] - m0, l2 = P.cm.all.misses[1] - m1;
		c[R_L2_HITS] += l1 - l2;
		c[R_L2_MISSES] += l2;
	}
	c[R_NEW_4K] += P.cm.new_pages - p4;
	c[R_NEW_2M] += P.cm.new_huge_pages - p2;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		int mode = qemu_plugin_insn_vaddr(insn) >= KERNEL_HALF ? HB_MODEL_KERNEL : HB_MODEL_USER;
		uint64_t *c = P.c[mode];
		struct hb_rep_string rep;
		bool string = false;

		hb_sections_instrument(insn);
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &c[R_INSNS], 1);
		if (hb_rep_string_decode(bytes, len, &rep)) {
			int s = size_index(rep.elem_bytes);
			string = rep.op == HB_REP_STOS || rep.op == HB_REP_MOVS;
			if (string) {
				int exec = (rep.op == HB_REP_STOS ? R_STOS_EXEC : R_MOVS_EXEC) + s;
				int start = (rep.op == HB_REP_STOS ? R_STOS_START : R_MOVS_START) + s;
				qemu_plugin_register_vcpu_insn_exec_inline(
					insn, QEMU_PLUGIN_INLINE_ADD_U64, &c[exec], 1);
				if (i > 0)
					qemu_plugin_register_vcpu_insn_exec_inline(
						insn, QEMU_PLUGIN_INLINE_ADD_U64, &c[start], 1);
			} else {
				qemu_plugin_register_vcpu_insn_exec_inline(
					insn, QEMU_PLUGIN_INLINE_ADD_U64, &c[R_OTHER], 1);
			}
		}
		qemu_plugin_register_vcpu_mem_cb(insn, on_access, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)(uintptr_t)(mode | (string ? 2 : 0)));
	}
}

static void on_start(void *ctx, int id, bool restart)
{
	(void)ctx;
	if (id == HB_MARK_ID_JOB && !restart)
		P.rep = (int)P.reps++;
	P.snap_rep[id] = P.rep;
	memcpy(P.snap[id], P.c, sizeof(P.c));
}

/* One mode's reported fields from its raw counters over the section. */
static void fields(const uint64_t *now, const uint64_t *then, uint64_t *f)
{
	uint64_t d[R_COUNT];

	for (int i = 0; i < R_COUNT; i++)
		d[i] = now[i] - then[i];
	f[HB_MODEL_INSNS] = d[R_INSNS];
	for (int s = 0; s < 4; s++) {
		uint64_t es = d[R_STOS_EXEC + s], ss = d[R_STOS_START + s];
		uint64_t em = d[R_MOVS_EXEC + s], sm = d[R_MOVS_START + s];
		f[HB_MODEL_STOS1 + s] = es > ss ? es - ss : 0;
		f[HB_MODEL_MOVS1 + s] = em > sm ? em - sm : 0;
	}
	f[HB_MODEL_OTHER] = d[R_OTHER];
	f[HB_MODEL_STOS_STARTS] = d[R_STOS_START] + d[R_STOS_START + 1] + d[R_STOS_START + 2] +
				  d[R_STOS_START + 3];
	f[HB_MODEL_MOVS_STARTS] = d[R_MOVS_START] + d[R_MOVS_START + 1] + d[R_MOVS_START + 2] +
				  d[R_MOVS_START + 3];
	f[HB_MODEL_L2_HITS] = d[R_L2_HITS];
	f[HB_MODEL_L2_MISSES] = d[R_L2_MISSES];
	f[HB_MODEL_NEW_4K] = d[R_NEW_4K];
	f[HB_MODEL_NEW_2M] = d[R_NEW_2M];
}

static void on_end(void *ctx, int id)
{
	static const char *const mode_names[HB_MODEL_NMODES] = { "kernel", "user" };
	uint64_t f[HB_MODEL_NFIELDS];

	(void)ctx;
	fprintf(stderr, HB_MODEL_PREFIX HB_MODEL_SECTION " %d %d", P.snap_rep[id], id);
	for (int m = 0; m < HB_MODEL_NMODES; m++) {
		fields(P.c[m], P.snap[id][m], f);
		fprintf(stderr, " %s", mode_names[m]);
		for (int i = 0; i < HB_MODEL_NFIELDS; i++)
			fprintf(stderr, " %" PRIu64, f[i]);
	}
	fputc('\n', stderr);
	fflush(stderr);
}

static void on_exit_report(qemu_plugin_id_t id, void *ud)
{
	struct hb_section_stats s = hb_sections_stats();

	(void)id;
	(void)ud;
	fprintf(stderr, HB_MODEL_PREFIX "exit started %" PRIu64 " ended %" PRIu64 " restarts %"
		PRIu64 " stray_ends %" PRIu64 "\n", s.started, s.ended, s.restarts, s.stray_ends);
	cm_free(&P.cm);
}

HB_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc,
					 char **argv)
{
	struct hb_section_hooks hooks = { .start = on_start, .end = on_end };
	uint64_t mem = 64ull << 30;

	(void)info;
	for (int i = 0; i < argc; i++) {
		char *end;
		errno = 0;
		if (!strncmp(argv[i], "mem=", 4) && (mem = strtoull(argv[i] + 4, &end, 0), !errno) &&
		    end != argv[i] + 4 && !*end && mem)
			continue;
		fprintf(stderr, HB_MODEL_PREFIX "bad argument '%s' (accepted: mem=BYTES, positive)\n",
			argv[i]);
		return -1;
	}
	/* The cache model's defaults (bench/cache-model/plugin.c): 32 KiB 8-way, 1 MiB 16-way. */
	if (cm_init(&P.cm, 32 << 10, 8, 1 << 20, 16, mem) < 0) {
		fprintf(stderr, HB_MODEL_PREFIX "cannot set up the cache model: %s\n", strerror(errno));
		return -1;
	}
	hb_sections_init(&hooks);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
	return 0;
}
