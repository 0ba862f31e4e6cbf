/* harness: reproduce the list mails' measurements of Linux memory-hardening features. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/install.h"
#include "common/log.h"
#include "common/optdoc.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "version.h"

static const struct command commands[] = {
	{ "run", "build, boot and measure variants x workloads x cores", cmd_run, true, &run_spec },
	{ "build", "build kernel variants from kernel-configs/ (cached)", cmd_build, true, &build_spec },
	{ "boot", "boot one variant and run a command in it", cmd_boot, true, &boot_spec },
	{ "report", "statistics and slowdown tables of a result set", cmd_report, false, &report_spec },
	{ "plot", "gnuplot charts of a result set", cmd_plot, false, &plot_spec },
	{ "gate", "compare a result set to a reference; exit 1 on a regression", cmd_gate, false, &gate_spec },
	{ "merge", "merge result sets (other hosts, shards of a Slurm run) into one", cmd_merge, false, &merge_spec },
	{ "import", "turn a CSV of published numbers into a result set", cmd_import, false, &import_spec },
	{ "list", "list variants, builds and workloads", cmd_list, false, &list_spec },
	{ "hostinfo", "CPU, topology, NUMA and KVM facts of this host", cmd_hostinfo, false, &hostinfo_spec },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: harness <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-9s %s\n", "help", "this text; 'harness <command> --help' for one command");
	fprintf(f, "\nhardbench %s\n", HB_VERSION);
}

/* The accepted names come from the table, so a new command cannot be left out. */
static int unknown_command(const char *name)
{
	char accepted[256] = "";

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		strcat(accepted, commands[i].name);
		strcat(accepted, ", ");
	}
	strcat(accepted, "help");
	return hb_usage("unknown command '%s' (accepted: %s)", name, accepted);
}

/* The commands as the generated docs see them. */
static struct hb_doc_cmd *doc_commands(size_t *n)
{
	struct hb_doc_cmd *d;

	*n = sizeof(commands) / sizeof(commands[0]);
	d = xcalloc(*n, sizeof(*d));
	for (size_t i = 0; i < *n; i++)
		d[i] = (struct hb_doc_cmd){ commands[i].name, commands[i].summary, commands[i].spec };
	return d;
}

/* harness help --man harness|CMD, harness help --completion bash: what the build turns
 * into man pages and the completion script (meson.build); not listed in the usage, since
 * only the build needs it. */
static int help_generated(int argc, char **argv)
{
	size_t n;
	struct hb_doc_cmd *d;
	int rc = HB_EXIT_OK;

	if (argc != 4)
		return hb_usage("help %s: needs one argument (accepted: --man harness|COMMAND, "
				"--completion bash)", argv[2]);
	d = doc_commands(&n);
	if (!strcmp(argv[2], "--completion")) {
		if (strcmp(argv[3], "bash"))
			rc = hb_usage("help --completion: unknown shell '%s' (accepted: bash)", argv[3]);
		else
			hb_doc_completion_bash(d, n, stdout);
	} else if (!strcmp(argv[3], "harness")) {
		hb_doc_man_index(d, n, HB_VERSION, stdout);
	} else {
		size_t i = 0;
		while (i < n && strcmp(d[i].name, argv[3]))
			i++;
		if (i == n)
			rc = unknown_command(argv[3]);
		else
			hb_doc_man_command(&d[i], d, n, HB_VERSION, stdout);
	}
	free(d);
	return rc;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	char *why;

	if (hb_install_locate(&why) < 0)
		return hb_usage_why(why);

	if (name && !strcmp(name, "help") && argc > 2 &&
	    (!strcmp(argv[2], "--man") || !strcmp(argv[2], "--completion")))
		return help_generated(argc, argv);
	if (!name || !strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
		if (name && argc > 2) {
			char *help_argv[] = { argv[2], "--help", NULL };
			for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				if (!strcmp(commands[i].name, argv[2]))
					return commands[i].run(2, help_argv);
		}
		usage(name ? stdout : stderr);
		return name ? HB_EXIT_OK : HB_EXIT_USAGE;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("hardbench %s\n", HB_VERSION);
		return HB_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char *why = NULL;
		if (strcmp(commands[i].name, name))
			continue;
		if (commands[i].uses_cache && !wants_help(argc, argv) && hb_cache_check(&why) < 0)
			return hb_usage_why(why);
		return commands[i].run(argc - 1, argv + 1);
	}
	return unknown_command(name);
}
