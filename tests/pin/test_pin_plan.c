/* The pin planner on hwloc synthetic topologies: distinct cores, no SMT siblings, one NUMA
 * node when the vCPUs fit, a housekeeping core when one is spare, refusal without
 * --overcommit; cores other guests hold left out, and the claims that say so. */
#include <stdlib.h>
#include <string.h>

#include "scratch.h"
#include "test.h"
#include "pin/pin.h"

static hwloc_topology_t synthetic(const char *desc)
{
	hwloc_topology_t t;

	if (hwloc_topology_init(&t) < 0 || hwloc_topology_set_synthetic(t, desc) < 0 ||
	    hwloc_topology_load(t) < 0) {
		fprintf(stderr, "cannot build synthetic topology '%s'\n", desc);
		exit(1);
	}
	return t;
}

/* No two vCPUs on one core (so none on SMT siblings), each on its core's first PU. */
static void check_distinct(int *failures, hwloc_topology_t t, const struct pin_plan *p)
{
	for (int i = 0; i < p->nvcpus; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, (unsigned)p->vcpus[i].core);
		CHECK(core && hwloc_bitmap_isset(core->cpuset, (unsigned)p->vcpus[i].pu));
		CHECK(core && hwloc_bitmap_first(core->cpuset) == p->vcpus[i].pu);
		for (int k = 0; k < i; k++)
			CHECK(p->vcpus[k].core != p->vcpus[i].core);
		CHECK(p->vcpus[i].core != p->housekeeping_core);
	}
}

