/* `harness list`'s view of kernel-configs/: the variants, builds and kernel lines, one
 * block each on stdout. */
#include "configs/list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/paths.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"

void configs_print_variants(void)
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

void configs_print_lines(void)
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
		       hb_is_default_line(l.name) ? " (default)" : "", "", l.source,
		       hb_is_file(l.source) || hb_is_dir(l.source) ? "" : " (not installed)");
		line_def_free(&l);
	}
	hb_free_strv(names);
}

void configs_print_builds(void)
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
