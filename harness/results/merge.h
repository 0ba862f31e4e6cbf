/* Merging result sets (`harness merge OUT SET...`, and the Slurm executor's shards into
 * their run): samples are copied line by line, each gaining "host" (the node that
 * measured it) when it has none; OUT's meta.json lists every node's hostinfo under
 * "hosts" and the inputs under "merged_from".
 *
 * Sets measured differently cannot be pooled: other kernel cache keys for a build, other
 * parameters of a workload, other variant definitions, other accel or other clocks (a
 * set without "clock" counts as "host") are refused, naming the difference; so are sets
 * of a counted clock (icount) from different QEMU versions (results/provenance.h).
 *
 * Rounds stay pairable: samples are paired by (workload, cores, boot), so when a set's
 * rounds collide with an earlier set's (two hosts each measured boot 0), its boots are
 * shifted past the earlier ones ("boot_offset" in merged_from). Shards of one run never
 * collide and keep their plan's round numbers. */
#ifndef HB_RESULTS_MERGE_H
#define HB_RESULTS_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

/* Writes out/samples.jsonl (atomically) and out/meta.json from the n sets. base: the
 * meta.json to extend (not consumed); NULL: the first set's. The caller holds out's lock.
 * 0; HB_EXIT_USAGE with *why (a set that is not one, sets that cannot be merged);
 * HB_EXIT_FAIL with *why (I/O). */
int merge_sets(const char *out, char *const *sets, size_t n, json_object *base, char **why);
/* The checks of merge_sets without writing: 0, or HB_EXIT_USAGE with *why. */
int merge_check_sets(char *const *sets, size_t n, char **why);
/* 0 when the sets' meta.json can be merged, else -1 with the one-line *why. With warn,
 * says what differs but does not prevent it (host-clock sets of two QEMU versions). */
int merge_check(json_object *const *metas, char *const *sets, size_t n, bool warn, char **why);
/* The name of the host that measured set dir: meta host.hostname, else shard.node,
 * else the folder's name. Caller frees. */
char *merge_host_name(json_object *meta, const char *dir);

#endif
