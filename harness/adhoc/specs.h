/* The values of the ad-hoc options, taken apart (syntax only: adhoc.c checks what they
 * name). Every error is one line naming the option, the value and what is accepted. */
#ifndef HB_ADHOC_SPECS_H
#define HB_ADHOC_SPECS_H

#include <stdbool.h>

/* --patch [NAME=]FILE[,FILE...] */
struct patch_spec {
	char *name;    /* NULL: from the first patch's subject */
	char **files;  /* NULL-terminated; each exists (a file or a folder) */
};

/* --patch-cmdline NAME=ARGS, --variant NAME=BUILD:ARGS */
struct named_args {
	char *name;
	char *build;   /* --variant only */
	char *args;    /* may be "" */
};

/* --kernel NAME=IMAGE[,modules=DIR][,cmdline=ARGS] (cmdline= last: ARGS may hold commas) */
struct kernel_spec {
	char *name;
	char *image;
	char *modules; /* NULL when not given */
	char *cmdline; /* "" when not given */
};

int patch_spec_parse(const char *value, struct patch_spec *out, char **why);
int named_args_parse(const char *option, const char *value, bool with_build,
		     struct named_args *out, char **why);
int kernel_spec_parse(const char *value, struct kernel_spec *out, char **why);
/* A kernel command line that can go into a kernel-configs file as it is: one line, no
 * ';' or '#' (INI comments). 0, or -1 with *why naming option and value. */
int specs_check_cmdline(const char *option, const char *args, char **why);
void patch_spec_free(struct patch_spec *s);
void named_args_free(struct named_args *a);
void kernel_spec_free(struct kernel_spec *k);

#endif