TEST(smt_one_node)
{
	hwloc_topology_t topo = synthetic("pack:2 core:4 pu:2");
	struct pin_plan p;
	char *why = NULL;

	CHECK(pin_count_cores(topo) == 8);
	CHECK(pin_plan_make(topo, 2, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.housekeeping_core == 0);           /* core 0 left to QEMU's threads */
	CHECK_STR(p.housekeeping_pus, "0-1");      /* both of its hyperthreads */
	CHECK(p.vcpus[0].pu == 2 && p.vcpus[1].pu == 4);
	CHECK_STR(p.nodes, "0");
	CHECK(!p.overcommitted && strstr(p.note, "core 0"));
	pin_plan_free(&p);

	CHECK(pin_plan_make(topo, 8, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.housekeeping_core == -1 && !p.housekeeping_pus);
	CHECK(strstr(p.note, "no spare core") != NULL);
	pin_plan_free(&p);

	CHECK(pin_plan_make(topo, 9, false, NULL, &p, &why) == -1);
	CHECK(why && strstr(why, "9 vCPUs") && strstr(why, "8 physical cores") &&
	      strstr(why, "--overcommit"));
	free(why);

	CHECK(pin_plan_make(topo, 9, true, NULL, &p, &why) == 0);
	CHECK(p.overcommitted && p.housekeeping_core == -1);
	CHECK(p.vcpus[8].core == p.vcpus[0].core);
	CHECK(strstr(p.note, "overcommitted") != NULL);
	pin_plan_free(&p);
	hwloc_topology_destroy(topo);
}

TEST(numa)
{
	hwloc_topology_t topo = synthetic("pack:2 [numa] core:4 pu:2");
	struct pin_plan p;
	char *why = NULL, *nodes;

	/* 3 fit in one node with a spare: all in that node, housekeeping there too. */
	CHECK(pin_plan_make(topo, 3, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.vcpus[0].node == p.vcpus[1].node && p.vcpus[1].node == p.vcpus[2].node);
	CHECK(p.housekeeping_core >= 0);
	CHECK_STR(p.nodes, p.vcpus[0].node == 0 ? "0" : "1");
	pin_plan_free(&p);

	/* 4 fill one node exactly: still one node; the spare core is in the other. */
	CHECK(pin_plan_make(topo, 4, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	for (int i = 1; i < 4; i++)
		CHECK(p.vcpus[i].node == p.vcpus[0].node);
	CHECK(p.housekeeping_core >= 0);
	pin_plan_free(&p);

	/* 6 span both nodes; memory is bound to both. */
	CHECK(pin_plan_make(topo, 6, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK_STR(p.nodes, "0-1");
	nodes = pin_qemu_host_nodes(&p);
	CHECK_STR(nodes, "0-1");
	free(nodes);
	free(p.nodes);
	p.nodes = strdup("0,2");
	nodes = pin_qemu_host_nodes(&p);
	CHECK_STR(nodes, "0,host-nodes=2");
	free(nodes);
	pin_plan_free(&p);
	hwloc_topology_destroy(topo);
}

/* This machine's shape: 2 cores, 1 PU each, 2 vCPUs: both cores, nothing spare. */
TEST(two_cores)
{
	hwloc_topology_t topo = synthetic("core:2 pu:1");
	struct pin_plan p;
	char *why = NULL;
	json_object *map;

	CHECK(pin_plan_make(topo, 2, false, NULL, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.housekeeping_core == -1);
	CHECK(strstr(p.note, "no spare core for QEMU's main and I/O threads") != NULL);
	pid_t tids[2] = { 100, 101 };
	map = pin_map_json(&p, tids);
	CHECK(json_object_array_length(map) == 2);
	for (size_t i = 0; i < 2 && json_object_array_length(map) == 2; i++) {
		json_object *e = json_object_array_get_idx(map, i), *v;
		CHECK(json_object_object_get_ex(e, "vcpu", &v) && json_object_get_int(v) == (int)i);
		CHECK(json_object_object_get_ex(e, "thread", &v) && json_object_get_int(v) == 100 + (int)i);
		CHECK(json_object_object_get_ex(e, "pu", &v) && json_object_get_int(v) == (int)i);
		CHECK(json_object_object_get_ex(e, "core", &v) && json_object_get_int(v) == (int)i);
		CHECK(json_object_object_get_ex(e, "node", &v));
	}
	json_object_put(map);
	pin_plan_free(&p);
	CHECK(pin_plan_make(topo, 3, false, NULL, &p, &why) == -1 && strstr(why, "2 physical cores"));
	free(why);
	hwloc_topology_destroy(topo);
}

/* icount: 24 vCPUs in QEMU's one TCG thread on a 2-core host: planned for one thread (one
 * core, the other left for QEMU's main and I/O threads), then widened to 24 vCPUs on that
 * core, not overcommitted, and the note says why. */
TEST(icount_one_thread)
{
	hwloc_topology_t topo = synthetic("core:2 pu:1");
	struct pin_plan p;
	char *why = NULL;

	CHECK(pin_plan_make(topo, 1, false, NULL, &p, &why) == 0);
	pin_plan_one_thread(&p, 24);
	CHECK(p.nvcpus == 24);
	for (int i = 0; i < p.nvcpus; i++)
		CHECK(p.vcpus[i].core == p.vcpus[0].core && p.vcpus[i].pu == p.vcpus[0].pu);
	CHECK(!p.overcommitted);
	CHECK(p.housekeeping_core >= 0 && p.housekeeping_core != p.vcpus[0].core);
	CHECK(strstr(p.note, "24 vCPUs in one host thread (icount runs them in turn)") != NULL);
	CHECK(strstr(p.note, "QEMU's main and I/O threads on core") != NULL);
	pin_plan_free(&p);
	hwloc_topology_destroy(topo);
}

/* Cores another guest holds are left out while enough others are free. */
TEST(busy_cores)
{
	hwloc_topology_t topo = synthetic("core:4 pu:1");
	bool busy[4] = { false, true, false, false };
	bool all_busy[4] = { true, true, true, true };
	struct pin_plan p;
	char *why = NULL;

	/* Without busy cores 2 vCPUs take cores 1 and 2 (core 0 skipped, spare): here 2 and 3. */
	CHECK(pin_plan_make(topo, 2, false, busy, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.vcpus[0].core == 2 && p.vcpus[1].core == 3, "cores %d %d", p.vcpus[0].core,
	      p.vcpus[1].core);
	CHECK(p.housekeeping_core == 0 && !p.shares_busy);
	CHECK(!strstr(p.note, "SHARED"));
	pin_plan_free(&p);

	/* 4 vCPUs, 3 free cores: all four cores, said so. */
	CHECK(pin_plan_make(topo, 4, false, busy, &p, &why) == 0);
	check_distinct(failures, topo, &p);
	CHECK(p.shares_busy && strstr(p.note, "SHARED") && !p.overcommitted);
	pin_plan_free(&p);

	CHECK(pin_plan_make(topo, 1, false, all_busy, &p, &why) == 0);
	CHECK(p.shares_busy && p.housekeeping_core >= 0);
	pin_plan_free(&p);
	hwloc_topology_destroy(topo);
}

/* Two planners in turn (two open files: flock tells them apart as it does two processes):
 * the second avoids the first one's cores, and gets them once the first lets go. */
TEST(claims)
{
	char *dir = scratch_dir();
	hwloc_topology_t topo = synthetic("core:2 pu:1");
	struct pin_plan a, b, c;
	struct pin_claims ca, cb, cc;
	char *why = NULL;

	setenv("XDG_RUNTIME_DIR", dir, 1);
	CHECK(pin_plan_claimed(topo, 1, false, &a, &ca, &why) == 0 && ca.n == 1);
	CHECK(pin_plan_claimed(topo, 1, false, &b, &cb, &why) == 0 && cb.n == 1);
	CHECK(a.vcpus[0].core != b.vcpus[0].core, "both on core %d", a.vcpus[0].core);
	CHECK(!a.shares_busy && !b.shares_busy);
	/* Both cores held: a third shares, and says so. */
	CHECK(pin_plan_claimed(topo, 1, false, &c, &cc, &why) == 0 && c.shares_busy);
	pin_plan_free(&c);
	pin_claims_release(&cc);
	pin_claims_release(&ca);
	CHECK(pin_plan_claimed(topo, 1, false, &c, &cc, &why) == 0 && !c.shares_busy);
	CHECK(c.vcpus[0].core == a.vcpus[0].core);
	pin_plan_free(&a);
	pin_plan_free(&b);
	pin_plan_free(&c);
	pin_claims_release(&cb);
	pin_claims_release(&cc);
	hwloc_topology_destroy(topo);
	hb_remove_tree(dir);
	free(dir);
}

TEST_MAIN()
