// SPDX-License-Identifier: GPL-2.0
/*
 * xpfo_probe: checks, on a page a user process wrote, that XPFO keeps the
 * page's direct-map alias unmapped, maps it for kmap() and unmaps it again,
 * and that stale TLB entries on another CPU go away as the flush mode says.
 *
 * Builds against any 6.1 kernel with modules (XPFO or not). The process
 * writes commands to /proc/xpfo_probe and reads the result lines back:
 *
 *   info                  xpfo_info enabled=0|1 mode=none|global|deferred
 *   check ADDR VALUE      checks (a) and (b) on the page holding ADDR, whose
 *                         first 8 bytes the process set to VALUE
 *   stale ADDR VALUE CPU  kmap, read on CPU (loads its TLB), kunmap, read on
 *                         CPU again: check (c) in the global mode, its control
 *                         in the none mode (the stale entry must stay); in the
 *                         deferred mode it reports whether the entry is stale
 *   reread ADDR VALUE CPU read on CPU again: check (d), after CPU switched to
 *                         a user task
 *
 * Every result is one line: "xpfo_check NAME pass|fail|skip REASON".
 * The remote reads run in an IPI handler with copy_from_kernel_nofault(), so
 * a missing mapping makes them fail with -EFAULT rather than oops.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/pgtable_types.h>
#ifdef CONFIG_XPFO
#include <linux/xpfo.h>
#else
/* A kernel without the XPFO series: no page is ever an XPFO page. */
static inline bool xpfo_page_is_user(struct page *page) { return false; }
#endif

#define OUT_MAX 4096

static DEFINE_MUTEX(probe_lock);
static char out[OUT_MAX];
static size_t out_len;

static __printf(1, 2) void emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(out + out_len, OUT_MAX - out_len, fmt, ap);
	va_end(ap);
	out_len += n;
	if (out_len < OUT_MAX - 1)
		out[out_len++] = '\n';
	out[out_len] = '\0';
}

static void result(const char *name, const char *verdict, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	emit("xpfo_check %s %s %s", name, verdict, why);
	pr_info("xpfo_check %s %s %s\n", name, verdict, why);
}

enum mode { M_OFF, M_NONE, M_GLOBAL, M_DEFERRED };
static const char *const mode_names[] = { "off", "none", "global", "deferred" };

static enum mode xpfo_mode(void)
{
#ifdef CONFIG_XPFO
	if (!xpfo_enabled())
		return M_OFF;
	switch (xpfo_flush_mode()) {
	case XPFO_MODE_GLOBAL:
		return M_GLOBAL;
	case XPFO_MODE_DEFERRED:
		return M_DEFERRED;
	default:
		return M_NONE;
	}
#else
	return M_OFF;
#endif
}

/* Direct-map PTE of @page: 1 present, 0 not present, -1 no 4K PTE. */
static int pte_state(struct page *page, unsigned int *level)
{
	pte_t *pte = lookup_address((unsigned long)page_address(page), level);

	if (!pte)
		return -1;
	return (pte_flags(*pte) & _PAGE_PRESENT) ? 1 : 0;
}

static const char *level_name(unsigned int level)
{
	switch (level) {
	case PG_LEVEL_4K: return "4K";
	case PG_LEVEL_2M: return "2M";
	case PG_LEVEL_1G: return "1G";
	default: return "?";
	}
}

/* Read the first 8 bytes through the direct map without faulting. */
static long nofault_read(struct page *page, u64 *val)
{
	return copy_from_kernel_nofault(val, page_address(page), sizeof(*val));
}

struct remote_read {
	struct page *page;
	long ret;
	u64 val;
};

static void remote_read_fn(void *arg)
{
	struct remote_read *r = arg;

	r->ret = nofault_read(r->page, &r->val);
}

