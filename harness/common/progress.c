#include "progress.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

double hb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double hb_children_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

const char *hb_format_duration(double s, char *buf, size_t size)
{
	long t = (long)(s + 0.5);

	if (s < 0)
		snprintf(buf, size, "?");
	else if (s < 60)
		snprintf(buf, size, "%.1fs", s);
	else if (t < 3600)
		snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, size, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
	return buf;
}

void progress_start(struct progress *p, const char *label, size_t total)
{
	*p = (struct progress){ .label = label, .total = total, .started = hb_now(),
				.tty = isatty(2) };
}

void progress_update(struct progress *p, size_t done, const char *current, double eta)
{
	double now = hb_now(), elapsed = now - p->started;
	char e1[32], e2[32];

	p->done = done;
	if (eta < 0 && done > 0 && p->total >= done)
		eta = elapsed / (double)done * (double)(p->total - done);
	if (p->tty) {
		fprintf(stderr, "\r\033[K%s [%zu/%zu] %s  elapsed %s  ETA %s", p->label, done, p->total,
			current ? current : "", hb_format_duration(elapsed, e1, sizeof(e1)),
			hb_format_duration(eta, e2, sizeof(e2)));
		p->line_open = true;
	} else {
		fprintf(stderr, "%s [%zu/%zu] %s (elapsed %s, ETA %s)\n", p->label, done, p->total,
			current ? current : "", hb_format_duration(elapsed, e1, sizeof(e1)),
			hb_format_duration(eta, e2, sizeof(e2)));
	}
	p->last_print = now;
	fflush(stderr);
}

void progress_finish(struct progress *p)
{
	char e[32];

	if (p->line_open)
		fputc('\n', stderr);
	p->line_open = false;
	fprintf(stderr, "%s: %zu/%zu done in %s\n", p->label, p->done, p->total,
		hb_format_duration(hb_now() - p->started, e, sizeof(e)));
}
