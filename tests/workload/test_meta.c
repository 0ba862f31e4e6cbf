/* Workload metadata and parameters (test_registry.c: that every workload.ini loads):
 * broken metadata is refused with file and line, --param values are checked
 * (usage errors exit 2 naming the bad key or value and what is accepted), and cells get
 * the jobs the parameters ask for.
 * usage: test_meta (TAP) */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "kernel/source.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "test.h"
#include "workload/internal.h"

/* Runs fn(arg) in a child with stderr captured: its exit status and what it printed. */
struct captured {
	int status;
	char *err;
};

static struct captured run_captured(int (*fn)(const void *arg), const void *arg)
{
	struct captured c = { .status = -1 };
	char path[] = "/tmp/hb-test-meta.XXXXXX";
	int fd = mkstemp(path), status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		exit(fn(arg));
	}
	waitpid(pid, &status, 0);
	c.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	c.err = hb_read_file(path, NULL);
	close(fd);
	unlink(path);
	return c;
}

/* Exit 2 and one "harness: ..." line naming both parts (other programs' stderr, such as
 * git's when the harness asks whether a tree is a repository, may come before it). */
static void check_usage_error(int *failures, struct captured c, const char *part1, const char *part2)
{
	const char *line = c.err ? strstr(c.err, "harness: ") : NULL;

	CHECK(c.status == 2, "exit status %d, want 2 (usage error)", c.status);
	CHECK_HAS(line, part1);
	CHECK_HAS(line, part2);
	CHECK(line && strchr(line, '\n') == line + strlen(line) - 1, "not one line: %s", c.err);
	free(c.err);
}

TEST(metric_lookup)
{
	struct workload *tv = workload_require("test_vmalloc", &(char *){ NULL }), *vo = workload_require("vmaops", &(char *){ NULL });
	const struct workload_metric *m;

	m = workload_find_metric(tv, "worker1/fix_size_alloc_test");
	CHECK(m && !strcmp(m->name, "worker*/*_test") && !strcmp(m->unit, "usec"), "worker metric");
	m = workload_find_metric(tv, "total_cycles");
	CHECK(m && !strcmp(m->unit, "cycles"), "exact name first");
	CHECK(!workload_find_metric(tv, "total_usec"), "an undeclared name must not match");
	m = workload_find_metric(vo, "mprotect/1/per_vma");
	CHECK(m && !strcmp(m->name, "*/*/per_vma"), "per_vma pattern before */*: %s", m ? m->name : "-");
	m = workload_find_metric(vo, "mseal/32");
	CHECK(m && !strcmp(m->unit, "ns"), "per-call pattern");
	CHECK(workload_sample_belongs("test_vmalloc", "test_vmalloc-sequential"), "section belongs");
	CHECK(!workload_sample_belongs("test_vmalloc", "test_vmalloc2"), "prefix is not enough");
	workload_free(tv);
	workload_free(vo);
}

static void check_value(int *failures, struct workload *w, const char *key, const char *value,
			bool ok, const char *reason_part)
{
	char *why = workload_param_check(workload_find_param(w, key), value);

	CHECK(ok == !why, "%s.%s=%s: %s", w->name, key, value, why ? why : "accepted");
	if (why && reason_part)
		CHECK_HAS(why, reason_part);
	free(why);
}

