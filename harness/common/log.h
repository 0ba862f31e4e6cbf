/* Messages to the user. The error contract: library code never exits; it returns a status
 * and a one-line reason (char **why), and only the command entry points (cmd_*.c, main.c)
 * print it (hb_usage_why: exit 2 for bad input; hb_fail_why: exit 1 for a failure). */
#ifndef HB_COMMON_LOG_H
#define HB_COMMON_LOG_H

#include <stdarg.h>
#include <stdbool.h>

#define HB_EXIT_OK 0
#define HB_EXIT_FAIL 1  /* the measured thing failed or regressed */
#define HB_EXIT_USAGE 2 /* bad input: nothing was run */

/* "harness: <msg>" on stderr; returns HB_EXIT_USAGE for the entry point to return. */
__attribute__((format(printf, 1, 2))) int hb_usage(const char *fmt, ...);
/* hb_usage("%s", why), then frees why: the one line a library call gave back (NULL:
 * the library printed it already). */
int hb_usage_why(char *why);
/* "harness: error: <why>" (unless NULL), frees why, returns HB_EXIT_FAIL. */
int hb_fail_why(char *why);
/* "harness: error: <msg>" on stderr; returns so callers can clean up. */
__attribute__((format(printf, 1, 2))) void hb_error(const char *fmt, ...);
/* "harness: warning: <msg>" on stderr. */
__attribute__((format(printf, 1, 2))) void hb_warn(const char *fmt, ...);
/* Informational line on stderr. */
__attribute__((format(printf, 1, 2))) void hb_info(const char *fmt, ...);
/* Out of memory, or a state the code itself rules out (a bug, like a failed assert):
 * "harness: fatal: <msg>", then abort(). Never for bad input or a failure a caller can
 * report: those return a reason. */
__attribute__((noreturn, format(printf, 1, 2))) void hb_fatal(const char *fmt, ...);

#endif
