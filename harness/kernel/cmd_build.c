/* harness build [VARIANT|BUILD ...] [--kernel-line LINE] [--source [LINE=]DIR|TARBALL]
 *               [--cache DIR] [--jobs N] [--force] [--dry-run] [--list] [--verify] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adhoc/adhoc.h"
#include "kernel/kernel.h"
#include "kernel/series_check.h"
#include "kernel/source.h"
#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"

struct build_args {
	struct kernel_opts opts;
	char **sources; /* --source values, [LINE=]PATH */
	bool list;
	bool verify;
	char **names; /* build names, resolved and without duplicates */
	struct adhoc_cli adhoc; /* --configs, --patch (--variant and --patch-cmdline are refused) */
	struct adhoc made;
};

#define BUILD(f) offsetof(struct build_args, f)

static const struct hb_option build_options[] = {
	KLINE_OPTION(BUILD(opts.line)),
	KLINE_SOURCE_OPTION(BUILD(sources)),
	{ "cache", 0, HB_OPT_STRING, "DIR", "kernel cache (default $HARDBENCH_CACHE or\n"
	  "~/.cache/hardbench)", .off = BUILD(opts.cache),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "jobs", 'j', HB_OPT_INT, "N", "parallel compile jobs (default: host cores)", 1, 4096,
	  .off = BUILD(opts.jobs), .group = HB_OG_ADVANCED },
	{ "force", 0, HB_OPT_FLAG, NULL, "rebuild even when cached", .off = BUILD(opts.force),
	  .group = HB_OG_ADVANCED },
	{ "dry-run", 'n', HB_OPT_FLAG, NULL, "print the plan: builds, cached or not, the exact commands",
	  .off = BUILD(opts.dry_run), .group = HB_OG_WHERE },
	{ "list", 0, HB_OPT_FLAG, NULL, "list builds and variants with their cache state",
	  .off = BUILD(list), .group = HB_OG_WHERE },
	{ "verify", 0, HB_OPT_FLAG, NULL, "hash every cache entry in full against its manifest\n"
	  "(exit 2 when one is damaged)", .off = BUILD(verify), .group = HB_OG_ADVANCED },
	{ NULL },
};

static const struct hb_example build_examples[] = {
	{ "harness build --list", "Every build of the default line, cached or not." },
	{ "harness build kasan", "Build the kasan kernel, or say where the cached one is." },
	{ "harness build --kernel-line 6.12 base --dry-run",
	  "The exact make commands of 6.12's base build." },
	{ NULL },
};

const struct hb_cmdspec build_spec = {
	.cmd = "build",
	.usage = "usage: harness build [VARIANT|BUILD ...] [options]\n"
		 "\n"
		 "Builds kernels from kernel-configs/ (a variant builds its build), cached by content.\n"
		 "With no name, builds 'base' (or the --patch builds).\n"
		 "\n",
	.groups = { { build_options, 0 }, { adhoc_cli_options, BUILD(adhoc) }, { NULL, 0 } },
	.examples = build_examples,
	.group_titles = { [HB_OG_WHAT] = "what is built" },
	.operand_complete = HB_CMP_BUILDS,
};

static void add_name(struct build_args *a, size_t *n, size_t *cap, const char *name)
{
	char *why = NULL, *build = config_require_build_name(name, &why);

	if (!build || config_require_series(build, a->opts.line, &why) < 0)
		exit(hb_usage_why(why));
	if (hb_strv_contains(a->names, build)) {
		free(build);
		return;
	}
	a->names = xgrow(a->names, cap, *n + 2, sizeof(*a->names));
	a->names[(*n)++] = build;
	a->names[*n] = NULL;
}

