#include "kernel/cachekey.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "configs/extmod.h"
#include "configs/kline.h"

char *kernel_compiler_id(void)
{
	char *argv[] = { "gcc", "--version", NULL };
	int rc = -1;
	char *out = hb_run_capture(argv, &rc);

	if (!out || rc != 0 || !*out) {
		hb_error("cannot run 'gcc --version' (exit %d): a compiler is needed to build kernels", rc);
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}

/* "<kind> <file name> <sha256 of content>\n" into the key. */
static int add_file(struct hb_sha256 *h, const char *kind, const char *path)
{
	char hex[HB_SHA256_HEX];
	char *copy = xstrdup(path);
	char *line;

	if (hb_sha256_file(path, hex) < 0) {
		hb_error("cannot read %s: %s", path, strerror(errno));
		free(copy);
		return -1;
	}
	line = xasprintf("%s %s %s\n", kind, basename(copy), hex);
	hb_sha256_add_str(h, line);
	free(line);
	free(copy);
	return 0;
}

char *kernel_slot_name(const struct build_def *b, const char *key)
{
	if (!hb_is_default_line(b->line))
		return xasprintf("%s-%s-%.*s", b->name, b->line, KBUILD_KEY_PREFIX, key);
	return xasprintf("%s-%.*s", b->name, KBUILD_KEY_PREFIX, key);
}

int kernel_cache_key(const struct build_def *b, const char *source_identity,
		     const char *compiler_id, char key[HB_SHA256_HEX])
{
	struct hb_sha256 *h = hb_sha256_new();
	char *head = xasprintf("hardbench kbuild recipe %d\nsource %s\ncompiler %s\n",
			       KBUILD_RECIPE_VERSION, source_identity, compiler_id);
	int rc = 0;

	hb_sha256_add_str(h, head);
	free(head);
	/* Lines besides the default name themselves, so two lines never share an entry even
	 * built from one source; the default line's keys stay what they were before lines. */
	if (!hb_is_default_line(b->line)) {
		head = xasprintf("line %s\n", b->line);
		hb_sha256_add_str(h, head);
		free(head);
	}
	for (size_t i = 0; rc == 0 && b->fragments && b->fragments[i]; i++)
		rc = add_file(h, "fragment", b->fragments[i]);
	for (size_t i = 0; rc == 0 && b->patches && b->patches[i]; i++)
		rc = add_file(h, "patch", b->patches[i]);
	/* Module sources only when there are modules: builds without any keep their keys. */
	if (rc == 0)
		rc = extmod_key(h, b->modules);
	hb_sha256_finish(h, key);
	return rc;
}
