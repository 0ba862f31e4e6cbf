/* Tiny assertion helpers for the kbuild unit tests. Each test function takes
 * `int *fails`; a failed check prints where and what and counts in *fails. */
#ifndef HB_TESTS_KBUILD_CHECK_H
#define HB_TESTS_KBUILD_CHECK_H

#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			(*fails)++;                                                      \
		}                                                                        \
	} while (0)

#define CHECK_STR(a, b)                                                                  \
	do {                                                                             \
		const char *a_ = (a), *b_ = (b);                                         \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                      \
			fprintf(stderr, "%s:%d: %s is '%s', expected '%s'\n", __FILE__, __LINE__, \
				#a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");             \
			(*fails)++;                                                      \
		}                                                                        \
	} while (0)

static inline int check_done(const char *name, int fails)
{
	if (fails)
		fprintf(stderr, "%s: %d check(s) failed\n", name, fails);
	else
		printf("%s: all checks passed\n", name);
	return fails ? 1 : 0;
}

#endif
