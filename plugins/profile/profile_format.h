/* The text hb-profile.so writes (plugins/profile/plugin.c) and the harness reads
 * (harness/run/profile.c): defined once for both, as printf formats the reader scans with
 * the same shapes (docs/profile.md says what users see of it).
 *
 *   hb-profile 1 symbols 31544 vmlinux /root/.cache/hardbench/kernels/base-.../vmlinux
 *   section 0 marker 0 insns 123456789 halts 0     one per section, in the order they end
 *   f 4567890 clear_page_erms                      instructions of one bucket (function)
 *   r 4194305 clear_page_erms stosb                executions of one rep string op in it
 *   end 0
 *   exit started 4 ended 4 restarts 0 stray_ends 0 dropped_sections 0 dropped_rep_sites 0
 *
 * A bucket is a vmlinux function or one of the bracketed names below. A section's insns
 * is the sum of its f lines; r lines are a part of their function's count, not extra. */
#ifndef HB_PROFILE_FORMAT_H
#define HB_PROFILE_FORMAT_H

#define HB_PROFILE_FORMAT_VERSION 1

#define HB_PROFILE_HEADER_LINE "hb-profile %d symbols %zu vmlinux %s"
#define HB_PROFILE_SECTION_LINE "section %" PRIu64 " marker %d insns %" PRIu64 " halts %" PRIu64
#define HB_PROFILE_FUNC_LINE "f %" PRIu64 " %s"
#define HB_PROFILE_REP_LINE "r %" PRIu64 " %s %s%c"
#define HB_PROFILE_END_LINE "end %" PRIu64
#define HB_PROFILE_EXIT_LINE "exit started %" PRIu64 " ended %" PRIu64 " restarts %" PRIu64 \
	" stray_ends %" PRIu64 " dropped_sections %" PRIu64 " dropped_rep_sites %" PRIu64

/* The buckets that are not functions of vmlinux: all of user space (every process), code
 * in the modules area (module symbols are not resolved), other kernel addresses (no
 * vmlinux symbol covers them, or no vmlinux was given). */
#define HB_PROFILE_USER "[user]"
#define HB_PROFILE_MODULES "[modules]"
#define HB_PROFILE_KERNEL_OTHER "[kernel other]"

#endif
