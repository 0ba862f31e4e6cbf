/* harness list [variants|builds|workloads|lines|all]: what can be run, from kernel-configs/ and
 * workloads/, with the parameters and metrics a --param or a report refers to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/argparse.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "kernel/kconfigs.h"
#include "kernel/kline.h"
#include "workload/workload.h"

static const char *const list_kinds[] = { "all", "variants", "builds", "workloads", "lines", NULL };

static const struct hb_option list_options[] = { { NULL } };

static const struct hb_cmdspec list_spec = {
	.cmd = "list",
	.usage = "usage: harness list [all|variants|builds|workloads|lines]\n\n"
		 "Lists kernel variants (a build + a kernel command line), builds (kernel\n"
		 "configurations), workloads with their parameters (--param W.KEY=VALUE)\n"
		 "and metrics, and kernel lines (the sources kernels are built from).\n\n",
	.groups = { { list_options, 0 }, { NULL, 0 } },
};

static void list_variants(void)
{
	char **names = config_list_variants();

	printf("variants (kernel-configs/variants):\n");
	for (size_t i = 0; names && names[i]; i++) {
		struct variant_def v;
		if (config_load_variant(names[i], &v) != 0) {
			printf("  %-16s (cannot be read)\n", names[i]);
			continue;
		}
		printf("  %-19s build %-15s %s\n", v.name, v.build, v.description);
		printf("  %-19s cmdline: %s%s%s%s\n", "", v.cmdline, *v.seed ? "   seed " : "", v.seed,
		       v.in_default_set ? "" : "   not in the default set (default_set = no)");
		variant_def_free(&v);
	}
	if (!names || !names[0])
		printf("  (none)\n");
	hb_free_strv(names);
}

/* "series for lines: 6.1, 6.12" of a patched build. */
static void print_series_lines(const char *build)
{
	char **lines = config_list_lines();

	printf("  %-16s series for lines:", "");
	for (size_t i = 0, n = 0; lines[i]; i++) {
		char *why = NULL;
		if (config_require_series(build, lines[i], &why) == 0)
			printf("%s %s", n++ ? "," : "", lines[i]);
		free(why);
	}
	printf("\n");
	hb_free_strv(lines);
}

static void list_lines(void)
{
	char **names = config_list_lines();

	printf("kernel lines (kernel-configs/lines; run --kernels, build/boot --kernel-line):\n");
	for (size_t i = 0; names[i]; i++) {
		struct line_def l;
		if (config_load_line(names[i], &l) != 0) {
			printf("  %-8s (cannot be read)\n", names[i]);
			continue;
		}
		printf("  %-8s %s%s\n  %-8s source %s%s\n", l.name, l.description,
		       strcmp(l.name, KLINE_DEFAULT) ? "" : " (default)", "", l.source,
		       hb_is_file(l.source) || hb_is_dir(l.source) ? "" : " (not installed)");
		line_def_free(&l);
	}
	hb_free_strv(names);
}

static void list_builds(void)
{
	char **names = config_list_builds();

	printf("builds (kernel-configs/builds):\n");
	for (size_t i = 0; names && names[i]; i++) {
		struct build_def b;
		if (config_load_build(names[i], &b) != 0) {
			printf("  %-16s (cannot be read)\n", names[i]);
			continue;
		}
		printf("  %-16s %s%s%s\n", b.name, b.description, *b.seed ? "   seed " : "", b.seed);
		if (b.patch_dir)
			print_series_lines(b.name);
		build_def_free(&b);
	}
	if (!names || !names[0])
		printf("  (none)\n");
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

int cmd_list(int argc, char **argv)
{
	int first, rc, kind = 0;
	char *why;

	if (!hb_opts_cmd(&list_spec, argc, argv, NULL, &first, &rc))
		return rc;
	if (argc - first > 1)
		return hb_usage("list: unexpected argument '%s' (accepted: one of all, variants, "
				"builds, workloads, lines)", argv[first + 1]);
	if (first < argc && hb_parse_choice("list", argv[first], list_kinds, &kind, &why) < 0)
		return hb_usage_why(why);
	if (kind == 0 || kind == 1)
		list_variants();
	if (kind == 0 || kind == 2)
		list_builds();
	if (kind == 0 || kind == 4)
		list_lines();
	return kind == 0 || kind == 3 ? list_workloads() : HB_EXIT_OK;
}
