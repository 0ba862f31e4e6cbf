/* harness list [variants|builds|workloads|lines|all]: what can be run, from kernel-configs/ and
 * workloads/, with the parameters and metrics a --param or a report refers to. The kernel
 * definitions print themselves (configs/list.c); the workloads are listed here, since
 * configs/ sits below the workloads that read it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"
#include "configs/list.h"
#include "configs/search_path.h"
#include "workload/workload.h"

static const char *const list_kinds[] = { "all", "variants", "builds", "workloads", "lines",
					  "params", NULL };

struct list_args {
	char **configs;
	bool names;
};

#define LIST(f) offsetof(struct list_args, f)

static const struct hb_option list_options[] = {
	CONFIGS_OPTION(LIST(configs)),
	{ "names", 0, HB_OPT_FLAG, NULL, "names only, one a line, for scripts and shell\n"
	  "completion (params: every W.KEY=)", .off = LIST(names), .group = HB_OG_WHERE },
	{ NULL },
};

static const struct hb_example list_examples[] = {
	{ "harness list variants", "Each variant: its build, command line and seed." },
	{ "harness list workloads", "Each workload's parameters (for --param) and metrics." },
	{ "harness list --names variants --configs ~/my-configs",
	  "Variant names only, your folder's included." },
	{ NULL },
};

const struct hb_cmdspec list_spec = {
	.cmd = "list",
	.usage = "usage: harness list [all|variants|builds|workloads|lines|params] [options]\n\n"
		 "Lists kernel variants (a build + a kernel command line), builds (kernel\n"
		 "configurations), workloads with their parameters (--param W.KEY=VALUE)\n"
		 "and metrics, and kernel lines (the sources kernels are built from).\n\n",
	.groups = { { list_options, 0 }, { NULL, 0 } },
	.examples = list_examples,
	.group_titles = { [HB_OG_WHAT] = "what is listed", [HB_OG_WHERE] = "output" },
	.operand_words = list_kinds,
};

static void print_names(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		printf("%s\n", names[i]);
	hb_free_strv(names);
}

/* --names: one name a line of kind (an index of list_kinds; 0, all: every kind's), and
 * for params every workload's W.KEY=. */
static void list_names(int kind)
{
	char **names;

	if (kind == 0 || kind == 1)
		print_names(config_list_variants());
	if (kind == 0 || kind == 2)
		print_names(config_list_builds());
	if (kind == 0 || kind == 4)
		print_names(config_list_lines());
	if (kind == 0 || kind == 3)
		print_names(workload_names());
	if (kind != 0 && kind != 5)
		return;
	names = workload_names();
	for (size_t i = 0; names[i]; i++) {
		char *why = NULL;
		struct workload *w = workload_require(names[i], &why); /* known names: never *why */
		for (size_t k = 0; w && k < w->nparams; k++)
			printf("%s.%s=\n", w->name, w->params[k].key);
		if (w)
			workload_free(w);
	}
	hb_free_strv(names);
}

static const char *param_type_name(enum workload_param_type t)
{
	static const char *const names[] = { "int", "choice", "list", "string", "path" };
	return names[t];
}

static void list_one_workload(const struct workload *w)
{
	printf("  %s: %s\n", w->name, w->description);
	printf("    seed %s; under TCG at 2 vCPUs about %gs per rep", w->seed, w->est_rep_s);
	if (w->est_boot_s > 0)
		printf(" + %gs once per boot", w->est_boot_s);
	if (w->est_icount_rep_s > 0)
		printf("; under icount about %gs per rep", w->est_icount_rep_s);
	printf("%s\n", w->per_test ? "; one report row per test" : "");
	if (w->icount_caveat)
		printf("    not deterministic under icount (--clock auto runs it under the host "
		       "clock): %s\n", w->icount_caveat);
	if (w->sections)
		for (size_t i = 0; w->sections[i]; i++)
			printf("    samples also as %s-%s\n", w->name, w->sections[i]);
	printf("    parameters:%s\n", w->nparams ? "" : " none");
	for (size_t i = 0; i < w->nparams; i++) {
		const struct workload_param *p = &w->params[i];
		printf("      %s.%s=%s  (%s: %s)\n", w->name, p->key, p->default_value,
		       param_type_name(p->type), p->accepted);
		printf("        %s\n", p->help);
	}
	printf("    metrics:\n");
	for (size_t i = 0; i < w->nmetrics; i++) {
		const struct workload_metric *m = &w->metrics[i];
		printf("      %-22s %-7s %s is better: %s\n", m->name, m->unit,
		       m->lower_is_better ? "lower " : "higher", m->description);
	}
}

static int list_workloads(void)
{
	char **names = workload_names();
	int status = HB_EXIT_OK;

	printf("workloads (workloads/):\n");
	for (size_t i = 0; names[i]; i++) {
		char *why = NULL;
		struct workload *w = workload_require(names[i], &why); /* known names: never *why */
		if (!w) {
			status = HB_EXIT_FAIL;
			continue;
		}
		list_one_workload(w);
		workload_free(w);
	}
	hb_free_strv(names);
	return status;
}

static int print_kinds(int kind)
{
	if (kind == 0 || kind == 1)
		configs_print_variants();
	if (kind == 0 || kind == 2)
		configs_print_builds();
	if (kind == 0 || kind == 4)
		configs_print_lines();
	return kind == 0 || kind == 3 ? list_workloads() : HB_EXIT_OK;
}

/* Descriptions and command lines come from folders anyone may hand to --configs: on a
 * terminal the whole listing goes through hb_write_for_terminal (no ESC, BEL or C1 control
 * reaches it). The printers write to stdout, which glibc lets a program point at another
 * stream for the time being. */
static int print_safely(int kind)
{
	FILE *real = stdout, *mem;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!isatty(1) || !(mem = open_memstream(&text, &len)))
		return print_kinds(kind);
	fflush(real);
	stdout = mem;
	rc = print_kinds(kind);
	fclose(mem);
	stdout = real;
	hb_write_for_terminal(1, text, len);
	free(text);
	return rc;
}

int cmd_list(int argc, char **argv)
{
	int first, rc, kind = 0;
	struct list_args a = { 0 };
	char *why;

	if (!hb_opts_cmd(&list_spec, argc, argv, &a, &first, &rc))
		return rc;
	rc = config_search_prepend(a.configs, &why);
	hb_free_strv(a.configs);
	if (rc < 0)
		return hb_usage_why(why);
	if (argc - first > 1)
		return hb_usage("list: unexpected argument '%s' (accepted: one of all, variants, "
				"builds, workloads, lines, params)", argv[first + 1]);
	if (first < argc && hb_parse_choice("list", argv[first], list_kinds, &kind, &why) < 0)
		return hb_usage_why(why);
	if (a.names) {
		list_names(kind);
		return HB_EXIT_OK;
	}
	if (kind == 5)
		kind = 3; /* a workload's parameters are in its listing */
	return print_safely(kind);
}
