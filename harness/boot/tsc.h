/* The host's TSC rate, for the kernel command line of a TCG guest (vm_setup.c): TCG
 * guests read the host TSC, and their own early calibration fails on a loaded host. */
#ifndef HB_BOOT_TSC_H
#define HB_BOOT_TSC_H

/* The host TSC rate in kHz, measured once per host boot and cached in hb_cache_dir();
 * 0 when unknown. */
long host_tsc_khz(void);

#endif
