/* The whole host object, part by part (hostinfo.c, hostinfo_cpu.c). Kept apart from the
 * parts so that they, which share hostinfo_error(), never call back up here. */
#include "hostinfo/hostinfo.h"

#include <unistd.h>

json_object *hostinfo_collect(void)
{
	json_object *o = json_object_new_object();
	char name[256] = "";

	/* Which machine: merged sets (harness merge, Slurm shards) tell their hosts apart by it. */
	if (gethostname(name, sizeof(name) - 1) == 0)
		json_object_object_add(o, "hostname", json_object_new_string(name));

	json_object_object_add(o, "cpu", hostinfo_cpu());
	json_object_object_add(o, "topology", hostinfo_topology());
	json_object_object_add(o, "numa", hostinfo_numa());
	json_object_object_add(o, "kernel", hostinfo_kernel());
	json_object_object_add(o, "kvm", hostinfo_kvm());
	return o;
}
