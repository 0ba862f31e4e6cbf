#include "configs/kconfigs.h"
#include "adhoc/specs.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/paths.h"
#include "common/xalloc.h"

static const char name_rule[] = "lower case letters, digits, '_', '-', '.'";

/* value up to the first '=' when that is a valid name; NULL otherwise (no name given). */
static char *leading_name(const char *value, const char **rest)
{
	const char *eq = strchr(value, '=');
	char *name;

	if (!eq)
		return NULL;
	name = xstrndup(value, (size_t)(eq - value));
	if (!config_valid_name(name)) {
		free(name);
		return NULL;
	}
	*rest = eq + 1;
	return name;
}

int specs_check_cmdline(const char *option, const char *args, char **why)
{
	if (!strpbrk(args, "\n\r;#"))
		return 0;
	*why = xasprintf("%s: '%s' holds a newline, ';' or '#' (accepted: a kernel command line "
			 "on one line without them)", option, args);
	return -1;
}

int patch_spec_parse(const char *value, struct patch_spec *out, char **why)
{
	const char *files = value, *eq;
	size_t n = 0;

	*out = (struct patch_spec){ .name = leading_name(value, &files) };
	eq = strchr(value, '=');
	/* "Bad Name=x.patch" meant a name; "dir/a=b.patch" is a path with '=' in it. */
	if (!out->name && eq && (size_t)(eq - value) < strcspn(value, ",/")) {
		*why = xasprintf("--patch %s: '%.*s' is not a name (accepted: %s)", value,
				 (int)(eq - value), value, name_rule);
		return -1;
	}
	if (hb_split_list("--patch", files, &out->files, &n, why) < 0) {
		patch_spec_free(out);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!hb_is_file(out->files[i]) && !hb_is_dir(out->files[i])) {
			*why = xasprintf("--patch %s: no such file '%s' (accepted: git format-patch "
					 "files, a folder of them, or an mbox)", value, out->files[i]);
			patch_spec_free(out);
			return -1;
		}
	return 0;
}

int named_args_parse(const char *option, const char *value, bool with_build,
		     struct named_args *out, char **why)
{
	const char *rest = NULL, *colon;
	const char *form = with_build ? "NAME=BUILD:ARGS" : "NAME=ARGS";

	*out = (struct named_args){ .name = leading_name(value, &rest) };
	if (!out->name) {
		*why = xasprintf("%s %s: expected %s with NAME of %s", option, value, form, name_rule);
		return -1;
	}
	if (with_build) {
		colon = strchr(rest, ':');
		out->build = colon ? xstrndup(rest, (size_t)(colon - rest)) : NULL;
		if (!out->build || !config_valid_name(out->build)) {
			*why = xasprintf("%s %s: expected %s, BUILD a build name (harness list), e.g. "
					 "slub-debug=base:'slub_debug=FZ'", option, value, form);
			named_args_free(out);
			return -1;
		}
		rest = colon + 1;
	}
	out->args = xstrdup(rest);
	if (specs_check_cmdline(option, out->args, why) < 0) {
		named_args_free(out);
		return -1;
	}
	return 0;
}

/* ",modules=DIR" and ",cmdline=ARGS" after the image; cmdline= takes the rest. */
static int kernel_spec_extras(const char *value, char *extras, struct kernel_spec *k, char **why)
{
	for (char *p = extras; p && *p; ) {
		char *next;
		if (!strncmp(p, "cmdline=", 8)) {
			free(k->cmdline);
			k->cmdline = xstrdup(p + 8);
			return specs_check_cmdline("--kernel", k->cmdline, why);
		}
		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		if (strncmp(p, "modules=", 8) || !p[8]) {
			*why = xasprintf("--kernel %s: unknown part '%s' (accepted: "
					 "NAME=IMAGE[,modules=DIR][,cmdline=ARGS])", value, p);
			return -1;
		}
		free(k->modules);
		k->modules = xstrdup(p + 8);
		p = next;
	}
	return 0;
}

int kernel_spec_parse(const char *value, struct kernel_spec *out, char **why)
{
	const char *rest = NULL;
	char *copy, *comma;
	int rc;

	*out = (struct kernel_spec){ .name = leading_name(value, &rest), .cmdline = xstrdup("") };
	if (!out->name || !*rest) {
		*why = xasprintf("--kernel %s: expected NAME=IMAGE[,modules=DIR][,cmdline=ARGS] with "
				 "NAME of %s", value, name_rule);
		kernel_spec_free(out);
		return -1;
	}
	copy = xstrdup(rest);
	comma = strchr(copy, ',');
	if (comma)
		*comma = '\0';
	out->image = xstrdup(copy);
	rc = kernel_spec_extras(value, comma ? comma + 1 : NULL, out, why);
	free(copy);
	if (rc == 0 && !hb_is_file(out->image)) {
		*why = xasprintf("--kernel %s: no such file '%s' (accepted: a bzImage or a PVH vmlinux)",
				 value, out->image);
		rc = -1;
	} else if (rc == 0 && out->modules && !hb_is_dir(out->modules)) {
		*why = xasprintf("--kernel %s: modules=%s is not a folder (accepted: INSTALL_MOD_PATH "
				 "or lib/modules/<release>)", value, out->modules);
		rc = -1;
	}
	if (rc < 0)
		kernel_spec_free(out);
	return rc;
}

void patch_spec_free(struct patch_spec *s)
{
	free(s->name);
	hb_free_strv(s->files);
	*s = (struct patch_spec){ 0 };
}

void named_args_free(struct named_args *a)
{
	free(a->name);
	free(a->build);
	free(a->args);
	*a = (struct named_args){ 0 };
}

void kernel_spec_free(struct kernel_spec *k)
{
	free(k->name);
	free(k->image);
	free(k->modules);
	free(k->cmdline);
	*k = (struct kernel_spec){ 0 };
}
