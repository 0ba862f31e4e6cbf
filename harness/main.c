/* harness: reproduce the list mails' measurements of Linux memory-hardening features. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/log.h"
#include "common/paths.h"
#include "version.h"

static const struct command commands[] = {
	{ "run", "build, boot and measure variants x workloads x cores", cmd_run, true },
	{ "build", "build kernel variants from kernel-configs/ (cached)", cmd_build, true },
	{ "boot", "boot one variant and run a command in it", cmd_boot, true },
	{ "report", "statistics and slowdown tables of a result set", cmd_report, false },
	{ "plot", "gnuplot charts of a result set", cmd_plot, false },
	{ "gate", "compare a result set to a reference; exit 1 on a regression", cmd_gate, false },
	{ "merge", "merge result sets (other hosts, shards of a Slurm run) into one", cmd_merge, false },
	{ "import", "turn a CSV of published numbers into a result set", cmd_import, false },
	{ "list", "list variants, builds and workloads", cmd_list, false },
	{ "hostinfo", "CPU, topology, NUMA and KVM facts of this host", cmd_hostinfo, false },
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
