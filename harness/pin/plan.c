/* The pin planner: pure topology arithmetic, tested on hwloc synthetic topologies. */
#include "pin/pin.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct core_info {
	int logical;
	int first_pu;   /* OS index */
	int node;       /* OS index, -1 unknown */
	hwloc_obj_t obj;
};

static hwloc_obj_type_t core_type(hwloc_topology_t topo)
{
	return hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

int pin_topology_load(hwloc_topology_t *topo)
{
	if (hwloc_topology_init(topo) < 0)
		return -1;
	hwloc_topology_set_cache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_io_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	/* hwloc's x86 backend moves the thread onto every PU in turn to read its CPUID; on a
	 * loaded host each move waits for that PU (22 ms of a boot's start here at load 13).
	 * Linux's sysfs already names the cores and nodes. */
	hwloc_topology_set_components(*topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	if (hwloc_topology_load(*topo) < 0) {
		hwloc_topology_destroy(*topo);
		*topo = NULL;
		return -1;
	}
	return 0;
}

int pin_count_cores(hwloc_topology_t topo)
{
	return hwloc_get_nbobjs_by_type(topo, core_type(topo));
}

int pin_core_first_pu(hwloc_topology_t topo, int logical)
{
	hwloc_obj_t c = hwloc_get_obj_by_type(topo, core_type(topo), (unsigned)logical);

	return c ? hwloc_bitmap_first(c->cpuset) : -1;
}

static int node_of(hwloc_topology_t topo, hwloc_obj_t core)
{
	hwloc_obj_t node = NULL;

	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)))
		if (hwloc_bitmap_isincluded(core->cpuset, node->cpuset))
			return (int)node->os_index;
	return -1;
}

static struct core_info *list_cores(hwloc_topology_t topo, int *n)
{
	hwloc_obj_type_t type = core_type(topo);
	struct core_info *cores;

	*n = hwloc_get_nbobjs_by_type(topo, type);
	cores = xcalloc((size_t)(*n > 0 ? *n : 1), sizeof(*cores));
	for (int i = 0; i < *n; i++) {
		hwloc_obj_t c = hwloc_get_obj_by_type(topo, type, (unsigned)i);
		cores[i] = (struct core_info){ .logical = i, .obj = c, .node = node_of(topo, c),
					       .first_pu = pin_core_first_pu(topo, i) };
	}
	return cores;
}

/* How many cores sit in node (OS index). */
static int cores_in_node(const struct core_info *cores, int n, int node)
{
	int count = 0;
	for (int i = 0; i < n; i++)
		count += cores[i].node == node;
	return count;
}

/* The node where nvcpus fit with the fewest cores left over, preferring one with a spare
 * core (housekeeping). -1 when they fit in no single node. */
static int pick_node(const struct core_info *cores, int n, int nvcpus)
{
	int best = -1, best_count = 0;
	for (int pass = 0; pass < 2 && best < 0; pass++) {
		int want = nvcpus + (pass == 0);
		for (int i = 0; i < n; i++) {
			int count = cores_in_node(cores, n, cores[i].node);
			if (count >= want && (best < 0 || count < best_count)) {
				best = cores[i].node;
				best_count = count;
			}
		}
	}
	return best;
}

/* Marks the cores the vCPUs get: inside node when node >= 0 (skipping its first core when
 * one is spare, since core 0 of a node usually takes the host's interrupts), else (too many
 * for one node) the first cores in topology order, which fills whole nodes one by one. */
static void choose_cores(const struct core_info *cores, int n, int nvcpus, int node, int *chosen)
{
	int picked = 0;
	bool skip_first = node >= 0 && cores_in_node(cores, n, node) > nvcpus;

	for (int i = 0; i < n && picked < nvcpus; i++) {
		if (node >= 0 && cores[i].node != node)
			continue;
		if (skip_first) {
			skip_first = false;
			continue;
		}
		chosen[picked++] = i;
	}
}

static bool in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* The first unused core, preferring the vCPUs' own node. */
static int pick_housekeeping(const struct core_info *cores, int n, const int *chosen, int nvcpus)
{
	int node = nvcpus > 0 ? cores[chosen[0]].node : -1;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if (!in_list(chosen, nvcpus, i) && (pass == 1 || cores[i].node == node))
				return i;
	return -1;
}

static char *nodes_string(const struct pin_plan *plan)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char *s = NULL;

	for (int i = 0; i < plan->nvcpus; i++)
		if (plan->vcpus[i].node >= 0)
			hwloc_bitmap_set(set, (unsigned)plan->vcpus[i].node);
	if (!hwloc_bitmap_iszero(set))
		hwloc_bitmap_list_asprintf(&s, set);
	hwloc_bitmap_free(set);
	return s;
}

static void describe(struct pin_plan *plan)
{
	char *note;

	if (plan->overcommitted)
		note = xasprintf("overcommitted: %d vCPUs share %d physical cores; no core left "
				 "for QEMU's own threads", plan->nvcpus, plan->host_cores);
	else if (plan->housekeeping_core < 0)
		note = xasprintf("%d vCPUs on %d distinct cores; no spare core for QEMU's main "
				 "and I/O threads (the host has %d cores)", plan->nvcpus,
				 plan->nvcpus, plan->host_cores);
	else
		note = xasprintf("%d vCPUs on %d distinct cores; QEMU's main and I/O threads "
				 "on core %d (PU %s)", plan->nvcpus, plan->nvcpus,
				 plan->housekeeping_core, plan->housekeeping_pus);
	if (plan->shares_busy)
		plan->note = xasprintf("%s; SHARED: every free core was too few, so vCPUs sit on cores "
				       "another hardbench guest holds (their timings interfere)", note);
	else
		plan->note = xstrdup(note);
	free(note);
}

