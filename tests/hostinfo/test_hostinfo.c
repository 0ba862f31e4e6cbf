/* hostinfo describes this machine as the kernel sees it: PUs = CPUs we may run on, the
 * kernel release, /dev/kvm, the CPU flags /proc/cpuinfo lists, NUMA memory; and
 * `harness hostinfo` prints every part. Usage: test_hostinfo HARNESS */
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
	json_object *info = hostinfo_collect(), *topo = get(info, "topology"), *cpu = get(info, "cpu");
	json_object *numa = get(info, "numa");
	char *cpuinfo = hb_read_file("/proc/cpuinfo", NULL);
	static const char *const flags[] = { "pcid", "invpcid", "avx512f", "hypervisor" };
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
	if (!get(cpu, "error") && cpuinfo) {
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			CHECK(json_object_get_boolean(get(get(cpu, "flags"), flags[i])) ==
				      cpuinfo_has(cpuinfo, flags[i]),
			      "flag %s differs from /proc/cpuinfo", flags[i]);
		CHECK(strstr(cpuinfo, json_object_get_string(get(cpu, "vendor"))) != NULL, "vendor");
	}
	if (json_object_get_boolean(get(numa, "available")))
		CHECK(get_int(json_object_array_get_idx(get(numa, "nodes"), 0), "mem_mib") > 0, "node 0 memory");
	free(cpuinfo);
	json_object_put(info);
}

/* `harness hostinfo` (the program is the first argument). */
TEST(command)
{
	const char *harness = t->argc > 1 ? t->argv[1] : NULL;
	char *argv[] = { (char *)harness, "hostinfo", NULL };
	char *json_argv[] = { (char *)harness, "hostinfo", "--json", NULL };
	static const char *const labels[] = { "\ncpu ", "\ntopology ", "\nnuma ", "\nkernel ", "\nkvm " };
	int rc = -1;
	char *text, *nl_text, *json;
	json_object *parsed;

	if (!harness)
		SKIP("no harness program given");
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
