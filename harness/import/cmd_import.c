/* harness import FILE.csv [--out DIR] */
#include <stddef.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "hostinfo/hostinfo.h"
#include "import/import.h"
#include "common/options.h"
#include "results/store.h"

static const struct hb_option import_options[] = {
	{ "out", 0, HB_OPT_STRING, "DIR", "the new result set; a relative DIR is under the current\n"
	  "folder (default: results/<date>-<time>-<file name>)", .off = 0,
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ NULL },
};

static const struct hb_example import_examples[] = {
	{ "harness import tests/data/seed001-cook-kbuild.csv --out results/cook",
	  "Seed 001's kernel builds as a result set, for harness report." },
	{ "harness import mine.csv --out results/mine",
	  "Your CSV (variant,workload,metric,value[,unit,cores,rep,boot]) as a result set." },
	{ NULL },
};

const struct hb_cmdspec import_spec = {
	.cmd = "import",
	.usage = "usage: harness import FILE.csv [--out DIR]\n"
		 "Turns a CSV of published or hand-collected numbers into a result set.\n"
		 "Header line required; columns variant,workload,metric,value (required) and\n"
		 "unit,cores,rep,boot,lower_is_better (optional). '#' lines are comments.\n",
	.groups = { { import_options, 0 }, { NULL, 0 } },
	.operand = "FILE.csv",
	.operand_accepted = "one CSV file",
	.examples = import_examples,
	.operand_complete = HB_CMP_FILE,
};

/* results/<run id tagged with the file's base name, without .csv>. */
static char *default_out(const char *path)
{
	char *copy = xstrdup(path), *base = basename(copy), *dot = strrchr(base, '.');
	char *id, *root, *dir;

	if (dot && dot != base)
		*dot = '\0';
	id = rs_new_run_id(base);
	root = hb_results_root();
	dir = hb_path_join(root, id);
	free(root);
	free(id);
	free(copy);
	return dir;
}

static bool has_samples(const char *dir)
{
	char *path = hb_path_join(dir, RS_SAMPLES_FILE);
	struct stat st;
	bool has = stat(path, &st) == 0 && st.st_size > 0;

	free(path);
	return has;
}

static json_object *import_meta(int argc, char **argv, const char *csv)
{
	char **cmdline = xcalloc((size_t)argc + 2, sizeof(char *));
	json_object *meta;

	cmdline[0] = "harness";
	memcpy(cmdline + 1, argv, (size_t)argc * sizeof(char *));
	meta = rs_meta_new(cmdline, hostinfo_collect());
	json_object_object_add(meta, RS_META_IMPORTED, json_object_new_string(csv));
	free(cmdline);
	return meta;
}

int cmd_import(int argc, char **argv)
{
	const char *out_arg = NULL; /* the table's one option fills it (offset 0) */
	struct result_set *rs;
	json_object *meta;
	char *dir, *why;
	long rows;
	int first, rc;

	if (!hb_opts_cmd(&import_spec, argc, argv, &out_arg, &first, &rc))
		return rc;
	/* A given --out reads like any Unix path: relative to the current folder. */
	dir = out_arg ? xstrdup(out_arg) : default_out(argv[first]);
	if (hb_check_out_dir(dir, "--out", &why) < 0) {
		free(dir);
		return hb_usage_why(why);
	}
	if (has_samples(dir)) {
		rc = hb_usage("import: --out: '%s' already holds samples (accepted: a new or empty "
			      "directory)", dir);
		free(dir);
		return rc;
	}
	/* All bad input surfaces here, before anything is written. */
	if ((rc = import_csv(argv[first], NULL, &rows, &why)) != HB_EXIT_OK) {
		free(dir);
		return hb_usage_why(why);
	}
	meta = import_meta(argc, argv, argv[first]);
	rs = rs_create(dir, meta);
	json_object_put(meta);
	if (!rs) {
		free(dir);
		return HB_EXIT_FAIL;
	}
	rs_set_sync_each(rs, false);
	rc = import_csv(argv[first], rs, &rows, &why);
	rs_close(rs);
	if (rc != HB_EXIT_OK) {
		free(dir);
		return hb_fail_why(why);
	}
	printf("%s\n", dir);
	hb_info("imported %ld samples from %s", rows, argv[first]);
	free(dir);
	return HB_EXIT_OK;
}