/* One parameter value of a workload: accepted or not, and a part of the reason. */
VARIANT_TYPE(param) {
	const char *workload, *key, *value;
	bool ok;
	const char *reason_part; /* NULL: any reason */
};
VARIANT(param, hb_groups_bad1) { "hackbench", "groups", "0", false, "accepted: an integer from 1 to 1000" };
VARIANT(param, hb_groups_bad2) { "hackbench", "groups", "4x", false, "bad value '4x'" };
VARIANT(param, hb_groups_ok1) { "hackbench", "groups", "4", true, NULL };
VARIANT(param, hb_groups_bad3) { "hackbench", "groups", "auto", false, NULL };
VARIANT(param, hb_ipc_bad1) { "hackbench", "ipc", "tcp", false, "one of sockets, pipes" };
VARIANT(param, tv_modes_ok1) { "test_vmalloc", "modes", "sequential,performance", true, NULL };
VARIANT(param, tv_modes_bad1) { "test_vmalloc", "modes", "performance,performance", false, "list of performance, sequential" };
VARIANT(param, tv_modes_bad2) { "test_vmalloc", "modes", "performance,", false, NULL };
VARIANT(param, tv_run_test_mask_bad1) { "test_vmalloc", "run_test_mask", "1024", false, "1 to 1023" };
VARIANT(param, tv_threads_ok1) { "test_vmalloc", "threads", "auto", true, NULL };
VARIANT(param, kb_target_ok1) { "kbuild", "target", "mm/ kernel/", true, NULL };
VARIANT(param, kb_target_bad1) { "kbuild", "target", "O=/tmp", false, "make targets" };
VARIANT(param, kb_target_bad2) { "kbuild", "target", "vmlinux;reboot", false, NULL };
VARIANT(param, kb_source_bad1) { "kbuild", "source", "/no/such/tree", false, "existing file or directory" };
VARIANT(param, kb_source_ok1) { "kbuild", "source", "/usr", true, NULL };
VARIANT(param, ht_pages_ok1) { "hugetlb", "pages", "auto", true, NULL };

TEST_V(param, param_value)
{
	struct workload *w = workload_require(variant->workload, &(char *){ NULL });

	check_value(failures, w, variant->key, variant->value, variant->ok, variant->reason_part);
	workload_free(w);
}

TEST(param_set_and_json)
{
	struct workload *hb = workload_require("hackbench", &(char *){ NULL });
	struct workload *kb = workload_require("kbuild", &(char *){ NULL });

	workload_set_param(hb, "groups", "4", &(char *){ NULL });
	CHECK(!strcmp(workload_param(hb, "groups"), "4"), "set_param did not set");
	CHECK(workload_param_long(kb, "jobs", 7) == 7, "auto gives the caller's value");
	{
		json_object *j = workload_params_json(hb);
		json_object *g = NULL;
		CHECK(json_object_object_get_ex(j, "groups", &g) && !strcmp(json_object_get_string(g), "4") &&
		      json_object_object_length(j) == 6, "params json: %s", json_object_to_json_string(j));
		json_object_put(j);
	}
	workload_free(hb);
	workload_free(kb);
}

/* As an entry point does: the reason printed, exit 2. */
static int apply_spec(const void *arg)
{
	char *why = NULL;
	struct workload *w = workload_require("hackbench", &why);
	int rc = workload_apply_param(&w, 1, arg, &why) < 0 ? hb_usage_why(why) : 0;

	workload_free(w);
	return rc;
}

static int require_unknown(const void *arg)
{
	char *why = NULL;
	return workload_require(arg, &why) ? 0 : hb_usage_why(why);
}

TEST(usage_errors)
{
	check_usage_error(failures, run_captured(apply_spec, "hackbench.bogus=1"),
			  "unknown parameter 'bogus'", "accepted: groups, loops, datasize, fds, ipc, mode");
	check_usage_error(failures, run_captured(apply_spec, "hackbench.groups=0"),
			  "--param hackbench.groups: bad value '0'", "from 1 to 1000");
	check_usage_error(failures, run_captured(apply_spec, "kbuild.config=defconfig"),
			  "workload 'kbuild' is not being run", "accepted: hackbench");
	check_usage_error(failures, run_captured(apply_spec, "groups=4"),
			  "bad value 'groups=4'", "WORKLOAD.KEY=VALUE");
	{
		char **names = workload_names();
		char *all = workload_join(names, ", "), *accepted = xasprintf("accepted: %s", all);
		check_usage_error(failures, run_captured(require_unknown, "nope"), "unknown workload 'nope'",
				  accepted);
		hb_free_strv(names);
		free(all);
		free(accepted);
	}
	{
		struct captured c = run_captured(apply_spec, "hackbench.groups=7");
		CHECK(c.status == 0 && c.err && !*c.err, "a good --param failed: %s", c.err);
		free(c.err);
	}
}

struct bad_ini {
	const char *text;
	const char *error;
};

