/* hb-profile.so: a QEMU TCG plugin (QEMU 7.2, plugin API version 1) that counts the guest
 * instructions each kernel function executes inside the sections the guest marks
 * (guest/marker.h), and writes one profile per section. `harness run --profile` loads it;
 * `harness boot --qemu-plugin PATH,vmlinux=...,out=...` does too. TCG only.
 *
 * Arguments: vmlinux=PATH (the kernel's symbols; without it all kernel code is one bucket),
 * out=PATH (created, never overwritten; default stderr), sections=N (the most sections
 * written; default 100000).
 *
 * How it counts: every instruction gets an inline add of 1 to its bucket's counter at
 * translation time (no callback per instruction): a kernel function of vmlinux, or one of
 * the buckets of FIXED_BUCKETS. A rep string instruction also adds to a counter of its
 * own (function, operation, element size), so its executions, one per element under QEMU
 * 7.2, are counted apart; hlt adds to a halt counter (time that is not instructions under
 * icount's sleep=off). The marker instructions alone get a callback: a start copies the
 * counters, an end writes the differences. So a section's profile is exact to the
 * instruction and its total is the section's instruction count, which under icount
 * (shift 0) is its nanoseconds when no vCPU halted.
 *
 * Inline adds are not atomic: under MTTCG (host clock, several vCPUs) counts would be lost;
 * under icount every vCPU runs in one thread (the harness refuses the former).
 *
 * Output format (profile_format.h; docs/profile.md): text lines, one section after another. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/marker.h"
#include "insn.h"
#include "profile_format.h"
#include "qemu_api.h"
#include "sections.h"
#include "symbols.h"

HB_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* Buckets that are not vmlinux functions, after the functions' counters. */
enum { B_USER, B_MODULES, B_KERNEL_OTHER, FIXED_BUCKETS };
static const char *const fixed_names[FIXED_BUCKETS] = {
	[B_USER] = HB_PROFILE_USER, [B_MODULES] = HB_PROFILE_MODULES,
	[B_KERNEL_OTHER] = HB_PROFILE_KERNEL_OTHER,
};
/* x86-64: the kernel half starts here; modules live in [MODULES_VADDR, MODULES_END). */
#define KERNEL_HALF 0xffff800000000000ull
#define MODULES_VADDR 0xffffffffa0000000ull
#define MODULES_END 0xffffffffff000000ull

#define REP_SITES_MAX 4096

struct rep_site {
	uint32_t bucket;
	uint8_t op, elem_bytes;
};

/* All counters in one array, so a snapshot is one copy: the buckets, then the rep sites,
 * then the halts. Addresses never move after install (inline ops hold them). */
static struct {
	struct hb_symtab syms;
	size_t nbuckets;               /* functions + FIXED_BUCKETS */
	size_t ncounters;              /* nbuckets + REP_SITES_MAX + 1 */
	uint64_t *count;
	struct rep_site sites[REP_SITES_MAX];
	size_t nsites;
	uint64_t sites_dropped;        /* rep instructions beyond REP_SITES_MAX: in their bucket only */
	uint64_t *snap[HB_MARK_ID_MAX + 1];
	uint64_t seq, max_sections, dropped_sections;
	FILE *out;
} P;

static uint64_t *halts(void) { return &P.count[P.nbuckets + REP_SITES_MAX]; }

static size_t bucket_of(uint64_t vaddr)
{
	long s;

	if (vaddr < KERNEL_HALF)
		return P.nbuckets - FIXED_BUCKETS + B_USER;
	s = hb_symtab_find(&P.syms, vaddr);
	if (s >= 0)
		return (size_t)s;
	if (vaddr >= MODULES_VADDR && vaddr < MODULES_END)
		return P.nbuckets - FIXED_BUCKETS + B_MODULES;
	return P.nbuckets - FIXED_BUCKETS + B_KERNEL_OTHER;
}

static const char *bucket_name(size_t b)
{
	size_t nf = P.nbuckets - FIXED_BUCKETS;
	return b < nf ? P.syms.sym[b].name : fixed_names[b - nf];
}

/* The counter of (bucket, rep string) at translation time; NULL when the table is full. */
static uint64_t *rep_site(size_t bucket, const struct hb_rep_string *r)
{
	for (size_t i = 0; i < P.nsites; i++)
		if (P.sites[i].bucket == bucket && P.sites[i].op == r->op &&
		    P.sites[i].elem_bytes == r->elem_bytes)
			return &P.count[P.nbuckets + i];
	if (P.nsites == REP_SITES_MAX) {
		P.sites_dropped++;
		return NULL;
	}
	P.sites[P.nsites] = (struct rep_site){ .bucket = (uint32_t)bucket, .op = (uint8_t)r->op,
					       .elem_bytes = (uint8_t)r->elem_bytes };
	return &P.count[P.nbuckets + P.nsites++];
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		size_t b = bucket_of(qemu_plugin_insn_vaddr(insn));
		struct hb_rep_string rep;

		hb_sections_instrument(insn);
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &P.count[b], 1);
		if (hb_rep_string_decode(bytes, len, &rep)) {
			uint64_t *c = rep_site(b, &rep);
			if (c)
				qemu_plugin_register_vcpu_insn_exec_inline(
					insn, QEMU_PLUGIN_INLINE_ADD_U64, c, 1);
		} else if (hb_insn_is_hlt(bytes, len)) {
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   halts(), 1);
		}
	}
}

