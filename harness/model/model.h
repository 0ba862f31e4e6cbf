/* The modelled clock (`--clock model`): the guest runs under icount, and a TCG plugin
 * (plugins/model/) counts what each marked section does; this room prices those counts
 * and turns the guest's time metrics into modelled ones. docs/model.md is the model,
 * pre-registered: its form, each constant and where it comes from, and how it is judged.
 *
 * Three readings of one section's counts, in ns:
 *   icount  instructions at 1 ns each (what --clock icount's guest clock reads, shift 0)
 *   onep    the one-parameter model: icount with rep stos repriced per byte
 *   full    the full model
 * A metric of a repetition is scaled by its section's reading over its icount reading,
 * in the metric's mode (kernel, user or both). */
#ifndef HB_MODEL_MODEL_H
#define HB_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plugins/model/model_format.h"

struct model_counts {
	uint64_t v[HB_MODEL_NMODES][HB_MODEL_NFIELDS];
};

struct model_section {
	int rep; /* ordinal of the repetition in its boot, from 0 */
	int id;  /* marker id (guest/marker.h); 0: the whole repetition */
	struct model_counts c;
};

/* The constants (docs/model.md gives each one's source). ns, or ns per byte. */
struct model_constants {
	double t_insn;       /* an instruction other than rep stos/movs elements */
	double t_stos;       /* a byte stored by rep stos (fitted on seed 000) */
	double t_movs;       /* a byte moved by rep movs */
	double t_start;      /* a rep stos/movs started */
	double t_l2;         /* a data access that missed L1 and hit L2 */
	double t_mem;        /* a data access that missed L2 */
	double onep_stos;    /* the one-parameter model's price of a byte of rep stos (fitted) */
};

extern const struct model_constants model_constants;

enum model_reading { MODEL_ICOUNT, MODEL_ONEP, MODEL_FULL };

/* Which modes a metric is priced in: its workload.ini `model` key. */
enum model_scope { MODEL_SCOPE_ALL, MODEL_SCOPE_KERNEL, MODEL_SCOPE_USER, MODEL_SCOPE_NONE };

/* "all", "kernel", "user", "none" -> 0, else -1. */
int model_scope_parse(const char *s, enum model_scope *out);
const char *model_scope_name(enum model_scope s);
/* Whether a unit is a time the model replaces (s, ms, us, usec, ns, cycles: the guest's TSC
 * counts virtual ns under icount). */
bool model_unit_is_time(const char *unit);

/* The reading of one mode's counts, in ns. */
double model_mode_ns(const uint64_t *f, enum model_reading r, const struct model_constants *k);
/* The reading of a section in a scope (the sum of its modes), in ns. */
double model_section_ns(const struct model_counts *c, enum model_scope scope,
			enum model_reading r, const struct model_constants *k);
/* value * reading / icount reading of the section in scope; value itself when the scope is
 * none or the section executed no instruction in it. */
double model_scale(double value, const struct model_counts *c, enum model_scope scope,
		   enum model_reading r, const struct model_constants *k);

/* One line of qemu.log: 1 and *out when it is a section line of the plugin, 0 when it is
 * not the plugin's, -1 with *why (malloc'd) when it is the plugin's but malformed. */
int model_parse_line(const char *line, struct model_section *out, char **why);

struct model_log {
	struct model_section *s;
	size_t n;
};

/* Every section line of a boot's qemu.log, in order. 0, or -1 with *why. */
int model_read_log(const char *path, struct model_log *out, char **why);
void model_log_free(struct model_log *l);
/* The section of repetition rep with marker id, or NULL. */
const struct model_section *model_log_find(const struct model_log *l, int rep, int id);

#endif
