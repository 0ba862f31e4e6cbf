/* hostinfo describes this machine as the kernel sees it: PUs = CPUs we may run on, cores
 * and packages as sysfs counts them (not derived from each other), the kernel release,
 * /dev/kvm, the CPU flags /proc/cpuinfo lists, NUMA memory; the counting itself on
 * synthetic machines with SMT and several packages; and `harness hostinfo` prints every
 * part. Usage: test_hostinfo HARNESS */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "test.h"
#include "common/fileutil.h"
#include "common/spawn.h"
#include "hostinfo/hostinfo.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	json_object_object_get_ex(o, key, &v);
	return v;
}

static int get_int(json_object *o, const char *key)
{
	return json_object_get_int(get(o, key));
}

/* An integer from /sys/devices/system/cpu/cpuN/topology/NAME; -1 when absent (die_id
 * is missing on older kernels, where a package has one die). */
static long sysfs_topology(int cpu, const char *name)
{
	char path[128], *text;
	long v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	text = hb_read_file(path, NULL);
	if (text)
		v = strtol(text, NULL, 10);
	free(text);
	return v;
}

/* Cores and packages among the CPUs this process may run on, counted from sysfs: a core
 * is a distinct (package, die, core id), as the kernel numbers them. 0 when sysfs lacks
 * the topology (a container without /sys). */
static void sysfs_counts(int *cores, int *packages)
{
	long seen[CPU_SETSIZE][3], pkgs[CPU_SETSIZE];
	int nc = 0, np = 0;
	cpu_set_t set;

	sched_getaffinity(0, sizeof(set), &set);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		long id[3];
		int i;

		if (!CPU_ISSET(cpu, &set))
			continue;
		id[0] = sysfs_topology(cpu, "physical_package_id");
		id[1] = sysfs_topology(cpu, "die_id");
		id[2] = sysfs_topology(cpu, "core_id");
		if (id[0] < 0 || id[2] < 0) {
			*cores = *packages = 0;
			return;
		}
		for (i = 0; i < nc && memcmp(seen[i], id, sizeof(id)); i++)
			;
		if (i == nc)
			memcpy(seen[nc++], id, sizeof(id));
		for (i = 0; i < np && pkgs[i] != id[0]; i++)
			;
		if (i == np)
			pkgs[np++] = id[0];
	}
	*cores = nc;
	*packages = np;
}

/* A "Key: N kB" of /proc/meminfo; -1 when absent. */
static long long proc_meminfo_kib(const char *key)
{
	char *text = hb_read_file("/proc/meminfo", NULL), *at = text ? strstr(text, key) : NULL;
	long long v = at ? strtoll(at + strlen(key) + 1, NULL, 10) : -1;

	free(text);
	return v;
}

/* Is flag in the first "flags" line of /proc/cpuinfo? */
static bool cpuinfo_has(const char *cpuinfo, const char *flag)
{
	const char *line = strstr(cpuinfo, "\nflags");
	char word[64];
	size_t n = strlen(flag);

	if (!line)
		return false;
	snprintf(word, sizeof(word), " %s", flag);
	for (const char *p = strstr(line, word); p && p < strchr(line + 1, '\n'); p = strstr(p + 1, word))
		if (p[n + 1] == ' ' || p[n + 1] == '\n')
			return true;
	return false;
}

TEST(collect)
{
	json_object *info = hostinfo_collect(), *topo = get(info, "topology");
	struct utsname u;
	cpu_set_t set;

	sched_getaffinity(0, sizeof(set), &set);
	uname(&u);
	CHECK(get_int(topo, "pus") == CPU_COUNT(&set), "hwloc PUs %d vs %d allowed CPUs",
	      get_int(topo, "pus"), CPU_COUNT(&set));
	CHECK(get_int(topo, "cores") * get_int(topo, "smt_per_core") == get_int(topo, "pus"),
	      "cores x SMT = PUs");
	CHECK(!strcmp(json_object_get_string(get(get(info, "kernel"), "release")), u.release), "release");
	CHECK(json_object_get_boolean(get(get(info, "kvm"), "present")) == (access("/dev/kvm", F_OK) == 0),
	      "kvm present");
	CHECK(get(info, "cpu") && get(info, "numa"), "every part is collected");
	json_object_put(info);
}