static void on_start(void *ctx, int id, bool restart)
{
	(void)ctx;
	(void)restart; /* the new start wins; the stats count restarts */
	if (!P.snap[id] && !(P.snap[id] = malloc(P.ncounters * sizeof(uint64_t))))
		return; /* no memory: on_end finds no snapshot and drops the section */
	memcpy(P.snap[id], P.count, P.ncounters * sizeof(uint64_t));
}

static void write_section(int id, const uint64_t *base)
{
	uint64_t total = 0;

	for (size_t b = 0; b < P.nbuckets; b++)
		total += P.count[b] - base[b];
	fprintf(P.out, HB_PROFILE_SECTION_LINE "\n", P.seq, id, total,
		*halts() - base[P.ncounters - 1]);
	for (size_t b = 0; b < P.nbuckets; b++)
		if (P.count[b] != base[b])
			fprintf(P.out, HB_PROFILE_FUNC_LINE "\n", P.count[b] - base[b], bucket_name(b));
	for (size_t i = 0; i < P.nsites; i++) {
		size_t c = P.nbuckets + i;
		if (P.count[c] != base[c])
			fprintf(P.out, HB_PROFILE_REP_LINE "\n", P.count[c] - base[c],
				bucket_name(P.sites[i].bucket), hb_rep_op_name(P.sites[i].op),
				hb_rep_size_suffix(P.sites[i].elem_bytes));
	}
	fprintf(P.out, HB_PROFILE_END_LINE "\n", P.seq);
	fflush(P.out); /* whole sections reach the file even if QEMU is killed later */
}

static void on_end(void *ctx, int id)
{
	(void)ctx;
	if (!P.snap[id])
		return;
	if (P.seq < P.max_sections)
		write_section(id, P.snap[id]);
	else
		P.dropped_sections++;
	P.seq++;
}

static void on_exit_report(qemu_plugin_id_t id, void *ud)
{
	struct hb_section_stats s = hb_sections_stats();

	(void)id;
	(void)ud;
	fprintf(P.out, HB_PROFILE_EXIT_LINE "\n", s.started, s.ended, s.restarts, s.stray_ends,
		P.dropped_sections, P.sites_dropped);
	fflush(P.out);
	if (P.out != stderr)
		fclose(P.out);
	for (size_t i = 0; i <= HB_MARK_ID_MAX; i++)
		free(P.snap[i]);
	free(P.count);
	hb_symtab_free(&P.syms);
}

static int fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "hb-profile: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return -1;
}

/* out=PATH: a new file (O_EXCL, O_NOFOLLOW), never one that exists. */
static FILE *open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f && fd >= 0)
		close(fd);
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

HB_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc,
					 char **argv)
{
	const char *vmlinux = NULL, *out = NULL;
	struct hb_section_hooks hooks = { .start = on_start, .end = on_end };
	char why[512];

	(void)info;
	P.max_sections = 100000;
	for (int i = 0; i < argc; i++) {
		char *end;
		if (!strncmp(argv[i], "vmlinux=", 8) && argv[i][8]) {
			vmlinux = argv[i] + 8;
		} else if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out = argv[i] + 4;
		} else if (!strncmp(argv[i], "sections=", 9)) {
			errno = 0;
			P.max_sections = strtoull(argv[i] + 9, &end, 10);
			if (errno || end == argv[i] + 9 || *end)
				return fail("bad argument '%s'%s (accepted: sections=N)", argv[i], "");
		} else {
			return fail("bad argument '%s'%s (accepted: vmlinux=PATH out=PATH sections=N)",
				    argv[i], "");
		}
	}
	if (vmlinux && hb_symtab_load(&P.syms, vmlinux, why, sizeof(why)) < 0)
		return fail("vmlinux=%s: %s", vmlinux, why);
	P.out = out ? open_out(out) : stderr;
	if (!P.out)
		return fail("out=%s: %s (accepted: a file that does not exist yet)", out,
			    strerror(errno));
	P.nbuckets = P.syms.n + FIXED_BUCKETS;
	P.ncounters = P.nbuckets + REP_SITES_MAX + 1;
	P.count = calloc(P.ncounters, sizeof(uint64_t));
	if (!P.count)
		return fail("%s%s", "out of memory", "");
	/* Without symbols every kernel address falls in [kernel other]. */
	fprintf(P.out, HB_PROFILE_HEADER_LINE "\n", HB_PROFILE_FORMAT_VERSION, P.syms.n,
		vmlinux ? vmlinux : "-");
	hb_sections_init(&hooks);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
	return 0;
}
