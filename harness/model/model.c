#include "model/model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* docs/model.md, "The full model": a 3.0 GHz core, one instruction a cycle. */
#define CYCLE_NS (1.0 / 3.0)

const struct model_constants model_constants = {
	.t_insn = CYCLE_NS,
	/* Fitted on seed 000 (docs/model.md, "The fit"; bench/model-fit.py on the run of
	 * docs/model-validation.md): 2.7 GB/s, between Milan's 4 KiB clears (0.073 ns/B) and
	 * seed 000's whole VM (0.35 ns/B). */
	.t_stos = 0.368255,
	.t_movs = 2 * 0.368255,
	.t_start = 35 * CYCLE_NS,  /* Intel's optimization manual: fast-string start-up */
	.t_l2 = 10 * CYCLE_NS,     /* Levinthal 2009: L2 hit */
	.t_mem = 40 * CYCLE_NS,    /* Levinthal 2009: unshared L3 hit (the model has no L3) */
	.onep_stos = 0.386897,     /* fitted the same way, on the same run */
};

static const char *const scope_names[] = { [MODEL_SCOPE_ALL] = "all", [MODEL_SCOPE_KERNEL] = "kernel",
					   [MODEL_SCOPE_USER] = "user", [MODEL_SCOPE_NONE] = "none" };

int model_scope_parse(const char *s, enum model_scope *out)
{
	for (size_t i = 0; s && i < sizeof(scope_names) / sizeof(scope_names[0]); i++)
		if (!strcmp(s, scope_names[i])) {
			*out = (enum model_scope)i;
			return 0;
		}
	return -1;
}

const char *model_scope_name(enum model_scope s)
{
	return s <= MODEL_SCOPE_NONE ? scope_names[s] : "?";
}

bool model_unit_is_time(const char *unit)
{
	static const char *const times[] = { "s", "ms", "us", "usec", "ns", "cycles" };

	for (size_t i = 0; unit && i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcmp(unit, times[i]))
			return true;
	return false;
}

static double elements(const uint64_t *f, int first)
{
	return (double)f[first] + (double)f[first + 1] + (double)f[first + 2] + (double)f[first + 3];
}

static double bytes(const uint64_t *f, int first)
{
	return (double)f[first] + 2.0 * (double)f[first + 1] + 4.0 * (double)f[first + 2] +
	       8.0 * (double)f[first + 3];
}

double model_mode_ns(const uint64_t *f, enum model_reading r, const struct model_constants *k)
{
	double insns = (double)f[HB_MODEL_INSNS];
	double nstos = elements(f, HB_MODEL_STOS1), nmovs = elements(f, HB_MODEL_MOVS1);

	switch (r) {
	case MODEL_ICOUNT:
		return insns;
	case MODEL_ONEP:
		return insns - nstos + k->onep_stos * bytes(f, HB_MODEL_STOS1);
	case MODEL_FULL:
		return k->t_insn * (insns - nstos - nmovs) + k->t_stos * bytes(f, HB_MODEL_STOS1) +
		       k->t_movs * bytes(f, HB_MODEL_MOVS1) +
		       k->t_start * (double)(f[HB_MODEL_STOS_STARTS] + f[HB_MODEL_MOVS_STARTS]) +
		       k->t_l2 * (double)f[HB_MODEL_L2_HITS] + k->t_mem * (double)f[HB_MODEL_L2_MISSES] +
		       k->t_stos * 4096.0 * (double)f[HB_MODEL_NEW_4K];
	}
	return insns;
}

double model_section_ns(const struct model_counts *c, enum model_scope scope,
			enum model_reading r, const struct model_constants *k)
{
	double t = 0;

	if (scope == MODEL_SCOPE_ALL || scope == MODEL_SCOPE_KERNEL)
		t += model_mode_ns(c->v[HB_MODEL_KERNEL], r, k);
	if (scope == MODEL_SCOPE_ALL || scope == MODEL_SCOPE_USER)
		t += model_mode_ns(c->v[HB_MODEL_USER], r, k);
	return t;
}

double model_scale(double value, const struct model_counts *c, enum model_scope scope,
		   enum model_reading r, const struct model_constants *k)
{
	double base;

	if (scope == MODEL_SCOPE_NONE)
		return value;
	base = model_section_ns(c, scope, MODEL_ICOUNT, k);
	return base > 0 ? value * model_section_ns(c, scope, r, k) / base : value;
}

/* Reads n unsigned decimals after the word want; the rest of the line after them in *end. */
static int read_mode(const char *p, const char *want, uint64_t *f, const char **end)
{
	size_t len = strlen(want);

	while (*p == ' ')
		p++;
	if (strncmp(p, want, len) || p[len] != ' ')
		return -1;
	p += len;
	for (int i = 0; i < HB_MODEL_NFIELDS; i++) {
		char *e;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		f[i] = strtoull(p, &e, 10);
		if (errno)
			return -1;
		p = e;
	}
	*end = p;
	return 0;
}

int model_parse_line(const char *line, struct model_section *out, char **why)
{
	const char *p = line, *end;
	char *e;
	long rep, id;

	if (strncmp(p, HB_MODEL_PREFIX HB_MODEL_SECTION " ", strlen(HB_MODEL_PREFIX HB_MODEL_SECTION " ")))
		return 0;
	p += strlen(HB_MODEL_PREFIX HB_MODEL_SECTION " ");
	*out = (struct model_section){ 0 };
	errno = 0;
	rep = strtol(p, &e, 10);
	if (e == p || errno || rep < 0 || rep > 1000000)
		goto bad;
	p = e;
	id = strtol(p, &e, 10);
	if (e == p || errno || id < 0 || id > 255)
		goto bad;
	if (read_mode(e, "kernel", out->c.v[HB_MODEL_KERNEL], &end) < 0 ||
	    read_mode(end, "user", out->c.v[HB_MODEL_USER], &end) < 0)
		goto bad;
	while (*end == ' ' || *end == '\n')
		end++;
	if (*end)
		goto bad;
	out->rep = (int)rep;
	out->id = (int)id;
	return 1;
bad:
	*why = xasprintf("malformed model plugin line '%.80s' (accepted: " HB_MODEL_PREFIX
			 HB_MODEL_SECTION " REP ID kernel <%d counts> user <%d counts>)", line,
			 HB_MODEL_NFIELDS, HB_MODEL_NFIELDS);
	return -1;
}

int model_read_log(const char *path, struct model_log *out, char **why)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	int rc = 0;

	*out = (struct model_log){ 0 };
	if (!f) {
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct model_section s;
		int got = model_parse_line(line, &s, why);
		if (got < 0)
			rc = -1;
		else if (got > 0) {
			out->s = xgrow(out->s, &alloc, out->n + 1, sizeof(*out->s));
			out->s[out->n++] = s;
		}
	}
	free(line);
	fclose(f);
	if (rc < 0)
		model_log_free(out);
	return rc;
}

void model_log_free(struct model_log *l)
{
	free(l->s);
	*l = (struct model_log){ 0 };
}

const struct model_section *model_log_find(const struct model_log *l, int rep, int id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i].rep == rep && l->s[i].id == id)
			return &l->s[i];
	return NULL;
}
