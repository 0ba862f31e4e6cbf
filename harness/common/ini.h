/* The one INI loader (inih) of kernel-configs/ and workloads/ files: parse, and say in
 * one line where a file is bad. */
#ifndef HB_COMMON_INI_H
#define HB_COMMON_INI_H

#include <ini.h>

/* ini_parse(path, handler, user). 0 when it parsed and the handler recorded no reason in
 * *why; else prints "PATH: cannot read: ERR" or "PATH:LINE: REASON" (*why, or the syntax
 * error) and returns -1. *why stays the caller's to free. */
int hb_ini_load(const char *path, ini_handler handler, void *user, char *const *why);

#endif
