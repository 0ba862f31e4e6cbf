/* The default kernel line: what a build, boot or run that names no line uses, and the
 * line of every sample and result set written before lines existed. One constant and one
 * rule, for the stages that build kernels (configs/, kernel/) and those that read results. */
#ifndef HB_COMMON_KERNEL_LINE_H
#define HB_COMMON_KERNEL_LINE_H

#include <stdbool.h>

#define HB_DEFAULT_LINE "6.1"

/* Is line the default line? NULL (no line named) is. */
bool hb_is_default_line(const char *line);

#endif
