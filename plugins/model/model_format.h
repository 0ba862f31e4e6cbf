/* What hb-model.so (plugins/model/plugin.c) writes at the end of each marked section, and
 * what the harness reads back (harness/model/): one line on QEMU's stderr (qemu.log),
 *
 *     hb-model: section REP ID kernel F1 ... Fn user F1 ... Fn
 *
 * REP: the ordinal of the repetition (the id-0 section, guest/marker.h) the section belongs
 * to, from 0 in boot order; ID: the marker id; then the counts of the fields below, in this
 * order, for kernel mode (instruction address in the upper half) and user mode. One list,
 * so the writer and the reader cannot disagree on the order. docs/model.md says what each
 * count is and how the model prices it. */
#ifndef HB_PLUGINS_MODEL_FORMAT_H
#define HB_PLUGINS_MODEL_FORMAT_H

#define HB_MODEL_PREFIX "hb-model: "
#define HB_MODEL_SECTION "section"

/* X(enum suffix, name) */
#define HB_MODEL_FIELDS(X)                                                                 \
	X(INSNS, "insns")             /* guest instructions, each rep execution one */    \
	X(STOS1, "stos_1")            /* rep stos elements by element size */             \
	X(STOS2, "stos_2")                                                                 \
	X(STOS4, "stos_4")                                                                 \
	X(STOS8, "stos_8")                                                                 \
	X(MOVS1, "movs_1")            /* rep movs elements by element size */             \
	X(MOVS2, "movs_2")                                                                 \
	X(MOVS4, "movs_4")                                                                 \
	X(MOVS8, "movs_8")                                                                 \
	X(OTHER, "rep_other")         /* rep lods/cmps/scas/ins/outs executions */        \
	X(STOS_STARTS, "stos_starts") /* rep stos instructions started */                 \
	X(MOVS_STARTS, "movs_starts") /* rep movs instructions started */                 \
	X(L2_HITS, "l2_hits")         /* data accesses missing L1, hitting L2 (not rep stos/movs) */ \
	X(L2_MISSES, "l2_misses")     /* data accesses missing both levels (not rep stos/movs) */   \
	X(NEW_4K, "new_4k")           /* 4 KiB guest pages touched for the first time */   \
	X(NEW_2M, "new_2m")           /* 2 MiB guest pages touched for the first time */

#define HB_MODEL_ENUM_(e, n) HB_MODEL_##e,
enum hb_model_field { HB_MODEL_FIELDS(HB_MODEL_ENUM_) HB_MODEL_NFIELDS };
#undef HB_MODEL_ENUM_

enum hb_model_mode { HB_MODEL_KERNEL, HB_MODEL_USER, HB_MODEL_NMODES };

#endif
