/* adhoc/specs: the values of --patch, --patch-cmdline, --variant and --kernel. */
#include "adhoc/specs.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

TEST(patch_with_and_without_name)
{
	char *dir = scratch_dir(), *why = NULL;
	char *a = hb_path_join(dir, "a.patch"), *b = hb_path_join(dir, "b=c.patch");
	char *v;
	struct patch_spec s;

	scratch_write(dir, "a.patch", "x");
	scratch_write(dir, "b=c.patch", "x");
	v = xasprintf("costly=%s,%s", a, b);
	CHECK(patch_spec_parse(v, &s, &why) == 0, "%s", why);
	CHECK_STR(s.name, "costly");
	CHECK(hb_strv_len(s.files) == 2 && !strcmp(s.files[1], b));
	patch_spec_free(&s);
	free(v);
	/* A path with '=' after a '/' is a path, not NAME=. */
	CHECK(patch_spec_parse(b, &s, &why) == 0, "%s", why);
	CHECK(s.name == NULL && !strcmp(s.files[0], b));
	patch_spec_free(&s);
	v = xasprintf("Bad Name=%s", a);
	CHECK(patch_spec_parse(v, &s, &why) == -1);
	CHECK_HAS(why, "'Bad Name' is not a name");
	free(why);
	free(v);
	v = xasprintf("x=%s/absent.patch", dir);
	CHECK(patch_spec_parse(v, &s, &why) == -1);
	CHECK_HAS(why, "no such file");
	CHECK_HAS(why, "absent.patch");
	free(why);
	free(v);
	hb_remove_tree(dir);
	free(dir);
	free(a);
	free(b);
}

TEST(variant_and_patch_cmdline)
{
	struct named_args a;
	char *why = NULL;

	CHECK(named_args_parse("--variant", "slub-debug=base:slub_debug=FZ", true, &a, &why) == 0, "%s", why);
	CHECK_STR(a.name, "slub-debug");
	CHECK_STR(a.build, "base");
	CHECK_STR(a.args, "slub_debug=FZ");
	named_args_free(&a);
	CHECK(named_args_parse("--variant", "quiet=base:", true, &a, &why) == 0, "%s", why);
	CHECK_STR(a.args, "");
	named_args_free(&a);
	CHECK(named_args_parse("--variant", "slub-debug=slub_debug=FZ", true, &a, &why) == -1);
	CHECK_HAS(why, "expected NAME=BUILD:ARGS");
	free(why);
	CHECK(named_args_parse("--patch-cmdline", "costly=a=1 ; b", false, &a, &why) == -1);
	CHECK_HAS(why, "';' or '#'");
	free(why);
	CHECK(named_args_parse("--patch-cmdline", "costly=init_on_free=1", false, &a, &why) == 0, "%s", why);
	CHECK_STR(a.args, "init_on_free=1");
	named_args_free(&a);
}

TEST(kernel_image_modules_and_cmdline)
{
	char *dir = scratch_dir(), *why = NULL, *v;
	struct kernel_spec k;

	scratch_write(dir, "bzImage", "x");
	v = xasprintf("mine=%s/bzImage,modules=%s,cmdline=a=1,b=2", dir, dir);
	CHECK(kernel_spec_parse(v, &k, &why) == 0, "%s", why);
	CHECK_STR(k.name, "mine");
	CHECK_STR(k.modules, dir);
	CHECK_STR(k.cmdline, "a=1,b=2");
	kernel_spec_free(&k);
	free(v);
	v = xasprintf("mine=%s/bzImage,initrd=x", dir);
	CHECK(kernel_spec_parse(v, &k, &why) == -1);
	CHECK_HAS(why, "unknown part 'initrd=x'");
	free(why);
	free(v);
	v = xasprintf("mine=%s/vmlinux", dir);
	CHECK(kernel_spec_parse(v, &k, &why) == -1);
	CHECK_HAS(why, "no such file");
	free(why);
	free(v);
	hb_remove_tree(dir);
	free(dir);
}

TEST_MAIN()