static const struct bad_ini bad_inis[] = {
	{ "[workload]\ndescription = x\nseed = 1\ncolour = red\n", ":4: unknown key 'colour' in [workload]" },
	{ "[workload]\ndescription = x\nseed = 1\ndefault_order = 0\n",
	  ":4: default_order: '0' is not an integer from 1 to 1000" },
	{ "[workload]\ndescription = x\nseed = 1\nicount_boots = 1\n",
	  ":4: icount_boots: '1' is not an integer from 2 to 1000" },
	/* inih would parse the rest of a line over 199 characters as a line of its own. */
	{ "[workload]\ndescription = x\nseed = 1\n[param n]\ntype = int\ndefault = 1\nhelp = "
	  "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
	  "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901"
	  "234567890 key = value\n",
	  ":7: longer than 199 characters, inih's limit (accepted: a shorter line)" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = s\nsource = output\n"
	  "description = d\n", "[metric t] needs unit, lower_is_better" },
	{ "[workload]\ndescription = x\nseed = 1\n[param n]\ntype = int\nmin = 1\nmax = 9\n"
	  "default = 10\nhelp = h\n[metric t]\nunit = s\nsource = output\ndescription = d\n"
	  "lower_is_better = true\n", "[param n]: default: bad value '10'" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric *]\nunit = s\nsource = job.wall\n"
	  "description = d\nlower_is_better = true\n", "only source = output metrics may be patterns" },
	{ "[workload]\ndescription = x\nseed = 1\n[gadget g]\nx = 1\n", ":5: unknown section [gadget g]" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = s\nsource = stdout\n",
	  ":6: source: 'stdout' is not output" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = n\nsource = irq.\n",
	  ":6: source: 'irq.' is not output, job.wall, job.user, job.sys, guest.user, guest.sys or "
	  "irq.LABEL (LABEL: a /proc/interrupts row label such as CAL, TLB or LOC; letters, digits "
	  "and _, at most 15)" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = n\nsource = irq.C-L\n",
	  ":6: source: 'irq.C-L' is not output" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = n\nsource = irq.CAL TLB\n",
	  ":6: source: 'irq.CAL TLB' is not output" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = n\nsource = irq.ABCDEFGHIJKLMNOP\n",
	  ":6: source: 'irq.ABCDEFGHIJKLMNOP' is not output" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = n\nsource = IRQ.CAL\n",
	  ":6: source: 'IRQ.CAL' is not output" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric ipi_*]\nunit = n\nsource = irq.CAL\n"
	  "description = d\nlower_is_better = true\n", "only source = output metrics may be patterns" },
	{ "[workload]\ndescription = x\nseed = 1\n[param p]\ntype = choice\nchoices = a,,b\n",
	  ":6: choices: empty item in 'a,,b'" },
	{ "[workload]\ndescription = x\nseed = 1\n[metric t]\nunit = s\nsource = output\n"
	  "description = d\nlower_is_better = true\n", "[workload] needs primary" },
	{ "[workload]\ndescription = x\nseed = 1\nprimary = u\n[metric t]\nunit = s\n"
	  "source = output\ndescription = d\nlower_is_better = true\n",
	  "primary: 'u' matches no [metric NAME] section" },
	{ "[workload]\ndescription = x\nseed = 1\nprimary = t\nicount_params = n=1\n[metric t]\nunit = s\n"
	  "source = output\ndescription = d\nlower_is_better = true\n",
	  "icount_params: 'n=1' is not KEY=VALUE for one of its [param KEY] sections" },
	{ "[workload]\ndescription = x\nseed = 1\nprimary = t\nicount_params = n=10\n[param n]\ntype = int\n"
	  "min = 1\nmax = 9\ndefault = 1\nhelp = h\n[metric t]\nunit = s\nsource = output\n"
	  "description = d\nlower_is_better = true\n", "icount_params: n=10: bad value '10'" },
};

static int load_bad(const void *arg)
{
	return workload_load_path("bad", arg, NULL) ? 0 : 1;
}

TEST(broken_metadata)
{
	char dir[] = "/tmp/hb-test-ini.XXXXXX";

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	for (size_t i = 0; i < sizeof(bad_inis) / sizeof(bad_inis[0]); i++) {
		char *path = xasprintf("%s/workload.ini", dir);
		struct captured c;
		hb_write_file_atomic(path, bad_inis[i].text, strlen(bad_inis[i].text));
		c = run_captured(load_bad, path);
		CHECK(c.status == 1, "case %zu: broken metadata was accepted", i);
		CHECK_HAS(c.err, bad_inis[i].error);
		CHECK_HAS(c.err, path);
		free(c.err);
		unlink(path);
		free(path);
	}
	rmdir(dir);
}