static long read_on(int cpu, struct page *page, u64 *val)
{
	struct remote_read r = { .page = page, .ret = -EINVAL };

	if (smp_call_function_single(cpu, remote_read_fn, &r, 1))
		return -ENODEV;
	*val = r.val;
	return r.ret;
}

static bool page_is_xpfo(struct page *page)
{
	return xpfo_mode() != M_OFF && xpfo_page_is_user(page);
}

/* (a) the alias is not present and a nofault read fails (XPFO), or works. */
static void check_a(struct page *page, u64 want)
{
	unsigned int level = 0;
	int state = pte_state(page, &level);
	u64 got = 0;
	long ret = nofault_read(page, &got);
	enum mode m = xpfo_mode();

	if (!page_is_xpfo(page)) {
		bool ok = state == 1 && !ret && got == want;

		result("a_pte", state == 1 ? "pass" : "fail",
		       "mode=%s alias present=%d level=%s (expected present)",
		       mode_names[m], state, level_name(level));
		result("a_read", ok ? "pass" : "fail",
		       "mode=%s nofault read ret=%ld value %s (expected readable)",
		       mode_names[m], ret, got == want ? "matches" : "differs");
		return;
	}
	result("a_pte", state == 0 && level == PG_LEVEL_4K ? "pass" : "fail",
	       "mode=%s alias present=%d level=%s (expected not present, 4K)",
	       mode_names[m], state, level_name(level));
	if (m == M_NONE && !ret)
		result("a_read", "skip",
		       "mode=none: nofault read ret=0, a stale TLB entry still serves the alias (no flush)");
	else
		result("a_read", ret == -EFAULT ? "pass" : "fail",
		       "mode=%s nofault read ret=%ld (expected -EFAULT)",
		       mode_names[m], ret);
}

/* (b) every kmap flavour makes the page readable, its kunmap unmaps it. */
static void check_b(struct page *page, u64 want)
{
	bool xpfo = page_is_xpfo(page);
	enum mode m = xpfo_mode();
	const char *bad = NULL;
	unsigned int level;
	int kind;

	for (kind = 0; kind < 3 && !bad; kind++) {
		static const char *const kinds[] = { "kmap_local_page", "kmap", "kmap_atomic" };
		u64 via_kmap, via_alias = 0;
		long ret;
		void *v;

		if (kind == 0)
			v = kmap_local_page(page);
		else if (kind == 1)
			v = kmap(page);
		else
			v = kmap_atomic(page);
		ret = copy_from_kernel_nofault(&via_kmap, v, sizeof(via_kmap));
		if (ret || via_kmap != want)
			bad = kinds[kind];
		else if (pte_state(page, &level) != 1)
			bad = kinds[kind];
		if (kind == 0)
			kunmap_local(v);
		else if (kind == 1)
			kunmap(page);
		else
			kunmap_atomic(v);
		if (bad) {
			result("b_kmap", "fail", "mode=%s %s: read ret=%ld, alias not present while mapped",
			       mode_names[m], bad, ret);
			return;
		}
		if (!xpfo)
			continue;
		if (pte_state(page, &level) != 0) {
			result("b_kmap", "fail", "mode=%s after %s's unmap the alias is still present",
			       mode_names[m], kinds[kind]);
			return;
		}
		ret = nofault_read(page, &via_alias);
		if (m != M_NONE && ret != -EFAULT) {
			result("b_kmap", "fail", "mode=%s after %s's unmap a nofault read gives %ld",
			       mode_names[m], kinds[kind], ret);
			return;
		}
	}
	result("b_kmap", "pass", xpfo ?
	       "mode=%s kmap_local_page, kmap, kmap_atomic: readable while mapped, alias not present after each unmap%s" :
	       "mode=%s kmap_local_page, kmap, kmap_atomic: readable (no XPFO: alias stays)%s",
	       mode_names[m], m == M_NONE ? " (read after unmap not checked: no flush)" : "");
}

