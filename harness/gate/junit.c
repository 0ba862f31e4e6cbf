/* JUnit XML for CI systems: one testcase per comparison, a <failure> per regression and
 * <skipped> for what could not be compared. Written by hand: the format is five element
 * types, and no XML library is among the project's dependencies. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/numfmt.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/safepath.h"
#include "common/xalloc.h"
#include "gate/gate.h"

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

static char *classname(const struct gate_entry *e)
{
	if (e->cores >= 0)
		return xasprintf("%s.%s.cores=%d", e->workload, e->metric, e->cores);
	return xasprintf("%s.%s", e->workload, e->metric);
}

static char *message(const struct gate_result *r, const struct gate_opts *o)
{
	char a[NUMFMT_SIZE], p[NUMFMT_SIZE];

	if (r->outcome == GATE_NOT_COMPARABLE)
		return xstrdup(r->why);
	return xasprintf("slowdown %s vs reference (%s; limit %+g%%, alpha %g)",
			 fmt_pct(a, r->slowdown_pct), fmt_p_eq(p, r->p_value), o->max_slowdown_pct, o->alpha);
}

static void testcase(FILE *f, const struct gate_result *r, const struct gate_opts *o)
{
	char *cls = classname(r->run), *msg = message(r, o);

	fputs("    <testcase classname=\"", f);
	xml_text(f, cls);
	fputs("\" name=\"", f);
	xml_text(f, r->run->variant);
	fputs("\">\n", f);
	if (r->outcome == GATE_REGRESSION || r->outcome == GATE_NOT_COMPARABLE) {
		fputs(r->outcome == GATE_REGRESSION ? "      <failure type=\"regression\" message=\""
						     : "      <skipped message=\"", f);
		xml_text(f, msg);
		fputs("\"/>\n", f);
	}
	fputs("      <system-out>", f);
	xml_text(f, msg);
	fputs("</system-out>\n    </testcase>\n", f);
	free(cls);
	free(msg);
}

int gate_write_junit(const char *path, const struct gate_result *res, size_t n,
		     const struct gate_opts *opts)
{
	char *name = NULL, *why = NULL;
	/* Its folder walked from "/" (common/safepath.h), the file made through it. */
	int dirfd = hb_open_parent_checked(path, "gate: --junit", 0, &name, &why);
	FILE *f = dirfd >= 0 ? hb_fopen_at(dirfd, name, "w") : NULL;
	size_t failures = 0, skipped = 0;

	if (dirfd >= 0)
		close(dirfd);
	free(name);
	if (!f) {
		if (why)
			hb_error("%s", why);
		else
			hb_error("gate: cannot write JUnit file %s: %s", path, strerror(errno));
		free(why);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		failures += res[i].outcome == GATE_REGRESSION;
		skipped += res[i].outcome == GATE_NOT_COMPARABLE;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		   "  <testsuite name=\"hardbench gate\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		   "skipped=\"%zu\">\n", n, failures, skipped);
	for (size_t i = 0; i < n; i++)
		testcase(f, &res[i], opts);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fclose(f) != 0) {
		hb_error("gate: cannot write JUnit file %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
