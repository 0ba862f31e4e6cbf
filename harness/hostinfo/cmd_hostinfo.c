/* harness hostinfo [--json] */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/json.h"
#include "common/log.h"
#include "common/options.h"
#include "hostinfo/hostinfo.h"
#include "results/jsonfmt.h"

static const struct hb_option hostinfo_options[] = {
	{ "json", 0, HB_OPT_FLAG, NULL, "print the JSON object instead of text", .off = 0,
	  .group = HB_OG_WHERE },
	{ NULL },
};

static const struct hb_example hostinfo_examples[] = {
	{ "harness hostinfo", "CPU, cache, topology, NUMA memory and KVM of this host." },
	{ "harness hostinfo --json", "The same, as the JSON object meta.json keeps." },
	{ NULL },
};

const struct hb_cmdspec hostinfo_spec = {
	.cmd = "hostinfo",
	.usage = "usage: harness hostinfo [--json]\n"
		 "CPU (libcpuid), topology (hwloc), NUMA memory (libnuma), kernel and /dev/kvm of\n"
		 "this host; the same facts every result set records in meta.json \"host\".\n",
	.groups = { { hostinfo_options, 0 }, { NULL, 0 } },
	.examples = hostinfo_examples,
	.operand_complete = HB_CMP_NONE,
};

static const char *str(json_object *o, const char *key)
{
	json_object *v = hb_json_get(o, key);
	return v ? json_object_get_string(v) : "?";
}

static const char *yes_no(json_object *o, const char *key)
{
	return json_object_get_boolean(hb_json_get(o, key)) ? "yes" : "no";
}

/* A part that failed holds only "error": print it and say so. */
static bool print_error(const char *label, json_object *part)
{
	if (!hb_json_get(part, "error"))
		return false;
	printf("%-9s unknown (%s)\n", label, str(part, "error"));
	return true;
}

static void print_cpu(json_object *cpu)
{
	json_object *cache = hb_json_get(cpu, "cache_kib"), *flags = hb_json_get(cpu, "flags");

	if (print_error("cpu", cpu))
		return;
	printf("%-9s %s, %s (family %s, model %s, stepping %s)\n", "cpu", str(cpu, "vendor"),
	       str(cpu, "brand"), str(cpu, "family"), str(cpu, "model"), str(cpu, "stepping"));
	printf("%-9s %s cores, %s threads per package\n", "", str(cpu, "cores"), str(cpu, "threads"));
	printf("%-9s cache KiB: L1d %s, L1i %s, L2 %s, L3 %s\n", "", str(cache, "l1d"),
	       str(cache, "l1i"), str(cache, "l2"), str(cache, "l3"));
	printf("%-9s flags: pcid %s, invpcid %s, avx512f %s, hypervisor %s\n", "",
	       yes_no(flags, "pcid"), yes_no(flags, "invpcid"), yes_no(flags, "avx512f"),
	       yes_no(flags, "hypervisor"));
}

static void print_topology(json_object *t)
{
	if (print_error("topology", t))
		return;
	printf("%-9s packages %s, NUMA nodes %s, cores %s, PUs %s (%s per core)\n", "topology",
	       str(t, "packages"), str(t, "numa_nodes"), str(t, "cores"), str(t, "pus"),
	       str(t, "smt_per_core"));
}

static void print_numa(json_object *numa)
{
	json_object *nodes = hb_json_get(numa, "nodes");

	if (!json_object_get_boolean(hb_json_get(numa, "available"))) {
		printf("%-9s not available (libnuma: no NUMA support in this kernel)\n", "numa");
		return;
	}
	for (size_t i = 0; i < json_object_array_length(nodes); i++) {
		json_object *n = json_object_array_get_idx(nodes, i);
		printf("%-9s node %s: %s MiB, %s MiB free\n", i ? "" : "numa", str(n, "node"),
		       str(n, "mem_mib"), str(n, "free_mib"));
	}
}

static void print_text(json_object *info)
{
	json_object *kernel = hb_json_get(info, "kernel"), *kvm = hb_json_get(info, "kvm");

	print_cpu(hb_json_get(info, "cpu"));
	print_topology(hb_json_get(info, "topology"));
	print_numa(hb_json_get(info, "numa"));
	if (!print_error("kernel", kernel))
		printf("%-9s %s %s\n", "kernel", str(kernel, "release"), str(kernel, "machine"));
	printf("%-9s /dev/kvm present: %s, openable: %s%s%s%s\n", "kvm", yes_no(kvm, "present"),
	       yes_no(kvm, "openable"), hb_json_get(kvm, "error") ? " (" : "",
	       hb_json_get(kvm, "error") ? str(kvm, "error") : "", hb_json_get(kvm, "error") ? ")" : "");
}

int cmd_hostinfo(int argc, char **argv)
{
	bool json = false; /* the table's one option fills it (offset 0) */
	json_object *info;
	int first, rc;

	if (!hb_opts_cmd(&hostinfo_spec, argc, argv, &json, &first, &rc))
		return rc;
	if (first < argc)
		return hb_usage("hostinfo: unexpected argument '%s' (accepted: --json, --help)", argv[first]);
	info = hostinfo_collect();
	if (json)
		printf("%s\n", hb_json_pretty(info));
	else
		print_text(info);
	json_object_put(info);
	return HB_EXIT_OK;
}