static int other_cpu(int cpu)
{
	int c;

	if (cpu >= 0)
		return cpu_online(cpu) && cpu != smp_processor_id() ? cpu : -1;
	for_each_online_cpu(c)
		if (c != raw_smp_processor_id())
			return c;
	return -1;
}

/*
 * The reader of (c)/(d): a kernel thread bound to the other CPU. It reads the
 * alias while the page is kmapped (loading a TLB entry), then spins, without
 * any context switch, until the kunmap is done and reads again. An IPI-based
 * read would let the CPU idle in between, and QEMU/TCG appears to drop the
 * entry then, which would hide a missing flush.
 */
struct stale_reader {
	struct page *page;
	atomic_t stage;		/* 0 start, 1 first read done, 2 kunmapped, 3 done */
	long before, after;
	u64 v1, v2;
};

static int stale_reader_fn(void *arg)
{
	struct stale_reader *r = arg;
	unsigned long timeout = jiffies + 10 * HZ;

	r->before = nofault_read(r->page, &r->v1);
	atomic_set(&r->stage, 1);
	/*
	 * cond_resched() lets the stopper and other kernel threads in (no
	 * CR3 write, so the TLB entry stays); without it a stop_machine()
	 * waiting for this CPU deadlocks with the kunmapping CPU.
	 */
	while (atomic_read(&r->stage) != 2 && time_before(jiffies, timeout)) {
		cpu_relax();
		cond_resched();
	}
	r->after = nofault_read(r->page, &r->v2);
	atomic_set(&r->stage, 3);
	return 0;
}

/* Wait for @stage without sleeping for long; false on timeout (~5 s). */
static bool wait_stage(struct stale_reader *r, int stage)
{
	int i;

	for (i = 0; i < 50000 && atomic_read(&r->stage) != stage; i++)
		usleep_range(50, 100);
	return atomic_read(&r->stage) == stage;
}

/* (c)/(d) part 1: leave a TLB entry for the alias on @cpu, then kunmap. */
static void check_stale(struct page *page, u64 want, int cpu)
{
	enum mode m = xpfo_mode();
	struct stale_reader r = { .page = page, .stage = ATOMIC_INIT(0) };
	struct task_struct *t;
	long after;

	if (!page_is_xpfo(page)) {
		result("c_global", "skip", "mode=%s: no XPFO on this page", mode_names[m]);
		return;
	}
	preempt_disable();
	cpu = other_cpu(cpu);
	preempt_enable();
	if (cpu < 0) {
		result("c_global", "skip", "needs a second online CPU");
		return;
	}
	t = kthread_create(stale_reader_fn, &r, "xpfo_probe/%d", cpu);
	if (IS_ERR(t)) {
		result("c_global", "skip", "kthread_create: %ld", PTR_ERR(t));
		return;
	}
	kthread_bind(t, cpu);
	get_task_struct(t);
	kmap(page);
	wake_up_process(t);
	if (!wait_stage(&r, 1)) {
		kunmap(page);
		atomic_set(&r.stage, 2);
		kthread_stop(t);
		put_task_struct(t);
		result("c_global", "fail", "the reader on cpu%d did not run", cpu);
		return;
	}
	kunmap(page);
	atomic_set(&r.stage, 2);
	wait_stage(&r, 3);
	kthread_stop(t);
	put_task_struct(t);
	after = r.after;
	if (r.before || r.v1 != want) {
		result("c_global", "fail", "cpu%d could not read the kmapped page (ret=%ld)", cpu, r.before);
		return;
	}
	switch (m) {
	case M_GLOBAL:
		result("c_global", after == -EFAULT ? "pass" : "fail",
		       "cpu%d read the alias while kmapped, after kunmap ret=%ld (expected -EFAULT)",
		       cpu, after);
		break;
	case M_DEFERRED:
		result("c_global", "skip", "mode=deferred");
		result("d_stale", after ? "skip" : "pass",
		       "cpu%d after kunmap ret=%ld (%s)", cpu, after,
		       after ? "entry already gone before the switch" :
			       "stale entry still serves the alias until that cpu switches to a user task");
		break;
	default:
		/*
		 * The control of (c): without a flush the entry cpu read through
		 * must still serve the alias. If it does not, this machine drops
		 * such entries by itself, and a pass under the global flush would
		 * prove nothing.
		 */
		result("c_global", after ? "fail" : "pass",
		       "mode=%s (the control): cpu%d after kunmap ret=%ld (expected 0: %s)",
		       mode_names[m], cpu, after,
		       after ? "the entry went away with no flush, so (c) cannot tell a flush"
			       " from an eviction here" :
			       "the stale entry serves the alias, nothing flushed it");
		break;
	}
}