/* irq.LABEL: any row label loads; the cell's jobs ask the guest for each label once. */
TEST(irq_metrics)
{
	char dir[] = "/tmp/hb-test-ini.XXXXXX";
	const char *text = "[workload]\ndescription = x\nseed = 1\nprimary = t\n"
			   "[metric t]\nunit = s\nsource = job.wall\ndescription = d\nlower_is_better = true\n"
			   "[metric calls]\nunit = IPIs\nsource = irq.CAL\ndescription = d\nlower_is_better = true\n"
			   "[metric dev]\nunit = n\nsource = irq.50\ndescription = d\nlower_is_better = true\n"
			   "[metric moved]\nunit = n\nsource = irq.LOC\nsource = output\ndescription = d\n"
			   "lower_is_better = true\n";
	struct workload *w, *hb;
	struct workload_cell c;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	char *path = xasprintf("%s/workload.ini", dir);
	hb_write_file_atomic(path, text, strlen(text));
	w = workload_load_path("irqs", path, NULL);
	CHECK(w != NULL, "a workload with irq.CAL and irq.50 does not load");
	if (w) {
		const struct workload_metric *m = workload_find_metric(w, "calls");
		CHECK(m && m->source == METRIC_IRQ && !strcmp(m->irq_label, "CAL"));
		m = workload_find_metric(w, "dev");
		CHECK(m && m->source == METRIC_IRQ && !strcmp(m->irq_label, "50"));
		m = workload_find_metric(w, "moved"); /* the last source line wins */
		CHECK(m && m->source == METRIC_OUTPUT && !m->irq_label);
	}
	workload_free(w);
	unlink(path);
	rmdir(dir);
	free(path);

	hb = workload_require("hackbench", &(char *){ NULL });
	CHECK(hb && workload_cell_init(hb, 2, 2048, 1, false, &c) == 0 && c.njobs == 1, "hackbench cell");
	if (hb && c.njobs == 1) {
		CHECK(hb_strv_len(c.jobs[0].irq) == 2 && !strcmp(c.jobs[0].irq[0], "CAL") &&
		      !strcmp(c.jobs[0].irq[1], "TLB"), "hackbench jobs ask for CAL and TLB");
		workload_cell_free(&c);
	}
	workload_free(hb);
}

static const struct workload_target dry_run_2cpu = { .cores = 2, .mem_mib = 2048, .reps = 1 };

static struct workload *with_params(const char *name, const char *const specs[])
{
	struct workload *w = workload_require(name, &(char *){ NULL });
	for (size_t i = 0; specs && specs[i]; i++) {
		char *why = NULL;
		if (workload_apply_param(&w, 1, specs[i], &why) < 0)
			exit(hb_usage_why(why)); /* as harness run does, for the usage-error checks */
	}
	return w;
}

static bool argv_has(char **argv, const char *word)
{
	return hb_strv_contains(argv, word);
}

