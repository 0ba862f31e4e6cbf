/* The kernel definitions as `harness list` prints them (configs/list.c). */
#ifndef HB_CONFIGS_LIST_H
#define HB_CONFIGS_LIST_H

/* "variants (kernel-configs/variants):" and one entry per variant: build, cmdline, seed. */
void configs_print_variants(void);
/* "builds (kernel-configs/builds):" with each patched build's lines. */
void configs_print_builds(void);
/* "kernel lines (...)": each line's description and source, the default marked. */
void configs_print_lines(void);

#endif
