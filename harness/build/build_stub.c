/* Placeholder bodies so every stage links before kernel builds land. The kbuild owner
 * replaces this file. */
#include "build/kbuild.h"
#include "commands.h"
#include "common/log.h"
#include "config/kconfigs.h"

int cmd_build(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int config_load_build(const char *name, struct build_def *out) { (void)name; (void)out; return -1; }
int config_load_variant(const char *name, struct variant_def *out) { (void)name; (void)out; return -1; }
char **config_list_builds(void) { return NULL; }
char **config_list_variants(void) { return NULL; }
void config_require_variant(const char *name, struct variant_def *out) { (void)out; hb_usage_error("unknown variant '%s' (kernel-configs not built yet)", name); }
void build_def_free(struct build_def *b) { (void)b; }
void variant_def_free(struct variant_def *v) { (void)v; }
int kbuild_ensure(const char *build, const struct kbuild_opts *opts, struct kernel_image *out) { (void)opts; (void)out; hb_error("cannot build '%s': kernel builds not built yet", build); return -1; }
int kbuild_lookup(const char *build, const struct kbuild_opts *opts, struct kernel_image *out) { (void)build; (void)opts; (void)out; return 1; }
void kernel_image_free(struct kernel_image *k) { (void)k; }