static void parse_args(int argc, char **argv, struct build_args *a)
{
	size_t n = 0, cap = 0;
	int first, rc;
	char *why = NULL;

	if (!hb_opts_cmd(&build_spec, argc, argv, a, &first, &rc))
		exit(rc);
	if (!a->opts.line)
		a->opts.line = HB_DEFAULT_LINE;
	if (kline_check_sources_used(a->sources, (char *[]){ (char *)a->opts.line, NULL }, &why) < 0)
		exit(hb_usage_why(why));
	a->opts.source = kline_source_for(a->sources, a->opts.line);
	if (a->adhoc.variants || a->adhoc.patch_cmdlines)
		exit(hb_usage("build: --%s makes a variant, which build does not boot (accepted here: "
			      "--patch, --configs; --variant and --patch-cmdline go with run and boot)",
			      a->adhoc.variants ? "variant" : "patch-cmdline"));
	if (adhoc_prepare(&a->adhoc, (char *[]){ (char *)a->opts.line, NULL }, a->sources,
			  a->opts.dry_run, kernel_series_applies, &a->made, &why) < 0)
		exit(hb_usage_why(why));
	a->names = xcalloc(1, sizeof(*a->names));
	for (int i = first; i < argc; i++)
		add_name(a, &n, &cap, argv[i]);
	for (size_t i = 0; !n && a->made.builds[i]; i++)
		add_name(a, &n, &cap, a->made.builds[i]);
	if (!n && !a->list && !a->verify)
		add_name(a, &n, &cap, "base");
}

static const char *cache_state(const char *build, const struct kernel_opts *opts)
{
	struct kernel_image k;
	struct build_def def;
	const char *state = "error";
	int rc;

	if (config_load_build_line(build, opts->line, &def) == 0) {
		bool no_patches = def.series_missing;
		build_def_free(&def);
		if (no_patches)
			return "no series";
	}
	rc = kernel_lookup(build, opts, &k);
	if (rc == 0)
		state = "cached";
	else if (rc == 1)
		state = "not cached";
	else if (rc == 2)
		state = "damaged";
	kernel_image_free(&k);
	return state;
}

static int list_all(const struct kernel_opts *opts)
{
	char **builds = config_list_builds(), **variants = config_list_variants();

	printf("builds (kernel line %s; --kernel-line LINE lists another):\n", opts->line);
	for (size_t i = 0; builds[i]; i++) {
		struct build_def d;
		if (config_load_build_line(builds[i], opts->line, &d) < 0) {
			printf("  %-16s %-15s (file does not parse)\n", builds[i], "error");
			continue;
		}
		printf("  %-16s %-15s %s\n", builds[i], cache_state(builds[i], opts), d.description);
		build_def_free(&d);
	}
	printf("variants:\n");
	for (size_t i = 0; variants[i]; i++) {
		struct variant_def v;
		if (config_load_variant(variants[i], &v) < 0) {
			printf("  %-16s (file does not parse)\n", variants[i]);
			continue;
		}
		printf("  %-16s build %-16s %s\n", variants[i], v.build, v.cmdline);
		variant_def_free(&v);
	}
	hb_free_strv(builds);
	hb_free_strv(variants);
	return HB_EXIT_OK;
}

/* Everything parse_args made, on every way out (LeakSanitizer checks the exits). */
static void build_args_free(struct build_args *a)
{
	hb_free_strv(a->names);
	a->names = NULL;
	adhoc_free(&a->made);
	hb_opts_free(&build_spec, a); /* --source, --configs, --patch... lists */
}

int cmd_build(int argc, char **argv)
{
	struct build_args a = { 0 };
	int failed = 0, damaged = 0;

	parse_args(argc, argv, &a);
	if (a.verify) {
		int rc = kernel_verify_all(&a.opts);
		build_args_free(&a);
		return rc;
	}
	if (a.list) {
		int rc = list_all(&a.opts);
		build_args_free(&a);
		return rc;
	}
	for (size_t i = 0; a.names[i]; i++) {
		struct kernel_image k;
		int rc = kernel_ensure(a.names[i], &a.opts, &k);
		if (rc < 0) {
			failed++;
			damaged += rc == -2;
			continue;
		}
		if (!a.opts.dry_run)
			printf("%s: %s (release %s)\n", k.build, k.entry_dir, k.release);
		kernel_image_free(&k);
	}
	if (failed > damaged) /* a damaged entry's error is its one line */
		hb_error("%d of %zu build(s) failed", failed, hb_strv_len(a.names));
	build_args_free(&a);
	/* A damaged entry is bad input to fix (--force), not a failed build. */
	return damaged ? HB_EXIT_USAGE : failed ? HB_EXIT_FAIL : HB_EXIT_OK;
}