/* libcpuid's flags and vendor against the kernel's /proc/cpuinfo. */
TEST(cpu_matches_cpuinfo)
{
	json_object *cpu = hostinfo_cpu();
	char *cpuinfo = hb_read_file("/proc/cpuinfo", NULL);
	static const char *const flags[] = { "pcid", "invpcid", "avx512f", "hypervisor" };

	if (get(cpu, "error") || !cpuinfo) {
		free(cpuinfo);
		json_object_put(cpu);
		SKIP("libcpuid cannot read this CPU, or there is no /proc/cpuinfo");
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		CHECK(json_object_get_boolean(get(get(cpu, "flags"), flags[i])) == cpuinfo_has(cpuinfo, flags[i]),
		      "flag %s differs from /proc/cpuinfo", flags[i]);
	CHECK(strstr(cpuinfo, json_object_get_string(get(cpu, "vendor"))) != NULL, "vendor");
	free(cpuinfo);
	json_object_put(cpu);
}

/* libnuma's node 0 has memory (MemTotal's order: it is this host's memory, or part of it). */
TEST(numa_memory)
{
	json_object *numa = hostinfo_numa();
	long long mem_kib = proc_meminfo_kib("MemTotal");
	int mib;

	if (!json_object_get_boolean(get(numa, "available"))) {
		json_object_put(numa);
		SKIP("libnuma says NUMA is not available on this host");
	}
	mib = get_int(json_object_array_get_idx(get(numa, "nodes"), 0), "mem_mib");
	CHECK(mib > 0 && (long long)mib <= mem_kib / 1024 + 1, "node 0 memory %d MiB, MemTotal %lld kB", mib,
	      mem_kib);
	json_object_put(numa);
}

/* This host's cores and packages as hwloc counts them, against the kernel's own numbering
 * in sysfs (not against each other: cores x SMT = PUs holds whatever cores is). */
TEST(counts_match_sysfs)
{
	json_object *topo = hostinfo_topology();
	int sys_cores, sys_packages;
	cpu_set_t set;

	sched_getaffinity(0, sizeof(set), &set);
	sysfs_counts(&sys_cores, &sys_packages);
	if (!sys_cores) {
		json_object_put(topo);
		SKIP("no CPU topology in /sys/devices/system/cpu/cpu*/topology");
	}
	CHECK(get_int(topo, "cores") == sys_cores, "hwloc cores %d vs %d in sysfs", get_int(topo, "cores"),
	      sys_cores);
	CHECK(get_int(topo, "packages") == sys_packages, "hwloc packages %d vs %d in sysfs",
	      get_int(topo, "packages"), sys_packages);
	CHECK(get_int(topo, "pus") == CPU_COUNT(&set), "hwloc PUs %d vs %d allowed CPUs", get_int(topo, "pus"),
	      CPU_COUNT(&set));
	CHECK(get_int(topo, "smt_per_core") == CPU_COUNT(&set) / sys_cores,
	      "SMT per core %d vs %d CPUs on %d sysfs cores", get_int(topo, "smt_per_core"), CPU_COUNT(&set),
	      sys_cores);
	json_object_put(topo);
}

/* The counts of machines unlike this one (hwloc's synthetic topologies): with SMT, with
 * several packages and NUMA nodes, a core count that is not a power of two. */
VARIANT_TYPE(machine) { const char *desc; int packages, numa_nodes, cores, pus, smt; };
VARIANT(machine, smt2) { "pack:1 core:4 pu:2", 1, 1, 4, 8, 2 };
VARIANT(machine, two_packages) { "pack:2 core:3 pu:1", 2, 1, 6, 6, 1 };
VARIANT(machine, numa_smt4) { "pack:2 numa:2 core:5 pu:4", 2, 4, 20, 80, 4 };

TEST_V(machine, synthetic_counts)
{
	json_object *o = hostinfo_topology_synthetic(variant->desc);

	CHECK(!get(o, "error"), "%s: %s", variant->desc, json_object_to_json_string(o));
	CHECK(get_int(o, "packages") == variant->packages, "%s: packages %d", variant->desc, get_int(o, "packages"));
	CHECK(get_int(o, "numa_nodes") == variant->numa_nodes, "%s: NUMA nodes %d", variant->desc,
	      get_int(o, "numa_nodes"));
	CHECK(get_int(o, "cores") == variant->cores, "%s: cores %d", variant->desc, get_int(o, "cores"));
	CHECK(get_int(o, "pus") == variant->pus, "%s: PUs %d", variant->desc, get_int(o, "pus"));
	CHECK(get_int(o, "smt_per_core") == variant->smt, "%s: SMT %d", variant->desc, get_int(o, "smt_per_core"));
	json_object_put(o);
}

/* `harness hostinfo` (the program is the first argument). */
TEST(command)
{
	const char *harness = test_arg(failures, t, 1); /* meson.build passes it: none is a failure */
	char *argv[] = { (char *)harness, "hostinfo", NULL };
	char *json_argv[] = { (char *)harness, "hostinfo", "--json", NULL };
	static const char *const labels[] = { "\ncpu ", "\ntopology ", "\nnuma ", "\nkernel ", "\nkvm " };
	int rc = -1;
	char *text, *nl_text, *json;
	json_object *parsed;

	if (!harness)
		return;
	text = hb_run_capture(argv, &rc);
	json = hb_run_capture(json_argv, &rc);
	parsed = json ? json_tokener_parse(json) : NULL;

	nl_text = text ? malloc(strlen(text) + 2) : NULL;
	if (nl_text)
		sprintf(nl_text, "\n%s", text);
	for (size_t i = 0; nl_text && i < sizeof(labels) / sizeof(labels[0]); i++)
		CHECK(strstr(nl_text, labels[i]) != NULL, "text lacks%s", labels[i]);
	CHECK(parsed && get(parsed, "cpu") && get(parsed, "kvm"), "--json is the JSON object");
	json_object_put(parsed);
	free(nl_text);
	free(text);
	free(json);
}

TEST_MAIN()