TEST(cells)
{
	struct workload_cell c;
	struct workload *w;

	w = with_params("test_vmalloc", (const char *const[]){ "test_vmalloc.modes=sequential", NULL });
	CHECK(workload_cell_init(w, 4, 2048, 3, false, &c) == 0 && c.njobs == 1, "one mode, one job");
	CHECK(c.njobs && argv_has(c.jobs[0].argv, "nr_threads=4") && c.jobs[0].reps == 3 &&
	      !strcmp(c.job_workload[0], "test_vmalloc-sequential"), "sequential job at 4 vCPUs");
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("test_vmalloc", NULL);
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && c.njobs == 2, "two modes by default");
	CHECK(c.njobs == 2 && !strcmp(c.job_workload[0], "test_vmalloc-performance") &&
	      argv_has(c.jobs[0].argv, "test_repeat_count=3") && c.jobs[0].argv[0][0] == '/',
	      "performance job");
	/* align_shift (64) is primed by default: both modes load once per test, and the
	 * performance mode's is an untimed load first. */
	CHECK(c.njobs == 2 && argv_has(c.jobs[0].argv, "--each-test") && argv_has(c.jobs[0].argv, "--prime") &&
	      argv_has(c.jobs[0].argv, "64") && argv_has(c.jobs[1].argv, "--prime"), "prime align_shift");
	/* align_shift (64) is a short test: 20 runs in the sequential mode's load, one in the
	 * performance mode's (which has its own 3 repeats). */
	CHECK(c.njobs == 2 && !argv_has(c.jobs[0].argv, "--repeat") && argv_has(c.jobs[1].argv, "--repeat") &&
	      argv_has(c.jobs[1].argv, "64=20"), "align_shift repeated in the sequential mode only");
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("test_vmalloc", (const char *const[]){ "test_vmalloc.short_tests=65",
							 "test_vmalloc.short_repeats=7", NULL });
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && c.njobs == 2 &&
	      argv_has(c.jobs[1].argv, "65=7"), "short_tests 65, short_repeats 7: --repeat 65=7");
	workload_cell_free(&c);
	workload_free(w);

	/* Without a primed test the performance mode is one load, as the seed ran it. */
	w = with_params("test_vmalloc", (const char *const[]){ "test_vmalloc.run_test_mask=3", NULL });
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && c.njobs == 2 &&
	      argv_has(c.jobs[0].argv, "run_test_mask=3") && !argv_has(c.jobs[0].argv, "--each-test") &&
	      argv_has(c.jobs[1].argv, "--each-test") && !argv_has(c.jobs[1].argv, "--prime"),
	      "mask 3: performance one load, sequential per test, nothing primed");
	CHECK(c.njobs == 2 && !argv_has(c.jobs[1].argv, "--repeat"), "mask 3: no short test to repeat");
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("hugetlb", (const char *const[]){ "hugetlb.pages=2000", NULL });
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && c.min_mem_mib == 2000 * 2 + 256,
	      "4000 MiB of pages need a bigger guest: min_mem_mib %ld", c.min_mem_mib);
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("vmaops", (const char *const[]){ "vmaops.touch=yes", "vmaops.iterations=10", NULL });
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && argv_has(c.jobs[0].argv, "--touch") &&
	      argv_has(c.jobs[0].argv, "10"), "vmaops flags");
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("vmaops", NULL);
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && argv_has(c.jobs[0].argv, "--fixed-layout") &&
	      argv_has(c.jobs[0].argv, "--passes") && argv_has(c.jobs[0].argv, "5") &&
	      !argv_has(c.jobs[0].argv, "--touch") && argv_has(c.jobs[0].argv, "--settle-ms") &&
	      argv_has(c.jobs[0].argv, "20"),
	      "vmaops defaults: a fixed layout, the fastest of 5 passes, each after 20 ms asleep");
	workload_cell_free(&c);
	workload_free(w);

	w = with_params("vmaops", (const char *const[]){ "vmaops.layout=random", NULL });
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0 && !argv_has(c.jobs[0].argv, "--fixed-layout"),
	      "vmaops layout=random");
	workload_cell_free(&c);
	workload_free(w);
}

/* With the kernel known, test_vmalloc names the build's module, or refuses a build
 * without one before any boot. */
TEST(test_vmalloc_module)
{
	char root[] = "/tmp/hb-test-mods.XXXXXX";
	struct kernel_image k = { .build = "base", .release = "6.1.0-test", .modules_root = root };
	struct workload_target target = { .cores = 2, .mem_mib = 2048, .reps = 1, .kernel = &k };
	struct workload *w =
		with_params("test_vmalloc", (const char *const[]){ "test_vmalloc.modes=performance", NULL });
	struct workload_cell c;
	char *dir, *ko;

	CHECK(mkdtemp(root) != NULL, "mkdtemp");
	dir = xasprintf("%s/lib/modules/6.1.0-test/kernel/lib", root);
	ko = xasprintf("%s/test_vmalloc.ko", dir);
	hb_mkdir_p(dir, 0755);
	CHECK(workload_cell_init_target(w, &target, &c) == -1, "a build without the module must be refused");
	hb_write_file_atomic(ko, "", 0);
	/* The guest has the build's modules at /lib/modules/<release> (boot/host_view.h). */
	CHECK(workload_cell_init_target(w, &target, &c) == 0 && argv_has(c.jobs[0].argv, "--module") &&
	      argv_has(c.jobs[0].argv, "/lib/modules/6.1.0-test/kernel/lib/test_vmalloc.ko"),
	      "the build's module by its path in the guest");
	workload_cell_free(&c);
	hb_remove_tree(root);
	free(dir);
	free(ko);
	workload_free(w);
}

