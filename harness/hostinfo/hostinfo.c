/* The host's parts other than the CPU: topology (hwloc), NUMA memory (libnuma), kernel
 * release and KVM device; and the stand-in for a part that could not be read. */
#include "hostinfo/hostinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <hwloc.h>
#include <numa.h>

json_object *hostinfo_error(const char *what, const char *why)
{
	json_object *o = json_object_new_object();
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, why);
	json_object_object_add(o, "error", json_object_new_string(msg));
	return o;
}

static int count_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);
	return n < 0 ? 0 : n; /* -1: objects of this type sit at several depths; rare */
}

/* The counts of a loaded topology (destroyed here). */
static json_object *topology_counts(hwloc_topology_t topo)
{
	int cores = count_type(topo, HWLOC_OBJ_CORE), pus = count_type(topo, HWLOC_OBJ_PU);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "packages", json_object_new_int(count_type(topo, HWLOC_OBJ_PACKAGE)));
	json_object_object_add(o, "numa_nodes", json_object_new_int(count_type(topo, HWLOC_OBJ_NUMANODE)));
	json_object_object_add(o, "cores", json_object_new_int(cores));
	json_object_object_add(o, "pus", json_object_new_int(pus));
	json_object_object_add(o, "smt_per_core", json_object_new_int(cores ? pus / cores : 0));
	hwloc_topology_destroy(topo);
	return o;
}

/* Loads this host's topology, or hwloc's synthetic one described by synthetic. */
static json_object *topology_load(const char *synthetic)
{
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo) < 0)
		return hostinfo_error("hwloc", "cannot initialise a topology");
	if (synthetic && hwloc_topology_set_synthetic(topo, synthetic) < 0) {
		hwloc_topology_destroy(topo);
		return hostinfo_error("hwloc", "bad synthetic topology");
	}
	if (hwloc_topology_load(topo) < 0) {
		hwloc_topology_destroy(topo);
		return hostinfo_error("hwloc", strerror(errno));
	}
	return topology_counts(topo);
}

json_object *hostinfo_topology(void)
{
	return topology_load(NULL);
}

json_object *hostinfo_topology_synthetic(const char *description)
{
	return topology_load(description);
}

json_object *hostinfo_numa(void)
{
	json_object *o = json_object_new_object();
	json_object *nodes = json_object_new_array();
	bool available = numa_available() >= 0;

	json_object_object_add(o, "available", json_object_new_boolean(available));
	for (int node = 0; available && node <= numa_max_node(); node++) {
		long long free_bytes = 0;
		long long size = numa_node_size64(node, &free_bytes);
		json_object *n;

		if (size < 0)
			continue; /* a hole in the node numbering */
		n = json_object_new_object();
		json_object_object_add(n, "node", json_object_new_int(node));
		json_object_object_add(n, "mem_mib", json_object_new_int64(size >> 20));
		json_object_object_add(n, "free_mib", json_object_new_int64(free_bytes >> 20));
		json_object_array_add(nodes, n);
	}
	json_object_object_add(o, "nodes", nodes);
	return o;
}

json_object *hostinfo_kernel(void)
{
	struct utsname u;
	json_object *o;

	if (uname(&u) < 0)
		return hostinfo_error("uname", strerror(errno));
	o = json_object_new_object();
	json_object_object_add(o, "release", json_object_new_string(u.release));
	json_object_object_add(o, "machine", json_object_new_string(u.machine));
	return o;
}

/* Present and openable is all this says: whether KVM can really run a guest (nested
 * KVM often cannot) is the accel probe's question, answered by a real boot. */
json_object *hostinfo_kvm(void)
{
	json_object *o = json_object_new_object();
	bool present = access("/dev/kvm", F_OK) == 0;
	int fd = present ? open("/dev/kvm", O_RDWR | O_CLOEXEC) : -1;

	json_object_object_add(o, "present", json_object_new_boolean(present));
	json_object_object_add(o, "openable", json_object_new_boolean(fd >= 0));
	if (present && fd < 0)
		json_object_object_add(o, "error", json_object_new_string(strerror(errno)));
	if (fd >= 0)
		close(fd);
	return o;
}
