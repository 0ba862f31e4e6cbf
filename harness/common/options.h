/* One option table per command (in the manner of fio's and perf's): each entry names the
 * option, its value kind and limits, its default, its help and where the value goes.
 * The table drives getopt_long's array, the --help text, the defaults, the limits and the
 * "accepted: ..." of every error, so no command keeps parallel lists by hand.
 *
 * Options shared by several commands (the VM options of run, boot and the KVM probe:
 * boot/vm_options.h) are one fragment of entries, placed in each command's table as a
 * group with the offset of the struct they fill inside that command's options struct. */
#ifndef HB_COMMON_OPTIONS_H
#define HB_COMMON_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum hb_opt_kind {
	HB_OPT_FLAG,       /* no value: sets a bool */
	HB_OPT_FLAG_OFF,   /* no value: clears a bool that starts true (--no-pin) */
	HB_OPT_INT,        /* int in [min, max] */
	HB_OPT_LONG,       /* long in [min, max] */
	HB_OPT_DOUBLE,     /* double in [min, max] */
	HB_OPT_SIZE_MIB,   /* long MiB in [min, max], given as 512M, 2G, 1024 */
	HB_OPT_CHOICE,     /* int: index into choices */
	HB_OPT_CHOICE_STR, /* const char *: the matching element of choices */
	HB_OPT_STRING,     /* const char *, pointing into argv */
	HB_OPT_LONG_LIST,  /* long *, count at count_off: "2,6,12" each in [min, max] */
	HB_OPT_STR_LIST,   /* char ** (NULL-terminated): "a,b,c", the last use wins */
	HB_OPT_STR_REPEAT, /* char ** (NULL-terminated): one item per use */
	HB_OPT_CUSTOM,     /* set() checks and stores the value */
};

/* Where an option is listed in --help and the man pages: a heading each, in this order.
 * Give every new option one (.group = HB_OG_WHAT, ...); HB_OG_OTHER lists it last. */
enum hb_opt_group {
	HB_OG_OTHER,    /* "other options" (an entry that names no group) */
	HB_OG_WHAT,     /* what runs: kernels, variants, workloads, vCPUs, own changes */
	HB_OG_HOW,      /* how it is measured: rounds, reps, clock, accel, memory */
	HB_OG_WHERE,    /* where things go: output, result sets, cache, executor */
	HB_OG_ADVANCED, /* advanced: guest machine details, build knobs, limits */
	HB_OG_COUNT,
};

/* What a shell completes as an option's value (or a command's operand). HB_CMP_DEFAULT:
 * the choices of a CHOICE kind, files for a string, nothing for a number. The data kinds
 * are asked of `harness list --names KIND` when completing, never baked in. */
enum hb_complete {
	HB_CMP_DEFAULT,
	HB_CMP_NONE,
	HB_CMP_FILE,
	HB_CMP_DIR,
	HB_CMP_VARIANTS,
	HB_CMP_BUILDS,   /* builds and variants (build takes either) */
	HB_CMP_WORKLOADS,
	HB_CMP_LINES,
	HB_CMP_PARAMS,   /* W.KEY= of every workload */
};

struct hb_option {
	const char *name;            /* long name, without "--" */
	char letter;                 /* short option, or 0 */
	enum hb_opt_kind kind;
	const char *arg;             /* the value's name in --help ("N", "SIZE"); NULL: none */
	const char *help;            /* "\n" continues on the next help line */
	double min, max;             /* numeric kinds */
	const char *const *choices;  /* CHOICE kinds: NULL-terminated */
	size_t off;                  /* where the value goes, from the group's base */
	size_t count_off;            /* LONG_LIST: its size_t count */
	const char *def;             /* parsed as if given before argv; said in --help */
	/* Offset (from the group's base) of a bool set when the option is on the command
	 * line, not when .def set it; 0: none (such a bool is never a struct's first member). */
	size_t given_off;
	bool optional_value;         /* --name or --name=VALUE (set() gets NULL without one) */
	/* CUSTOM, and extra checks of other kinds (after the store): 0, or -1 with *why. */
	int (*set)(void *base, const char *value, char **why);
	enum hb_opt_group group;     /* its heading in --help and the man page */
	bool hidden;                 /* internal (set by the harness itself): no --help, man or
				      * completion entry, still parsed */
	enum hb_complete complete;   /* what a shell completes as its value */
};

/* One example of a command: --help prints it, the man page lists it under EXAMPLES. */
struct hb_example {
	const char *line;            /* "harness run --workloads hugetlb" */
	const char *what;            /* what it does, one sentence */
};

struct hb_optgroup {
	const struct hb_option *opts; /* ends with an entry whose name is NULL */
	size_t base;                  /* offset of the struct this group fills */
};

struct hb_cmdspec {
	const char *cmd;              /* "run": the first word of its errors */
	const char *usage;            /* --help text before the options */
	const char *epilog;           /* --help text after them, or NULL */
	struct hb_optgroup groups[6]; /* ends with a group whose opts is NULL */
	bool stop_at_dashdash;        /* options end at "--" (boot's CMD follows it) */
	/* Non-NULL: hb_opts_cmd wants exactly one operand, named so in its errors, e.g.
	 * "RUN" accepted as "a result set directory or run name". */
	const char *operand;
	const char *operand_accepted;
	const struct hb_example *examples;          /* ends with { NULL }; or NULL */
	const char *group_titles[HB_OG_COUNT];      /* NULL: the group's usual heading */
	enum hb_complete operand_complete;          /* what a shell completes as an operand */
	const char *const *operand_words;           /* or these words (list's kinds) */
	const char *exit_status;                    /* NULL: 0 done, 1 failed, 2 bad input */
};

enum { HB_OPTS_OK = 0, HB_OPTS_HELP = 1, HB_OPTS_BAD = -1 };

/* Applies the defaults, then parses argv[1..argc-1]. HB_OPTS_OK with *first_operand
 * the index of the first non-option argument; HB_OPTS_HELP when --help was printed on
 * stdout; HB_OPTS_BAD with *why (one line for the caller to print with exit 2). */
int hb_opts_parse(const struct hb_cmdspec *s, int argc, char **argv, void *out,
		  int *first_operand, char **why);
/* hb_opts_parse for an entry point, with the operand check of s->operand: true to go on;
 * false with *status to return (0 after --help, 2 after printing the one-line reason). */
bool hb_opts_cmd(const struct hb_cmdspec *s, int argc, char **argv, void *out, int *first_operand,
		 int *status);
/* --help: the usage text, the options by group (hidden ones left out), wrapped to 80
 * columns, then the examples and the epilog. */
void hb_opts_help(const struct hb_cmdspec *s, FILE *f);
/* s->usage in parts: the synopsis lines (each without "usage: " or its indent) and the
 * description's paragraphs, each one line; both NULL-terminated (hb_free_strv). */
void hb_opts_usage_parts(const struct hb_cmdspec *s, char ***synopsis, char ***paragraphs);
/* The options of s that --help, the man page and the completion list, by group in their
 * listing order, hidden ones left out; NULL-terminated (caller frees the array). */
const struct hb_option **hb_opts_listing(const struct hb_cmdspec *s);
/* The heading of group g in s (its own title, else the usual one). */
const char *hb_opts_group_title(const struct hb_cmdspec *s, enum hb_opt_group g);
/* Frees the lists the table allocated in out (LONG_LIST, STR_LIST, STR_REPEAT). */
void hb_opts_free(const struct hb_cmdspec *s, void *out);

#endif
