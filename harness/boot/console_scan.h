/* Reading the guest's console log for the lines that explain a dead guest. */
#ifndef HB_BOOT_CONSOLE_SCAN_H
#define HB_BOOT_CONSOLE_SCAN_H

/* Panic, oops and BUG lines (at most 4, printk timestamps removed) joined with " | ", or
 * NULL when the kernel did not die. */
char *console_find_crash(const char *text);
/* The last non-empty line (timestamp removed), or NULL for an empty log. */
char *console_last_line(const char *text);
/* Both from a log file, read line by line (never whole); each NULL when there is none or
 * the file cannot be read. crash or last may be NULL (not wanted). */
void console_scan_file(const char *path, char **crash, char **last);

#endif
