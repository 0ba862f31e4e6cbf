/* One repetition's result -> samples: the generic timings the guest init measured plus
 * what the workload's parser reads from the output, all checked against workload.ini
 * before any is handed out. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "workload/internal.h"

struct pending {
	char *metric;
	double value;
	const struct workload_metric *meta;
};

struct collect {
	const struct workload *w;
	struct pending *items;
	size_t n, cap;
	char *why; /* the first problem */
};

static bool is_pattern(const char *name) { return strpbrk(name, "*?[") != NULL; }

const struct workload_metric *workload_find_metric(const struct workload *w, const char *metric)
{
	for (size_t i = 0; i < w->nmetrics; i++)
		if (!is_pattern(w->metrics[i].name) && !strcmp(w->metrics[i].name, metric))
			return &w->metrics[i];
	for (size_t i = 0; i < w->nmetrics; i++)
		if (is_pattern(w->metrics[i].name) && fnmatch(w->metrics[i].name, metric, FNM_PATHNAME) == 0)
			return &w->metrics[i];
	return NULL;
}

bool workload_sample_belongs(const char *name, const char *sample_workload)
{
	size_t n = strlen(name);
	return !strncmp(name, sample_workload, n) && (!sample_workload[n] || sample_workload[n] == '-');
}

static void problem(struct collect *c, char *why)
{
	if (!c->why)
		c->why = why;
	else
		free(why);
}

static void add(struct collect *c, const char *metric, double value,
		const struct workload_metric *meta)
{
	if (!isfinite(value)) {
		problem(c, xasprintf("metric %s is not a finite number", metric));
		return;
	}
	c->items = xgrow(c->items, &c->cap, c->n + 1, sizeof(*c->items));
	c->items[c->n++] = (struct pending){ .metric = xstrdup(metric), .value = value, .meta = meta };
}

/* The parser's emit: only metrics workload.ini declares as coming from the output. */
static void emit_parsed(void *ctx, const char *metric, double value)
{
	struct collect *c = ctx;
	const struct workload_metric *meta = workload_find_metric(c->w, metric);

	if (!meta || meta->source != METRIC_OUTPUT) {
		problem(c, xasprintf("the parser produced metric '%s', which %s/%s does not declare "
				     "as source = output", metric, c->w->name, WORKLOAD_INI));
		return;
	}
	add(c, metric, value, meta);
}

static double job_value(enum metric_source source, const struct job_rep_result *r)
{
	switch (source) {
	case METRIC_JOB_WALL: return r->wall_s;
	case METRIC_JOB_USER: return r->user_s;
	case METRIC_JOB_SYS: return r->sys_s;
	case METRIC_GUEST_USER: return r->guest_user_s;
	case METRIC_GUEST_SYS: return r->guest_sys_s;
	default: return NAN;
	}
}

/* The rep's count of a row, or NULL when the guest sent nothing for it. */
static const struct irq_count *irq_of(const struct job_rep_result *r, const char *label)
{
	for (size_t k = 0; k < r->nirq; k++)
		if (!strcmp(r->irq[k].label, label))
			return &r->irq[k];
	return NULL;
}

/* An irq.LABEL metric whose row the guest has not counted gets no sample (a zero would
 * read as "no IPIs"), nor does a timing the host refused (NAN, r->refused says why);
 * workload_rep_gaps says why. */
static void add_job_metrics(struct collect *c, const struct job_rep_result *r)
{
	for (size_t i = 0; i < c->w->nmetrics; i++) {
		const struct workload_metric *m = &c->w->metrics[i];
		const struct irq_count *n;
		if (m->source == METRIC_IRQ) {
			if ((n = irq_of(r, m->irq_label)) && !n->missing)
				add(c, m->name, (double)n->delta, m);
		} else if (m->source != METRIC_OUTPUT &&
			   !(r->refused && isnan(job_value(m->source, r)))) {
			add(c, m->name, job_value(m->source, r), m);
		}
	}
}

