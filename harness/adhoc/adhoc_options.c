/* The option entries of adhoc.h, and their syntax checks (what each value must look like;
 * adhoc.c checks what it names). */
#include "adhoc/adhoc.h"

#include <stdlib.h>
#include <string.h>

#include "adhoc/specs.h"
#include "configs/search_path.h"
#include "common/paths.h"
#include "common/xalloc.h"

static int check_patch(void *base, const char *value, char **why)
{
	struct patch_spec s;

	(void)base;
	if (patch_spec_parse(value, &s, why) < 0)
		return -1;
	patch_spec_free(&s);
	return 0;
}

static int check_named_args(void *base, const char *value, char **why)
{
	struct named_args a;

	(void)base;
	if (named_args_parse("--patch-cmdline", value, false, &a, why) < 0)
		return -1;
	named_args_free(&a);
	return 0;
}

static int check_variant(void *base, const char *value, char **why)
{
	struct named_args a;

	(void)base;
	if (named_args_parse("--variant", value, true, &a, why) < 0)
		return -1;
	named_args_free(&a);
	return 0;
}

#define ADHOC(f) offsetof(struct adhoc_cli, f)
const struct hb_option adhoc_cli_options[] = {
	CONFIGS_OPTION(ADHOC(configs)),
	{ "patch", 0, HB_OPT_STR_REPEAT, "[NAME=]FILE[,FILE...]", "base + this series\n"
	  "(git format-patch files, a folder of them, or an mbox) as build and\n"
	  "variant NAME (default: from the first subject), with baseline's\n"
	  "command line (repeatable)",
	  .off = ADHOC(patches), .set = check_patch, .group = HB_OG_WHAT, .complete = HB_CMP_FILE },
	{ "patch-cmdline", 0, HB_OPT_STR_REPEAT, "NAME=ARGS", "more kernel command line\n"
	  "for --patch NAME's variant", .off = ADHOC(patch_cmdlines), .set = check_named_args,
	  .group = HB_OG_WHAT, .complete = HB_CMP_NONE },
	{ "variant", 0, HB_OPT_STR_REPEAT, "NAME=BUILD:ARGS", "a variant without a file:\n"
	  "BUILD booted with ARGS, e.g. slub-debug=base:'slub_debug=FZ'\n"
	  "(repeatable)",
	  .off = ADHOC(variants), .set = check_variant,
	  .group = HB_OG_WHAT, .complete = HB_CMP_NONE },
	{ NULL },
};
