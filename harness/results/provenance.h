/* Which QEMU measured a set (meta.json "qemu", written by run/meta.c), and whether two
 * sets may be put side by side because of it.
 *
 *   "qemu": {"version": "7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)",  what `--version`
 *                                              says after "version ": the distribution's
 *                                              build included, as TCG patches ride there
 *            "binary": "qemu-system-x86_64",
 *            "cpu": "max",                     the -cpu model the guests ran on
 *            "plugins": ["PATH[,ARGS]", ...]}  TCG plugins loaded into every boot
 *
 * Under icount (and any other clock that counts guest instructions) a time is a count as
 * that QEMU translates the guest: the same kernel reached init at 71.9M ns on QEMU 7.2
 * and 74.3M ns on 10.0. Such sets from different QEMU versions are refused; host-clock and
 * KVM sets, whose times are the host's, are only warned about. Sets from before the record
 * say nothing and are let through with a warning when their clock counts. */
#ifndef HB_RESULTS_PROVENANCE_H
#define HB_RESULTS_PROVENANCE_H

#include <stdbool.h>
#include <json-c/json.h>

#define RS_META_QEMU "qemu"

/* meta.json's qemu.version, or NULL when the set does not record it. */
const char *rs_qemu_version(json_object *meta);
/* Does any workload of the set run under a clock that counts guest instructions (icount,
 * model)? From meta.json's clock record: its name and each workload's. */
bool rs_counted_clock(json_object *meta);
/* Sets a and b (named name_a, name_b in messages) by their QEMU: 0 when they may go side
 * by side without a word; 1 when they may but *why says what differs (a warning to
 * print); -1 when they must not (*why: one line naming both versions). Caller frees *why. */
int rs_qemu_check(json_object *a, json_object *b, const char *name_a, const char *name_b, char **why);

#endif