static void fill_vcpus(struct pin_plan *plan, const struct core_info *cores, const int *chosen)
{
	plan->vcpus = xcalloc((size_t)plan->nvcpus, sizeof(*plan->vcpus));
	for (int i = 0; i < plan->nvcpus; i++) {
		const struct core_info *c = &cores[chosen[i]];
		plan->vcpus[i] = (struct pin_vcpu){ .pu = c->first_pu, .core = c->logical,
						    .node = c->node };
	}
}

/* The cores not marked busy, in topology order (all of them when fewer than want are free:
 * *shared then says the vCPUs share a core with another guest). */
static struct core_info *free_cores(const struct core_info *cores, int n, const bool *busy,
				    int want, int *nfree, bool *shared)
{
	struct core_info *out = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*out));

	*nfree = 0;
	for (int i = 0; i < n; i++)
		if (!busy || !busy[i])
			out[(*nfree)++] = cores[i];
	*shared = *nfree < want && *nfree < n;
	if (*shared) {
		memcpy(out, cores, (size_t)n * sizeof(*out));
		*nfree = n;
	}
	return out;
}

int pin_plan_make(hwloc_topology_t topo, int nvcpus, bool overcommit, const bool *busy,
		  struct pin_plan *plan, char **why)
{
	int n, nfree;
	struct core_info *all = list_cores(topo, &n), *cores;
	int *chosen = xcalloc((size_t)(nvcpus > 0 ? nvcpus : 1), sizeof(*chosen));

	*plan = (struct pin_plan){ .nvcpus = nvcpus, .host_cores = n, .housekeeping_core = -1 };
	if (nvcpus > n && !overcommit) {
		*why = xasprintf("%d vCPUs but this host has %d physical core%s (one vCPU per core; "
				 "--overcommit to share cores)", nvcpus, n, n == 1 ? "" : "s");
		free(all);
		free(chosen);
		return -1;
	}
	cores = free_cores(all, n, busy, nvcpus, &nfree, &plan->shares_busy);
	if (nvcpus > nfree) {
		plan->overcommitted = true;
		for (int i = 0; i < nvcpus; i++)
			chosen[i] = i % nfree;
	} else {
		choose_cores(cores, nfree, nvcpus, pick_node(cores, nfree, nvcpus), chosen);
		plan->housekeeping_core = pick_housekeeping(cores, nfree, chosen, nvcpus);
	}
	fill_vcpus(plan, cores, chosen);
	if (plan->housekeeping_core >= 0) {
		hwloc_bitmap_list_asprintf(&plan->housekeeping_pus,
					   cores[plan->housekeeping_core].obj->cpuset);
		plan->housekeeping_core = cores[plan->housekeeping_core].logical;
	}
	plan->nodes = nodes_string(plan);
	describe(plan);
	free(cores);
	free(all);
	free(chosen);
	return 0;
}

void pin_plan_one_thread(struct pin_plan *plan, int nvcpus)
{
	struct pin_vcpu one = plan->vcpus[0];
	char *note = plan->note;

	if (nvcpus <= plan->nvcpus)
		return;
	plan->vcpus = xrealloc(plan->vcpus, (size_t)nvcpus * sizeof(*plan->vcpus));
	for (int i = 0; i < nvcpus; i++)
		plan->vcpus[i] = one;
	plan->nvcpus = nvcpus;
	plan->note = xasprintf("%d vCPUs in one host thread (icount runs them in turn) on core %d; "
			       "%s", nvcpus, one.core, strchr(note, ';') ? strchr(note, ';') + 2 : note);
	free(note);
}

void pin_plan_free(struct pin_plan *plan)
{
	free(plan->vcpus);
	free(plan->housekeeping_pus);
	free(plan->nodes);
	free(plan->note);
	*plan = (struct pin_plan){ .housekeeping_core = -1 };
}

char *pin_qemu_host_nodes(const struct pin_plan *plan)
{
	char *s, *out;
	size_t len;

	if (!plan->nodes)
		return NULL;
	/* hwloc writes "0-1,3"; QEMU takes ranges but lists as repeated keys. */
	s = plan->nodes;
	len = strlen(s);
	out = xmalloc(len * strlen(",host-nodes=") + 1);
	char *o = out;
	for (const char *p = s; *p; p++) {
		if (*p == ',') {
			strcpy(o, ",host-nodes=");
			o += strlen(o);
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

json_object *pin_map_json(const struct pin_plan *plan, const pid_t *tids)
{
	json_object *map = json_object_new_array();

	for (int i = 0; i < plan->nvcpus; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "vcpu", json_object_new_int(i));
		json_object_object_add(e, "thread", tids ? json_object_new_int(tids[i]) : NULL);
		json_object_object_add(e, "pu", json_object_new_int(plan->vcpus[i].pu));
		json_object_object_add(e, "core", json_object_new_int(plan->vcpus[i].core));
		json_object_object_add(e, "node", json_object_new_int(plan->vcpus[i].node));
		json_object_array_add(map, e);
	}
	return map;
}
