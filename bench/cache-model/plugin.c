/* hb-cache-model.so: a QEMU TCG plugin (QEMU 7.2's plugin API, version 1) that feeds every
 * guest data access to the cache model of cache_model.c and prints its counts when QEMU
 * exits, as "hb-cache-model: NAME VALUE" lines on QEMU's stderr (qemu.log in a boot's log
 * folder). Load it with `harness boot --qemu-plugin PATH[,ARG=VALUE...]`, TCG only.
 *
 * Arguments (all optional): l1=BYTES l1_ways=N l2=BYTES l2_ways=N (default 32 KiB 8-way
 * and 1 MiB 16-way, a server core's L1d and L2), range=LO-HI (hex virtual addresses whose
 * accesses are also counted apart; default x86-64's KASAN shadow with 4-level paging),
 * mem=BYTES (guest RAM tracked for first touches; default 16 GiB).
 *
 * Under icount the plugin changes no guest time: the guest's clock counts its
 * instructions, and the plugin's callbacks run outside them.
 *
 * The API's declarations: plugins/common/qemu_api.h (Debian packages no qemu-plugin.h). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_model.h"
#include "qemu_api.h"

HB_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define KASAN_SHADOW_LO 0xffffec0000000000ull /* x86-64, 4-level paging */
#define KASAN_SHADOW_HI 0xfffffc0000000000ull

/* The model is shared by all vCPUs (one cache, as a socket's last level is): QEMU's only
 * per-callback context is a per-instruction udata, so it lives here. Under icount the
 * vCPUs take turns on one host thread; under the host clock with several vCPUs (MTTCG)
 * they run at once, hence the lock. */
static struct cache_model model;
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
	struct qemu_plugin_hwaddr *h = qemu_plugin_get_hwaddr(info, vaddr);

	(void)vcpu;
	(void)ud;
	if (!h || qemu_plugin_hwaddr_is_io(h))
		return;
	pthread_mutex_lock(&model_lock);
	cm_access(&model, vaddr, qemu_plugin_hwaddr_phys_addr(h));
	pthread_mutex_unlock(&model_lock);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++)
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_access,
						 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
}

/* To stderr, not qemu_plugin_outs: that goes to QEMU's log only with -d plugin. */
static void out(const char *name, uint64_t value)
{
	fprintf(stderr, "hb-cache-model: %s %" PRIu64 "\n", name, value);
}

static void on_exit_report(qemu_plugin_id_t id, void *ud)
{
	(void)id;
	(void)ud;
	out("accesses", model.all.accesses);
	out("l1_misses", model.all.misses[0]);
	out("l2_misses", model.all.misses[1]);
	out("range_accesses", model.in_range.accesses);
	out("range_l1_misses", model.in_range.misses[0]);
	out("range_l2_misses", model.in_range.misses[1]);
	out("first_touched_4k_pages", model.new_pages);
	out("first_touched_2m_pages", model.new_huge_pages);
	cm_free(&model);
}

struct settings {
	uint64_t l1, l1_ways, l2, l2_ways, mem, lo, hi;
};

/* One ARG=VALUE; -1 with a message on stderr (QEMU's log) when it is not one of ours. */
static int parse_arg(const char *arg, struct settings *s)
{
	static const struct { const char *name; size_t off; } keys[] = {
		{ "l1=", offsetof(struct settings, l1) },
		{ "l1_ways=", offsetof(struct settings, l1_ways) },
		{ "l2=", offsetof(struct settings, l2) },
		{ "l2_ways=", offsetof(struct settings, l2_ways) },
		{ "mem=", offsetof(struct settings, mem) },
	};
	char *end;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t len = strlen(keys[i].name);
		if (strncmp(arg, keys[i].name, len))
			continue;
		errno = 0;
		uint64_t v = strtoull(arg + len, &end, 0);
		if (errno || end == arg + len || *end || !v)
			break;
		*(uint64_t *)((char *)s + keys[i].off) = v;
		return 0;
	}
	if (!strncmp(arg, "range=", 6)) {
		errno = 0;
		s->lo = strtoull(arg + 6, &end, 16);
		if (!errno && *end == '-' && (s->hi = strtoull(end + 1, &end, 16), !errno && !*end) &&
		    s->lo < s->hi)
			return 0;
	}
	fprintf(stderr, "hb-cache-model: bad argument '%s' (accepted: l1=BYTES l1_ways=N l2=BYTES "
		"l2_ways=N mem=BYTES, positive; range=LO-HI in hex, LO below HI)\n", arg);
	return -1;
}

HB_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv)
{
	struct settings s = { .l1 = 32 << 10, .l1_ways = 8, .l2 = 1 << 20, .l2_ways = 16,
			      .mem = 16ull << 30, .lo = KASAN_SHADOW_LO, .hi = KASAN_SHADOW_HI };

	(void)info;
	for (int i = 0; i < argc; i++)
		if (parse_arg(argv[i], &s) < 0)
			return -1;
	if (s.l1_ways > 64 || s.l2_ways > 64 ||
	    cm_init(&model, s.l1, (unsigned)s.l1_ways, s.l2, (unsigned)s.l2_ways, s.mem) < 0) {
		fprintf(stderr, "hb-cache-model: cannot set up l1=%" PRIu64 " l1_ways=%" PRIu64
			" l2=%" PRIu64 " l2_ways=%" PRIu64 " (accepted: ways 1 to 64, a size a "
			"multiple of ways x %d bytes): %s\n", s.l1, s.l1_ways, s.l2, s.l2_ways,
			CM_LINE_BYTES, strerror(errno));
		return -1;
	}
	model.range_lo = s.lo;
	model.range_hi = s.hi;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
	return 0;
}
