/* Typed option values, shared by the option tables (common/options.h) and the workload
 * parameters (workload/params.c). Each parser returns 0 and stores the value, or -1 with
 * *why: one line naming the option, the bad value and what is accepted (the caller, a
 * command's entry point, prints it and exits 2). */
#ifndef HB_COMMON_ARGPARSE_H
#define HB_COMMON_ARGPARSE_H

#include <stdbool.h>
#include <stddef.h>

int hb_parse_long(const char *option, const char *value, long min, long max, long *out,
		  char **why);
int hb_parse_double(const char *option, const char *value, double min, double max,
		    double *out, char **why);
/* Sizes like 512M, 2G, 1024 (MiB when no suffix), stored in MiB. */
int hb_parse_size_mib(const char *option, const char *value, long min_mib, long max_mib,
		      long *out, char **why);
/* value must be one of the NULL-terminated choices; stores its index. */
int hb_parse_choice(const char *option, const char *value, const char *const choices[],
		    int *out, char **why);
/* "a, b, c": the choices joined, newly allocated. */
char *hb_join_choices(const char *const choices[]);
/* The same of a list of names that may be NULL (no names: ""). */
char *hb_join_names(char *const *names);

/* Comma-separated list split into a NULL-terminated, newly allocated array. Empty items
 * ("a,,b") are refused, naming the option. */
int hb_split_list(const char *option, const char *value, char ***out, size_t *count, char **why);
/* Comma-separated integers in [min, max], e.g. --cores 2,6,12,24. */
int hb_parse_long_list(const char *option, const char *value, long min, long max, long **out,
		       size_t *count, char **why);
void hb_free_strv(char **v);
size_t hb_strv_len(char *const *v);
bool hb_strv_contains(char *const *v, const char *s);
/* A copy of s at the end of the NULL-terminated *list (NULL: empty) unless it is there. */
void hb_strv_append_once(char ***list, const char *s);
/* Sorts v[0..n) by strcmp. */
void hb_strv_sort(char **v, size_t n);

/* A NULL-terminated string list being built: v stays NULL-terminated after every push, so
 * it can go to hb_free_strv or an exec argv at any time. */
struct hb_strv {
	char **v;
	size_t n, cap;
};
/* Appends owned (freed with the list). */
void hb_strv_push(struct hb_strv *s, char *owned);

#endif
