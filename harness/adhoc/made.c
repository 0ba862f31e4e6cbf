/* The shared state of adhoc_prepare (adhoc_int.h): names taken, the record, commit lines. */
#include "adhoc/adhoc_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int adhoc_claim(struct names *n, const char *option, const char *name, char **why)
{
	const char *what = hb_strv_contains(n->builds, name)     ? "a build"
			   : hb_strv_contains(n->variants, name) ? "a variant"
			   : hb_strv_contains(n->taken.v, name)  ? "given by another option"
								 : NULL;
	if (what) {
		*why = xasprintf("%s: the name '%s' is taken (%s; accepted: a name that 'harness list' "
				 "does not show, or NAME=... to choose one)", option, name, what);
		return -1;
	}
	hb_strv_push(&n->taken, xstrdup(name));
	return 0;
}

void adhoc_note(struct made *m, const char *section, const char *name, json_object *entry)
{
	json_object *sec;

	if (!json_object_object_get_ex(m->record, section, &sec)) {
		sec = json_object_new_object();
		json_object_object_add(m->record, section, sec);
	}
	json_object_object_add(sec, name, entry);
}

int adhoc_add_commit_line(const struct adhoc_cli *c, const struct gitref *g, const char *cache,
			  struct overlay *o, struct made *m, char **why)
{
	char *tarball = gitref_export(g, cache, why);
	char *description = xasprintf("git %s@%s (commit %s)", g->top, g->ref, g->commit);
	int rc = tarball ? overlay_add_line(o, g->line, description, tarball, c->line_fragment, why) : -1;

	if (rc == 0) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "tree", json_object_new_string(g->top));
		json_object_object_add(e, "ref", json_object_new_string(g->ref));
		json_object_object_add(e, "commit", json_object_new_string(g->commit));
		adhoc_note(m, "lines", g->line, e);
	}
	free(description);
	free(tarball);
	return rc;
}
