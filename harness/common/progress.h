/* Progress for long work: "[3/12] init_on_free kbuild 2 vCPUs  elapsed 4m02s  ETA 12m" on
 * a terminal (one rewritten line), and a plain line per step when stderr is not a tty. */
#ifndef HB_COMMON_PROGRESS_H
#define HB_COMMON_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
	const char *label;
	size_t total;
	size_t done;
	double started;      /* hb_now() at start */
	double last_print;
	bool tty;
	bool line_open;      /* a \r line is on screen and needs a newline before other output */
};

double hb_now(void); /* CLOCK_MONOTONIC seconds */
/* CPU seconds (user + system) of every child this process has waited for: the host time a
 * guest's QEMU and virtiofsd used, which host load does not stretch as it stretches wall
 * time. */
double hb_children_cpu_s(void);
/* "1h02m", "4m05s", "12.3s" into buf. */
const char *hb_format_duration(double seconds, char *buf, size_t size);

void progress_start(struct progress *p, const char *label, size_t total);
/* eta_seconds < 0: estimated from the average time per done step. */
void progress_update(struct progress *p, size_t done, const char *current, double eta_seconds);
void progress_finish(struct progress *p);

#endif
