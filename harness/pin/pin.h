/* Where a guest's vCPUs and memory go on the host.
 *
 * Plan (hwloc): one distinct physical core per vCPU (never two vCPUs on SMT siblings of a
 * core), inside one NUMA node when they fit, and one more core left for QEMU's main and I/O
 * threads (and virtiofsd) when the host has one to spare. More vCPUs than cores is refused
 * unless overcommit is asked for; then vCPUs share cores round-robin.
 * Apply: each vCPU thread bound to its PU (hwloc_set_proc_cpubind with
 * HWLOC_CPUBIND_THREAD on the thread id QMP reports); guest memory bound to the plan's
 * nodes (QEMU memory-backend host-nodes + libnuma numa_set_membind for QEMU itself). */
#ifndef HB_PIN_PIN_H
#define HB_PIN_PIN_H

#include <hwloc.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <sys/types.h>

struct pin_vcpu {
	int pu;    /* OS index of the PU the vCPU thread is bound to */
	int core;  /* logical index of its core */
	int node;  /* OS index of its NUMA node, -1 when unknown */
};

struct pin_plan {
	int nvcpus;
	struct pin_vcpu *vcpus;
	int host_cores;
	int housekeeping_core;   /* logical index, -1 when no core is spare */
	char *housekeeping_pus;  /* e.g. "0" or "0,8" (its PUs), NULL when none */
	char *nodes;             /* NUMA nodes used, libnuma nodestring ("0", "0-1"), or NULL */
	bool overcommitted;
	bool shares_busy;        /* too few free cores: some vCPUs on a core another guest holds */
	char *note;              /* one sentence for logs and reports */
};

/* The host's topology as planning needs it, from Linux's sysfs: cores, PUs and NUMA nodes,
 * not the caches or I/O devices nor the x86 backend's CPUID walk over every PU (every boot
 * loads it twice; 0.8 ms to 0.2 ms at best here, and no thread migrations). 0, or -1
 * (*topo destroyed). */
int pin_topology_load(hwloc_topology_t *topo);
/* Physical cores of the topology (PUs when it reports no cores). */
int pin_count_cores(hwloc_topology_t topo);
/* OS index of the first PU of the core with this logical index, -1 when there is none. */
int pin_core_first_pu(hwloc_topology_t topo, int logical);
/* 0 and *plan filled; -1 with *why (malloc'd) when nvcpus exceeds the cores and
 * overcommit is false: "3 vCPUs but this host has 2 physical cores (...)". busy (NULL, or
 * one flag per core by logical index) marks the cores other guests' vCPUs hold: the plan
 * uses only the others, unless they are too few (then all, and shares_busy says so). */
int pin_plan_make(hwloc_topology_t topo, int nvcpus, bool overcommit, const bool *busy,
		  struct pin_plan *plan, char **why);

/* A plan made for one vCPU thread, widened to nvcpus vCPUs that all run in it: under the
 * icount clock QEMU runs every vCPU of a guest in one host thread, taking turns, so a guest
 * of any vCPU count needs one core (and claims one), never an overcommit. */
void pin_plan_one_thread(struct pin_plan *plan, int nvcpus);

/* Core claims between harness processes of one user on one host, so that two runs (or
 * meson's parallel tests) never bind their vCPUs to the same core. A claim is an flock on
 * <hb_tmp_root()>/pin-cpu<first PU>.lock, held while the guest runs; a killed process
 * drops it with its descriptors. */
struct pin_claims {
	int *fds;
	int n;
};
/* pin_plan_make with the cores other processes claim marked busy, and a claim taken on
 * each core the plan gives a vCPU (probing and planning under <root>/pin-plan.lock, so
 * two planners never pick the same free core). When the claims folder cannot be used,
 * one warning and a plan without claims. */
int pin_plan_claimed(hwloc_topology_t topo, int nvcpus, bool overcommit, struct pin_plan *plan,
		     struct pin_claims *claims, char **why);
void pin_claims_release(struct pin_claims *claims);
void pin_plan_free(struct pin_plan *plan);

/* Binds the vCPU threads (tids[i] runs vCPU i), and QEMU's other threads plus helper_pid
 * (virtiofsd, or 0) to the housekeeping core when there is one. 0, or -1 with *why. */
int pin_apply(hwloc_topology_t topo, const struct pin_plan *plan, pid_t qemu_pid,
	      const pid_t *tids, int ntids, pid_t helper_pid, char **why);
/* For the calling process (call in the QEMU child before exec): bind memory to the plan's
 * nodes with libnuma. 0, or an errno value. No NUMA support on the host is not an error. */
int pin_bind_memory_self(const struct pin_plan *plan);
/* [{"vcpu":0,"thread":1234,"pu":2,"core":1,"node":0}, ...]; tids may be NULL (dry run). */
json_object *pin_map_json(const struct pin_plan *plan, const pid_t *tids);
/* The plan's nodes in QEMU's host-nodes syntax ("0", "0-1", "0,host-nodes=2"), or NULL. */
char *pin_qemu_host_nodes(const struct pin_plan *plan);

#endif
