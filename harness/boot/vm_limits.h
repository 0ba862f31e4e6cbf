/* The VM limits every command shares (the reasons are in boot/vm_options.h), apart from
 * the option table so that vm_check_opts (vm.c) and the table (vm_options.c) both read
 * them without including each other. */
#ifndef HB_BOOT_VM_LIMITS_H
#define HB_BOOT_VM_LIMITS_H

#include <stdbool.h>

#define VM_MIN_CORES 1
#define VM_MAX_CORES 64          /* the base config's NR_CPUS */
#define VM_MIN_MEM_MIB 256L      /* the KVM probe's guest */
#define VM_MAX_MEM_MIB (1L << 22)
#define VM_MAX_TIMEOUT_S (7 * 86400.0)

/* More vCPUs than host_cores physical cores without overcommit: -1 with *why (the one
 * message of run and boot). host_cores <= 0: unknown, not checked. */
int vm_check_cores(long cores, int host_cores, bool overcommit, char **why);

#endif
