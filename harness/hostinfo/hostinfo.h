/* Facts about the host that explain a measurement: CPU (libcpuid), topology (hwloc),
 * NUMA memory (libnuma), kernel release and KVM device. Every meta.json stores this
 * object under "host"; `harness hostinfo` prints it.
 *
 * JSON shape (a part that could not be read holds {"error": "..."} instead):
 *   {"cpu": {"vendor", "brand", "family", "model", "stepping", "cores", "threads",
 *            "cache_kib": {"l1d", "l1i", "l2", "l3"},
 *            "flags": {"pcid", "invpcid", "avx512f", "hypervisor"}},
 *    "topology": {"packages", "numa_nodes", "cores", "pus", "smt_per_core"},
 *    "numa": {"available", "nodes": [{"node", "mem_mib", "free_mib"}]},
 *    "kernel": {"release", "machine"},
 *    "kvm": {"present", "openable", "error"?}} */
#ifndef HB_HOSTINFO_HOSTINFO_H
#define HB_HOSTINFO_HOSTINFO_H

#include <json-c/json.h>

/* Never fails: what cannot be read is recorded as an error inside the object. */
json_object *hostinfo_collect(void);

/* The parts, for tests and for callers that need one fact. */
json_object *hostinfo_cpu(void);
json_object *hostinfo_topology(void);
/* The same counts of hwloc's synthetic topology description (e.g. "pack:2 core:3 pu:2"):
 * the counting checked on a machine unlike the one the tests run on. */
json_object *hostinfo_topology_synthetic(const char *description);
json_object *hostinfo_numa(void);
json_object *hostinfo_kernel(void);
json_object *hostinfo_kvm(void);
/* {"error": "what: why"}, the stand-in for a part that could not be read. */
json_object *hostinfo_error(const char *what, const char *why);

#endif
