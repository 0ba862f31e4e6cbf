#include "adhoc/gitref.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "configs/series.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"

bool gitref_is_spec(const char *item)
{
	return strchr(item, '@') != NULL;
}

char *gitref_git(const char *tree, char *const *args, bool one_line)
{
	char *argv[16] = { "git", "--no-optional-locks", "-C", (char *)tree };
	size_t n = 4;
	int rc = -1;
	char *out;

	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	out = hb_run_capture_quiet(argv, &rc);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	if (out && one_line)
		out[strcspn(out, "\n")] = '\0';
	return out;
}

static const char accepted[] = "accepted: PATH@REF, PATH a clean git work tree of a kernel, "
			       "REF a commit, branch or tag in it, e.g. .@HEAD~1,.@HEAD";

int gitref_resolve(const char *item, struct gitref *out, char **why)
{
	const char *at = strrchr(item, '@');
	char *path = xstrndup(item, (size_t)(at - item)), *status, *spec, *name;

	*out = (struct gitref){ .ref = xstrdup(at + 1) };
	out->top = hb_is_dir(path) ? gitref_git(path, (char *[]){ "rev-parse", "--show-toplevel", NULL }, true)
				   : NULL;
	free(path);
	if (!out->top) {
		*why = xasprintf("--kernels %s: '%.*s' is not a git work tree (%s)", item,
				 (int)(at - item), item, accepted);
		gitref_free(out);
		return -1;
	}
	status = gitref_git(out->top, (char *[]){ "status", "--porcelain", "--untracked-files=no", NULL }, false);
	if (!status || *status) {
		*why = xasprintf("--kernels %s: %s has uncommitted changes, which git archive would "
				 "leave out (accepted: a clean tree; commit or stash them)", item, out->top);
		free(status);
		gitref_free(out);
		return -1;
	}
	free(status);
	spec = xasprintf("%s^{commit}", out->ref);
	out->commit = *out->ref ? gitref_git(out->top, (char *[]){ "rev-parse", "--verify", "--quiet",
							    "--end-of-options", spec, NULL }, true)
				: NULL;
	free(spec);
	if (!out->commit || strlen(out->commit) < 7) {
		*why = xasprintf("--kernels %s: no commit '%s' in %s (%s)", item, out->ref, out->top, accepted);
		gitref_free(out);
		return -1;
	}
	name = series_name_from_subject(out->ref);
	out->line = xasprintf("%s-%.7s", name, out->commit);
	free(name);
	return 0;
}

char *gitref_export(const struct gitref *g, const char *cache, char **why)
{
	char *dir = xasprintf("%s/src/git", cache);
	char *final = xasprintf("%s/%s.tar", dir, g->commit);
	char *tmp = xasprintf("%s/.%s.tar.%d", dir, g->commit, (int)getpid());
	char *out;

	if (hb_is_file(final))
		goto done;
	if (hb_mkdir_p(dir, 0755) < 0) {
		*why = xasprintf("cannot create %s: %s", dir, strerror(errno));
		goto fail;
	}
	/* One commit, one tarball: whoever renames last wins, and both wrote the same bytes. */
	out = gitref_git(g->top, (char *[]){ "archive", "--format=tar", "--prefix=linux/", "-o", tmp,
					       g->commit, NULL }, false);
	if (!out || rename(tmp, final) < 0) {
		*why = xasprintf("git archive of %s (%s) into %s failed", g->commit, g->top, dir);
		unlink(tmp);
		free(out);
		goto fail;
	}
	free(out);
done:
	free(dir);
	free(tmp);
	return final;
fail:
	free(dir);
	free(tmp);
	free(final);
	return NULL;
}

void gitref_free(struct gitref *g)
{
	free(g->top);
	free(g->ref);
	free(g->commit);
	free(g->line);
	*g = (struct gitref){ 0 };
}
