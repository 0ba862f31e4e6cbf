/* harness merge OUT SET...: one result set from several (other hosts, shards of a run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "results/merge.h"
#include "results/store.h"

struct merge_args {
	bool unused;
};

static const struct hb_option merge_options[] = {
	{ NULL },
};

static const struct hb_example merge_examples[] = {
	{ "harness merge results/all results/part1 results/part2",
	  "Pool two parts of a main job into one result set." },
	{ "harness merge results/both /mnt/a/results/run /mnt/b/results/run",
	  "Pool runs of two hosts: each sample keeps its host, rounds stay apart." },
	{ NULL },
};

const struct hb_cmdspec merge_spec = {
	.cmd = "merge",
	.usage = "usage: harness merge OUT SET...\n"
		 "\n"
		 "Merges result sets into OUT (a new or empty directory). Each sample keeps the host\n"
		 "that measured it (\"host\"), and OUT/meta.json lists every host's hostinfo. Sets\n"
		 "measured with other kernels, workload parameters, variants, accel or clock are\n"
		 "refused. Rounds that collide (two hosts' boot 0) are renumbered so pairing by\n"
		 "round still pairs samples of one host.\n"
		 "\n",
	.groups = { { merge_options, 0 }, { NULL, 0 } },
	.examples = merge_examples,
	.operand_complete = HB_CMP_DIR,
};

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The merged set is no run's plan: --resume must not treat it as one. */
static json_object *merged_meta(const char *first, int argc, char **argv)
{
	json_object *meta = rs_read_meta(first), *fresh;
	char **args = xcalloc((size_t)argc + 2, sizeof(char *));

	if (!meta)
		meta = json_object_new_object();
	args[0] = "harness";
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	fresh = rs_meta_new(args, NULL); /* only its created and command_line are kept */
	free(args);
	json_object_object_del(meta, "plan");
	json_object_object_add(meta, RS_META_CREATED, json_object_get(json_object_object_get(fresh, RS_META_CREATED)));
	json_object_object_add(meta, RS_META_COMMAND, json_object_get(json_object_object_get(fresh, RS_META_COMMAND)));
	json_object_object_add(meta, "status", json_object_new_string("merged"));
	json_object_put(fresh);
	return meta;
}

/* cmd_merge once the sets are resolved: the exit status. */
static int merge_into(const char *out, char **sets, size_t nsets, int argc, char **argv)
{
	char *why = NULL;
	json_object *meta;
	struct result_set *rs;
	int rc;

	for (size_t i = 0; i < nsets; i++) {
		if (!hb_is_dir(sets[i]))
			return hb_usage("merge: %s: no such result set (accepted: a result set directory "
					"or run name)", argv[argc - (int)nsets + (int)i]);
		for (size_t j = 0; j < i; j++)
			if (same_dir(sets[i], sets[j]))
				return hb_usage("merge: %s is given twice (accepted: distinct result sets)",
						argv[argc - (int)nsets + (int)i]);
	}
	if (hb_check_out_dir(out, "merge: OUT", &why) < 0)
		return hb_usage_why(why);
	if (rs_holds_samples(out))
		return hb_usage("merge: OUT %s already holds samples (accepted: a new or empty "
				"directory)", out);
	if (merge_check_sets(sets, nsets, &why) != 0)
		return hb_usage_why(why); /* before OUT is created: a refused merge leaves no trace */
	meta = merged_meta(sets[0], argc, argv);
	if (!(rs = rs_create(out, meta))) {
		json_object_put(meta);
		return HB_EXIT_FAIL;
	}
	rc = merge_sets(out, sets, nsets, meta, &why);
	rs_close(rs);
	json_object_put(meta);
	if (rc)
		return hb_fail_why(why);
	printf("merged %zu sets into %s\n", nsets, out);
	return HB_EXIT_OK;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args a = { 0 };
	int first, rc;
	char **sets;

	if (!hb_opts_cmd(&merge_spec, argc, argv, &a, &first, &rc))
		return rc;
	if (argc - first < 2)
		return hb_usage("merge: needs OUT and at least one SET (accepted: harness merge OUT SET...)");
	sets = xcalloc((size_t)(argc - first), sizeof(char *));
	for (int i = first + 1; i < argc; i++)
		sets[i - first - 1] = hb_resolve_run_dir(argv[i]);
	rc = merge_into(argv[first], sets, (size_t)(argc - first - 1), argc, argv);
	hb_free_strv(sets);
	return rc;
}