/* kbuild's cell names its cached image without making it in a dry run. */
TEST(kbuild_cell)
{
	char cache[] = "/tmp/hb-test-cache.XXXXXX";
	struct workload_cell c;
	struct workload *w = with_params("kbuild", (const char *const[]){ "kbuild.target=mm/ kernel/", NULL });

	if (!hb_is_file(KSOURCE_DEFAULT)) {
		workload_free(w);
		SKIP(KSOURCE_DEFAULT " is not installed");
	}
	CHECK(mkdtemp(cache) != NULL, "mkdtemp");
	setenv("HARDBENCH_CACHE", cache, 1);
	CHECK(workload_cell_init_target(w, &dry_run_2cpu, &c) == 0, "kbuild cell");
	CHECK(c.disks[0] && strstr(c.disks[0], "/workloads/kbuild/") && !hb_is_file(c.disks[0]),
	      "image path without making it: %s", c.disks[0]);
	CHECK(c.notes[0] && strstr(c.notes[0], "will be made"), "dry-run note");
	CHECK(argv_has(c.jobs[0].argv, "mm/") && argv_has(c.jobs[0].argv, "kernel/") &&
	      argv_has(c.jobs[0].argv, "2") && c.min_mem_mib >= 1024, "kbuild argv");
	workload_cell_free(&c);
	workload_free(w);
	hb_remove_tree(cache);
}

/* A make target that names nothing in the tree is refused before any boot (kbuild would
 * happily build nothing and time it). The tree is a small fake: --param kbuild.source. */
static int kbuild_cell_with_target(const void *arg)
{
	const char *const *specs = arg;
	struct workload *w = with_params("kbuild", specs);
	struct workload_cell c;
	int ret = workload_cell_init_target(w, &dry_run_2cpu, &c);

	if (ret == 0)
		workload_cell_free(&c);
	workload_free(w);
	return ret == 0 ? 0 : ret == WORKLOAD_BAD_PARAM ? HB_EXIT_USAGE : HB_EXIT_FAIL;
}

TEST(kbuild_targets)
{
	char tree[] = "/tmp/hb-test-tree.XXXXXX", cache[] = "/tmp/hb-test-cache.XXXXXX";
	char *mm, *file, *source, *good, *bad;
	struct captured c;

	CHECK(mkdtemp(tree) && mkdtemp(cache), "mkdtemp");
	mm = xasprintf("%s/mm", tree);
	file = xasprintf("%s/mm/page_alloc.c", tree);
	hb_mkdir_p(mm, 0755);
	hb_write_file_atomic(file, "", 0);
	setenv("HARDBENCH_CACHE", cache, 1);
	source = xasprintf("kbuild.source=%s", tree);
	good = "kbuild.target=mm/ mm/page_alloc.o vmlinux";
	bad = "kbuild.target=mm/ kernel/sched/";
	c = run_captured(kbuild_cell_with_target, (const char *const[]){ source, good, NULL });
	CHECK(c.status == 0, "good targets refused: %s", c.err);
	free(c.err);
	c = run_captured(kbuild_cell_with_target, (const char *const[]){ source, bad, NULL });
	check_usage_error(failures, c, "'kernel/sched/' is neither a directory nor an object", tree);
	c = run_captured(kbuild_cell_with_target,
			 (const char *const[]){ source, "kbuild.target=mm/slub.o", NULL });
	check_usage_error(failures, c, "'mm/slub.o' is neither", "accepted: e.g. kernel/sched/");
	hb_remove_tree(tree);
	hb_remove_tree(cache);
	free(mm);
	free(file);
	free(source);
}

TEST_MAIN()