/* (d) part 2: the stale entry on @cpu must be gone. */
static void check_reread(struct page *page, u64 want, int cpu)
{
	enum mode m = xpfo_mode();
	u64 v = 0;
	long ret;

	preempt_disable();
	cpu = other_cpu(cpu);
	preempt_enable();
	if (cpu < 0) {
		result("d_deferred", "skip", "needs a second online CPU");
		return;
	}
	ret = read_on(cpu, page, &v);
	if (!page_is_xpfo(page) || m != M_DEFERRED) {
		result("d_deferred", "skip", "mode=%s: cpu%d read after its switch to a user task ret=%ld",
		       mode_names[m], cpu, ret);
		return;
	}
	result("d_deferred", ret == -EFAULT ? "pass" : "fail",
	       "cpu%d after its switch to a user task: read ret=%ld (expected -EFAULT)", cpu, ret);
}

static ssize_t probe_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char cmd[16], buf[128];
	unsigned long addr = 0;
	unsigned long long want = 0;
	struct page *page;
	int cpu = -1, n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	n = sscanf(buf, "%15s %lx %llx %d", cmd, &addr, &want, &cpu);
	if (n < 1)
		return -EINVAL;

	mutex_lock(&probe_lock);
	out_len = 0;
	out[0] = '\0';
	if (!strcmp(cmd, "info")) {
		emit("xpfo_info config=%d mode=%s", IS_ENABLED(CONFIG_XPFO),
		     mode_names[xpfo_mode()]);
		goto done;
	}
	if (n < 3) {
		mutex_unlock(&probe_lock);
		return -EINVAL;
	}
	if (pin_user_pages_fast(addr & PAGE_MASK, 1, 0, &page) != 1) {
		mutex_unlock(&probe_lock);
		return -EFAULT;
	}
	if (!strcmp(cmd, "check")) {
		check_a(page, want);
		check_b(page, want);
		/* (a) must hold again after the kmaps. */
		check_a(page, want);
	} else if (!strcmp(cmd, "stale")) {
		check_stale(page, want, cpu);
	} else if (!strcmp(cmd, "reread")) {
		check_reread(page, want, cpu);
	} else {
		emit("xpfo_probe: unknown command %s", cmd);
	}
	unpin_user_page(page);
done:
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t probe_read(struct file *file, char __user *ubuf, size_t len,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&probe_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, out, out_len);
	mutex_unlock(&probe_lock);
	return ret;
}

static const struct proc_ops probe_ops = {
	.proc_write = probe_write,
	.proc_read = probe_read,
	.proc_lseek = default_llseek,
};

static int __init xpfo_probe_init(void)
{
	if (!proc_create("xpfo_probe", 0600, NULL, &probe_ops))
		return -ENOMEM;
	return 0;
}

static void __exit xpfo_probe_exit(void)
{
	remove_proc_entry("xpfo_probe", NULL);
}

module_init(xpfo_probe_init);
module_exit(xpfo_probe_exit);
MODULE_DESCRIPTION("hardbench: XPFO checks on a user page");
MODULE_LICENSE("GPL");
