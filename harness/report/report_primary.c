/* The primary metric of a sample workload (report_primary.h). */
#include "report/report_primary.h"

#include <stdlib.h>

#include "common/argparse.h"
#include "common/xalloc.h"
#include "workload/meta.h"

char *report_primary_metric(const char *sample_workload)
{
	char **names = workload_names();
	char *primary = NULL;

	for (size_t i = 0; names && names[i] && !primary; i++) {
		char *why = NULL;
		struct workload *w;
		if (!workload_sample_belongs(names[i], sample_workload) || !(w = workload_require(names[i], &why))) {
			free(why);
			continue;
		}
		primary = w->primary ? xstrdup(w->primary) : NULL;
		workload_free(w);
	}
	hb_free_strv(names);
	return primary;
}
