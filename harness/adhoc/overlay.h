/* Writing the kernel-configs folder of the ad-hoc options (an owned folder in hb_tmp_root()):
 * the same files a user would write by hand, so the readers need nothing special. */
#ifndef HB_ADHOC_OVERLAY_H
#define HB_ADHOC_OVERLAY_H

#include "configs/series.h"

struct overlay {
	char *dir;
};

int overlay_open(struct overlay *o, char **why);
/* builds/<name>.build (base's fragments and modules, patches = name), the series in
 * patches/<name>/<line>/ for each line, and variants/<name>.variant with baseline's
 * command line and extra_cmdline after it. */
int overlay_add_patch_build(struct overlay *o, const char *name, const struct series *s,
			    char *const *lines, const char *extra_cmdline, char **why);
/* variants/<name>.variant on build base with baseline's command line and extra_cmdline
 * after it: what a --patch variant boots, without the patches. */
int overlay_add_base_variant(struct overlay *o, const char *name, const char *extra_cmdline,
			     const char *description, char **why);
/* variants/<name>.variant; default_set = no, since the options name it themselves. */
int overlay_add_variant(struct overlay *o, const char *name, const char *build,
			const char *cmdline, const char *description, char **why);

/* lines/<name>.line: source, and fragment (a file of the user's, copied in; may be NULL)
 * as its fragments. */
int overlay_add_line(struct overlay *o, const char *name, const char *description,
		     const char *source, const char *fragment, char **why);

#endif
