/* Text from outside (names in a result set, what a guest prints) on its way to a terminal
 * or a table: control characters, escape sequences included, could move the cursor,
 * retitle the window or hide lines; they are shown as '?'. */
#ifndef HB_COMMON_TERMSAFE_H
#define HB_COMMON_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>

/* True when s holds a control character: C0 or DEL (tab and newline included), or a C1
 * control as UTF-8 (U+0080..U+009F). */
bool hb_has_control(const char *s);
/* Replaces, in place, every control character but keep_newlines' '\n' and '\t' by '?'
 * (a C1 control's two bytes by "??"). */
void hb_strip_controls(char *s, size_t len, bool keep_newlines);
/* hb_write_for_terminal: common/fileutil.h. */

#endif
