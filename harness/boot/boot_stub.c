/* Placeholder bodies so every stage links before the guest path lands. The guest-path
 * owner replaces this file. */
#include "boot/vm.h"
#include "commands.h"
#include "common/log.h"

int cmd_boot(int argc, char **argv) { (void)argc; hb_usage_error("'%s' is not built yet", argv[0]); }
int vm_run(const struct kernel_image *k, const char *variant_cmdline, const struct guest_job *jobs, size_t njobs, const struct vm_opts *o, struct vm_result *r)
{ (void)k; (void)variant_cmdline; (void)jobs; (void)njobs; (void)o; *r = (struct vm_result){ .status = VM_ERR_START }; return VM_ERR_START; }
void vm_result_free(struct vm_result *r) { (void)r; }
enum accel_kind vm_resolve_accel(enum accel_kind want, const struct kernel_image *k, char **reason) { (void)k; (void)reason; return want == ACCEL_AUTO ? ACCEL_TCG : want; }
