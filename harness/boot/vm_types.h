/* The small enums of the VM options, apart from vm.h so that boot/clock.h and the
 * accel code can use them without the whole VM interface. */
#ifndef HB_BOOT_VM_TYPES_H
#define HB_BOOT_VM_TYPES_H

/* ACCEL_NONE: accel_resolve found that the kernel boots under neither (its fault). */
enum accel_kind { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG, ACCEL_NONE };
/* The guest's clock (boot/clock.h says what an icount number means). CLOCK_AUTO is a
 * choice, resolved by clock_resolve() before any boot: vm_run never sees it. CLOCK_MODEL
 * runs the guest under icount and prices its marked sections with a plugin (docs/model.md). */
enum guest_clock { CLOCK_HOST = 0, CLOCK_ICOUNT = 1, CLOCK_AUTO = 2, CLOCK_MODEL = 3 };

#endif
