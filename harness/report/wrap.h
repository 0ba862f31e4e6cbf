/* Plain text wrapped for mail: paragraphs broken at spaces into lines of at most a width
 * (72 for a list reply). A word longer than the width (a long path) stays whole on a line
 * of its own: cutting it would change what it says. Internal to report/. */
#ifndef HB_REPORT_WRAP_H
#define HB_REPORT_WRAP_H

#include <stdio.h>

#define MAIL_WIDTH 72

/* Writes text (spaces separate words; runs of spaces count as one) wrapped at width: the
 * first line starts with first, the others with rest; ends with a newline. */
void wrap_paragraph(FILE *out, const char *text, const char *first, const char *rest, int width);
/* A command line: words joined by spaces, broken with " \" continuations (so that it can
 * be pasted into a shell as it is), continuation lines indented by rest. */
void wrap_command(FILE *out, const char *cmd, const char *first, const char *rest, int width);

#endif