char *workload_rep_gaps(const struct workload *w, const struct job_rep_result *r)
{
	char *text = r->refused ? xasprintf("samples refused: %s", r->refused) : NULL;

	for (size_t i = 0; i < w->nmetrics; i++) {
		const struct workload_metric *m = &w->metrics[i];
		const struct irq_count *n = m->source == METRIC_IRQ ? irq_of(r, m->irq_label) : NULL;
		char *gap, *joined;
		if (m->source != METRIC_IRQ || (n && !n->missing))
			continue;
		gap = n ? xasprintf("no %s sample: %s", m->name, n->missing)
			: xasprintf("no %s sample: the guest sent no count of irq row '%s'", m->name,
				    m->irq_label);
		joined = text ? xasprintf("%s; %s", text, gap) : xstrdup(gap);
		free(text);
		free(gap);
		text = joined;
	}
	return text;
}

/* Why a job that did not exit 0 failed: its status and its last words. */
static char *failure_reason(const struct job_rep_result *r, const char *prog)
{
	const char *words = r->err && *r->err ? r->err : r->out ? r->out : "";
	char *last = workload_last_line(words), *why;

	if (r->term_signal)
		why = xasprintf("%s was killed by signal %d (%s)%s%s", prog, r->term_signal,
				strsignal(r->term_signal), *last ? ": " : "", last);
	else
		why = xasprintf("%s exited with status %d%s%s", prog, r->exit_code, *last ? ": " : "",
				last);
	free(last);
	return why;
}

static const char *program_name(const struct workload_cell *cell, int job)
{
	const char *argv0 = cell->jobs[job].argv[0], *slash = strrchr(argv0, '/');
	return slash ? slash + 1 : argv0;
}

static void collect_rep(struct collect *c, const struct workload_cell *cell,
			const struct job_rep_result *r)
{
	char *why = NULL;

	if (r->term_signal || r->exit_code != 0) {
		problem(c, failure_reason(r, program_name(cell, r->job)));
		return;
	}
	add_job_metrics(c, r);
	if (c->w->parser->parse(r->out ? r->out : "", r->err ? r->err : "", emit_parsed, c, &why) < 0)
		problem(c, xasprintf("output of %s does not parse: %s", program_name(cell, r->job),
				     why ? why : "no reason given"));
	else if (!c->why && c->n == 0)
		problem(c, xasprintf("%s produced no metric", program_name(cell, r->job)));
	free(why);
}

static int hand_out(const struct collect *c, const char *workload, const struct job_rep_result *r,
		    const struct sample *base, workload_sample_fn sink, void *ctx)
{
	for (size_t i = 0; i < c->n; i++) {
		struct sample s = *base;
		s.workload = workload;
		s.metric = c->items[i].metric;
		s.unit = c->items[i].meta->unit;
		s.lower_is_better = c->items[i].meta->lower_is_better;
		s.rep = r->rep;
		s.value = c->items[i].value;
		int stop = sink(&s, ctx);
		if (stop)
			return stop;
	}
	return 0;
}

int workload_rep_samples(const struct workload *w, const struct workload_cell *cell,
			 const struct job_rep_result *r, const struct sample *base,
			 workload_sample_fn sink, void *ctx, char **why)
{
	struct collect c = { .w = w };
	int ret = -1;

	*why = NULL;
	if (r->job < 0 || (size_t)r->job >= cell->njobs) {
		*why = xasprintf("%s: result for job %d, but the cell has %zu jobs", w->name, r->job,
				 cell->njobs);
		return -1;
	}
	collect_rep(&c, cell, r);
	if (c.why)
		*why = xasprintf("%s rep %d: %s", cell->job_workload[r->job], r->rep, c.why);
	else
		ret = hand_out(&c, cell->job_workload[r->job], r, base, sink, ctx);
	for (size_t i = 0; i < c.n; i++)
		free(c.items[i].metric);
	free(c.items);
	free(c.why);
	return ret;
}
