/* harness: reproduce the list mails' measurements of Linux memory-hardening features. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/log.h"
#include "version.h"

static const struct command commands[] = {
	{ "run", "build, boot and measure variants x workloads x cores", cmd_run },
	{ "build", "build kernel variants from kernel-configs/ (cached)", cmd_build },
	{ "boot", "boot one variant and run a command in it", cmd_boot },
	{ "report", "statistics and slowdown tables of a result set", cmd_report },
	{ "plot", "gnuplot charts of a result set", cmd_plot },
	{ "gate", "compare a result set to a reference; exit 1 on a regression", cmd_gate },
	{ "merge", "merge result sets (other hosts, shards of a Slurm run) into one", cmd_merge },
	{ "import", "turn a CSV of published numbers into a result set", cmd_import },
	{ "list", "list variants, builds and workloads", cmd_list },
	{ "hostinfo", "CPU, topology, NUMA and KVM facts of this host", cmd_hostinfo },
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
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(argc - 1, argv + 1);
	return unknown_command(name);
}
