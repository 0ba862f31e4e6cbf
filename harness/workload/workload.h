/* Both halves of the workload interface: workload/meta.h (metadata, parameters, metrics;
 * what analysis may include) and workload/cell.h (the guest side: cells, jobs, samples).
 * Include the half you need; this header is for code that needs both. */
#ifndef HB_WORKLOAD_WORKLOAD_H
#define HB_WORKLOAD_WORKLOAD_H

#include "workload/cell.h"
#include "workload/meta.h"

#endif
