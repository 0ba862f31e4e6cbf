/* `harness run --profile`: each timed section's guest instructions per kernel function
 * (docs/profile.md).
 *
 * Under TCG every cell's boot loads plugins/profile/hb-profile.so with the variant's
 * vmlinux; the plugin writes one profile per section the guest marks (guest/marker.h) to
 * the cell's log folder (profile.txt, plugins/profile/profile_format.h), and the run
 * turns the sections of each complete repetition into lines of RUN/profile.jsonl
 * (results/profile_set.h), each with its check against the repetition's sample. The
 * kernel command line gets hbprofile=1, so the guest init also measures the halted time
 * of each repetition (guest/init/idle.c) outside its clock. */
#ifndef HB_RUN_PROFILE_H
#define HB_RUN_PROFILE_H

#include <stddef.h>

#include "boot/vm.h"
#include "results/store.h"

struct run;
struct run_variant;
struct plan_cell;

#define PROFILE_PLUGIN_RELPATH "plugins/profile/hb-profile.so"
#define PROFILE_RAW_NAME "profile.txt"
#define PROFILE_CMDLINE "hbprofile=1"

/* --profile against the accel and each workload's clock, once they are resolved: 0, or
 * -1 with *why, one line: under KVM (no plugin; perf in the guest is not built), or the
 * host clock with several vCPUs (MTTCG: the plugin's counters are not atomic). */
int run_profile_check(const struct run *r, char **why);

/* The plugin, its arguments and the kernel command line of one cell's boot, into o;
 * the strings it makes are freed by run_profile_vm_free. */
struct profile_vm {
	char *plugin, *args, *cmdline;
};
void run_profile_vm(const struct run *r, const struct run_variant *v, const char *cmdline,
		    const char *log_dir, struct vm_opts *o, struct profile_vm *keep);
void run_profile_vm_free(struct profile_vm *keep);

/* The plugin's sections of one boot (log_dir/profile.txt). NULL with *why when the file is
 * missing or malformed (the cell's samples are kept; the profile is not). */
struct cell_profile;
struct cell_profile *cell_profile_read(const char *log_dir, char **why);
void cell_profile_free(struct cell_profile *p);
/* Its whole sections, and one's instruction count (for tests and messages). */
size_t cell_profile_sections(const struct cell_profile *p);
unsigned long long cell_profile_section_insns(const struct cell_profile *p, size_t i);

/* Appends the profile lines of the boot's repetition i (0-based in the boot; plan_rep in
 * the plan) to RUN/profile.jsonl, with the repetition's samples (all its jobs') for the
 * check: 0, or -1 with *why (nothing written for it). */
int cell_profile_rep(struct run *r, const struct plan_cell *c, const struct cell_profile *p,
		     const struct vm_result *res, int i, int plan_rep, const struct sample *samples,
		     size_t nsamples, char **why);

#endif
