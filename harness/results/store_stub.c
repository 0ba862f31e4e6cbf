/* Placeholder bodies so every stage links before the store lands. The analysis owner
 * replaces this file. */
#include "results/store.h"

#include "common/log.h"

struct result_set *rs_create(const char *dir, json_object *meta) { (void)meta; hb_error("store not built yet (%s)", dir); return NULL; }
struct result_set *rs_open_append(const char *dir) { hb_error("store not built yet (%s)", dir); return NULL; }
int rs_append(struct result_set *rs, const struct sample *s) { (void)rs; (void)s; return -1; }
int rs_write_meta(struct result_set *rs, json_object *meta) { (void)rs; (void)meta; return -1; }
const char *rs_dir(const struct result_set *rs) { (void)rs; return ""; }
void rs_close(struct result_set *rs) { (void)rs; }
long rs_read_samples(const char *dir, rs_sample_cb cb, void *ctx, long *skipped) { (void)dir; (void)cb; (void)ctx; (void)skipped; return -1; }
json_object *rs_read_meta(const char *dir) { (void)dir; return NULL; }
char *rs_new_run_id(const char *tag) { (void)tag; return NULL; }
