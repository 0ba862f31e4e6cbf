/* Option-value parsing shared by all commands. Each parser either returns a valid value
 * or calls hb_usage_error() with the option, the bad value and what is accepted. */
#ifndef HB_COMMON_ARGPARSE_H
#define HB_COMMON_ARGPARSE_H

#include <stdbool.h>
#include <stddef.h>

long hb_parse_long(const char *option, const char *value, long min, long max);
double hb_parse_double(const char *option, const char *value, double min, double max);
/* Sizes like 512M, 2G, 1024 (MiB when no suffix). Returns MiB. */
long hb_parse_size_mib(const char *option, const char *value, long min_mib, long max_mib);
/* value must be one of the NULL-terminated choices; returns its index. */
int hb_parse_choice(const char *option, const char *value, const char *const choices[]);

/* Comma-separated list split into a NULL-terminated, newly allocated array.
 * Empty items ("a,,b") are a usage error naming the option. */
char **hb_split_list(const char *option, const char *value, size_t *count);
/* Comma-separated positive integers, e.g. --cores 2,6,12,24. */
long *hb_parse_long_list(const char *option, const char *value, long min, long max, size_t *count);
void hb_free_strv(char **v);
size_t hb_strv_len(char *const *v);
bool hb_strv_contains(char *const *v, const char *s);

#endif
