/* The INI loaders: FUZZ_INI is workload (workloads/<name>/workload.ini), build
 * (kernel-configs/builds/*.build), variant (variants/*.variant) or line (lines/*.line).
 * The input is the file, in a scratch source tree (HARDBENCH_SOURCE_DIR). Seeds: the
 * project's own files of that kind. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"
#include "workload/internal.h"
#include "workload/meta.h"

#define KIND_IS(k) (!strcmp(FUZZ_INI, k))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("HARDBENCH_SOURCE_DIR", fuzz_scratch(), 1);
	free(fuzz_dir("workloads/hackbench"));
	free(fuzz_dir("kernel-configs/builds"));
	free(fuzz_dir("kernel-configs/variants"));
	free(fuzz_dir("kernel-configs/lines"));
	free(fuzz_dir("kernel-configs/fragments"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (KIND_IS("workload")) {
		char *path = fuzz_write("workloads/hackbench/workload.ini", data, size);
		struct workload *w = workload_load_path("hackbench", path,
							 workload_find_parser("hackbench"));
		if (w)
			workload_free(w);
		free(path);
	} else if (KIND_IS("build")) {
		struct build_def b;
		free(fuzz_write("kernel-configs/builds/fuzz.build", data, size));
		if (config_load_build("fuzz", &b) == 0)
			build_def_free(&b);
	} else if (KIND_IS("variant")) {
		struct variant_def v;
		free(fuzz_write("kernel-configs/variants/fuzz.variant", data, size));
		if (config_load_variant("fuzz", &v) == 0)
			variant_def_free(&v);
	} else {
		struct line_def l;
		free(fuzz_write("kernel-configs/lines/fuzz.line", data, size));
		if (config_load_line("fuzz", &l) == 0)
			line_def_free(&l);
	}
	return 0;
}
