/* The job file: line-based text, every value percent-encoded (PROTOCOL.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes %XX in place. -1 on a malformed escape. */
static int percent_decode(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (*s != '%') {
			*out++ = *s;
			continue;
		}
		int hi = hex_digit(s[1]), lo = hi < 0 ? -1 : hex_digit(s[2]);
		if (hi < 0 || lo < 0)
			return -1;
		*out++ = (char)(hi * 16 + lo);
		s += 2;
	}
	*out = '\0';
	return 0;
}

/* Appends s to a NULL-terminated vector. */
static int strv_push(char ***v, size_t *n, char *s)
{
	char **bigger = realloc(*v, (*n + 2) * sizeof(**v));

	if (!bigger)
		return -1;
	bigger[(*n)++] = s;
	bigger[*n] = NULL;
	*v = bigger;
	return 0;
}

struct parse_state {
	struct init_spec *spec;
	struct init_job *job;  /* open job block, or NULL */
	size_t nargs, nenv, nirq;
	int line;
};

static int open_job(struct parse_state *st, char why[INIT_WHY_MAX])
{
	struct init_spec *s = st->spec;
	struct init_job *bigger;

	if (st->job) {
		init_set_why(why, 0, "job file line %d: 'job' inside an open job (missing 'end')", st->line);
		return -1;
	}
	bigger = realloc(s->jobs, (s->njobs + 1) * sizeof(*s->jobs));
	if (!bigger) {
		init_set_why(why, 0, "out of memory reading the job file");
		return -1;
	}
	s->jobs = bigger;
	st->job = &s->jobs[s->njobs++];
	memset(st->job, 0, sizeof(*st->job));
	st->job->reps = 1;
	st->job->cwd = "/tmp";
	st->nargs = st->nenv = st->nirq = 0;
	return 0;
}

static int close_job(struct parse_state *st, char why[INIT_WHY_MAX])
{
	if (!st->job || !st->nargs) {
		init_set_why(why, 0, "job file line %d: 'end' without an open job that has an 'arg'",
			st->line);
		return -1;
	}
	if (!st->job->env && strv_push(&st->job->env, &st->nenv, NULL) < 0)
		return -1;
	st->job = NULL;
	return 0;
}

static int job_key(struct parse_state *st, const char *key, char *val, char why[INIT_WHY_MAX])
{
	struct init_job *j = st->job;

	if (!strcmp(key, "arg"))
		return strv_push(&j->argv, &st->nargs, val);
	if (!strcmp(key, "env"))
		return strv_push(&j->env, &st->nenv, val);
	if (!strcmp(key, HB_JOBFILE_IRQ)) {
		if (!hb_irq_label_ok(val)) {
			init_set_why(why, 0, "job file line %d: bad irq label '%s'", st->line, val);
			return -1;
		}
		return strv_push(&j->irq, &st->nirq, val);
	}
	if (!strcmp(key, "cwd")) {
		j->cwd = val;
		return 0;
	}
	if (!strcmp(key, "reps")) {
		char *end;
		long reps = strtol(val, &end, 10);
		if (*end || reps < 1 || reps > 1000000) {
			init_set_why(why, 0, "job file line %d: bad reps '%s'", st->line, val);
			return -1;
		}
		j->reps = (int)reps;
		return 0;
	}
	init_set_why(why, 0, "job file line %d: unknown key '%s' in a job", st->line, key);
	return -1;
}

static int parse_line(struct parse_state *st, char *line, char why[INIT_WHY_MAX])
{
	char *val = strchr(line, ' ');

	if (val)
		*val++ = '\0';
	if (val && percent_decode(val) < 0) {
		init_set_why(why, 0, "job file line %d: bad %%-escape", st->line);
		return -1;
	}
	if (!strcmp(line, "job"))
		return open_job(st, why);
	if (!strcmp(line, "end"))
		return close_job(st, why);
	if (!val) {
		init_set_why(why, 0, "job file line %d: '%s' needs a value", st->line, line);
		return -1;
	}
	if (st->job)
		return job_key(st, line, val, why);
	if (!strcmp(line, "home"))
		st->spec->home = val;
	else if (!strcmp(line, "modules"))
		st->spec->modules = val;
	else {
		init_set_why(why, 0, "job file line %d: unknown key '%s'", st->line, line);
		return -1;
	}
	return 0;
}

int jobfile_parse(char *text, struct init_spec *out, char why[INIT_WHY_MAX])
{
	struct parse_state st = { .spec = out, .line = 1 };
	char *save = NULL, *line;
	char header[32];

	memset(out, 0, sizeof(*out));
	snprintf(header, sizeof(header), HB_JOBFILE_MAGIC " %d", HB_PROTOCOL_VERSION);
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, header)) {
		init_set_why(why, 0, "job file does not start with '%s'", header);
		return -1;
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		st.line++;
		if (parse_line(&st, line, why) < 0) {
			if (!why[0])
				init_set_why(why, 0, "out of memory reading the job file");
			return -1;
		}
	}
	if (st.job) {
		init_set_why(why, 0, "job file ends inside a job (missing 'end')");
		return -1;
	}
	return 0;
}

void jobfile_free(struct init_spec *s)
{
	for (size_t j = 0; j < s->njobs; j++) {
		free(s->jobs[j].argv);
		free(s->jobs[j].env);
		free(s->jobs[j].irq);
	}
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}
