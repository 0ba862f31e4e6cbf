/* A tiny assertion helper for the guest-path unit tests: every failed check prints where
 * and what, and the test exits 1 if any failed. */
#ifndef HB_TESTS_GUEST_CHECK_H
#define HB_TESTS_GUEST_CHECK_H

#include <stdio.h>
#include <string.h>

#define CHECK(failures, cond)                                                        \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			(*(failures))++;                                            \
		}                                                                    \
	} while (0)

#define CHECK_STR(failures, got, want)                                               \
	do {                                                                         \
		const char *g_ = (got), *w_ = (want);                                \
		if (!g_ || strcmp(g_, w_)) {                                         \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__, \
				g_ ? g_ : "(null)", w_);                             \
			(*(failures))++;                                            \
		}                                                                    \
	} while (0)

#endif
