#include "run/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "guest/marker.h"
#include "kernel/kernel.h"
#include "plugins/profile/profile_format.h"
#include "results/profile_set.h"
#include "run/run.h"
#include "workload/meta.h"

int run_profile_check(const struct run *r, char **why)
{
	if (r->accel == ACCEL_KVM) {
		/* perf record in the guest would sample cycles; it is not built: the project's
		 * machines have no KVM to test it on (docs/profile.md). */
		*why = hb_have_program("perf")
			? xstrdup("--profile under KVM: sampling with perf in the guest is not built "
				  "yet, and a plugin runs only under TCG (accepted: --accel tcg)")
			: xstrdup("--profile under KVM: the guest would need perf (it runs the host "
				  "root's programs; none installed) and a plugin runs only under TCG "
				  "(accepted: --accel tcg)");
		return -1;
	}
	for (size_t w = 0; w < r->nworkloads; w++) {
		if (r->clocks[w] == CLOCK_ICOUNT)
			continue;
		for (size_t i = 0; i < r->plan.ncores; i++)
			if (r->plan.cores[i] > 1) {
				*why = xasprintf("--profile: %s runs on the host clock with %ld vCPUs, "
						 "which TCG runs in parallel threads where the plugin's "
						 "counters are not atomic (accepted: --clock icount, or "
						 "--cores 1)", r->workloads[w]->name, r->plan.cores[i]);
				return -1;
			}
	}
	return 0;
}

/* Escapes ',' as QEMU's option parser wants it (",,"). */
static char *opt_escape(const char *s)
{
	size_t n = 0;
	char *out, *o;

	for (const char *p = s; *p; p++)
		n += *p == ',' ? 2 : 1;
	out = o = xmalloc(n + 1);
	for (const char *p = s; *p; p++) {
		*o++ = *p;
		if (*p == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

void run_profile_vm(const struct run *r, const struct run_variant *v, const char *cmdline,
		    const char *log_dir, struct vm_opts *o, struct profile_vm *keep)
{
	const char *vmlinux = v->kernel ? v->kernel->vmlinux : NULL;
	char *out = hb_path_join(log_dir, PROFILE_RAW_NAME), *eout = opt_escape(out);

	(void)r;
	keep->plugin = hb_path_join(hb_build_dir(), PROFILE_PLUGIN_RELPATH);
	if (vmlinux && hb_is_file(vmlinux)) {
		char *ev = opt_escape(vmlinux);
		keep->args = xasprintf("vmlinux=%s,out=%s", ev, eout);
		free(ev);
	} else {
		keep->args = xasprintf("out=%s", eout);
	}
	keep->cmdline = xasprintf("%s%s" PROFILE_CMDLINE, cmdline ? cmdline : "",
				  cmdline && *cmdline ? " " : "");
	o->qemu_plugin = keep->plugin;
	o->qemu_plugin_args = keep->args;
	free(out);
	free(eout);
}

void run_profile_vm_free(struct profile_vm *keep)
{
	free(keep->plugin);
	free(keep->args);
	free(keep->cmdline);
	*keep = (struct profile_vm){ 0 };
}

/* ---- the plugin's text (profile_format.h) ---- */

struct prof_entry {
	char *name;          /* a function, or "function op" for a rep string line */
	uint64_t count;
};

struct prof_section {
	int marker;
	uint64_t insns, halts;
	struct prof_entry *f, *r;
	size_t nf, nr, fcap, rcap;
};

struct cell_profile {
	struct prof_section *s;
	size_t n, cap;
	char *vmlinux;
	bool symbols;        /* the plugin had a vmlinux */
	bool complete;       /* the exit line arrived */
	uint64_t restarts, stray_ends, dropped;
};

#define NAME_MAX_LEN 255

static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	return n && n <= NAME_MAX_LEN && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789_.$[] ") == n;
}

static int add_entry(struct prof_entry **v, size_t *n, size_t *cap, const char *name,
		     uint64_t count)
{
	if (!name_ok(name))
		return -1;
	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (struct prof_entry){ .name = xstrdup(name), .count = count };
	return 0;
}

static void section_free(struct prof_section *s)
{
	for (size_t i = 0; i < s->nf; i++)
		free(s->f[i].name);
	for (size_t i = 0; i < s->nr; i++)
		free(s->r[i].name);
	free(s->f);
	free(s->r);
}

void cell_profile_free(struct cell_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		section_free(&p->s[i]);
	free(p->s);
	free(p->vmlinux);
	free(p);
}

/* One line of the file into p; -1 when it is not of the format. */
static int parse_line(struct cell_profile *p, char *line, struct prof_section **open)
{
	char name[NAME_MAX_LEN + 2], op[16], path[4096];
	uint64_t a, b, c, d, e, f;
	int version, id;
	size_t nsym;

	if (sscanf(line, "hb-profile %d symbols %zu vmlinux %4095s", &version, &nsym, path) == 3) {
		if (version != HB_PROFILE_FORMAT_VERSION)
			return -1;
		p->symbols = nsym > 0;
		free(p->vmlinux);
		p->vmlinux = xstrdup(path);
		return 0;
	}
	if (sscanf(line, HB_PROFILE_SECTION_LINE, &a, &id, &b, &c) == 4) {
		if (*open || id < 0 || id > HB_MARK_ID_MAX)
			return -1;
		p->s = xgrow(p->s, &p->cap, p->n + 1, sizeof(*p->s));
		*open = &p->s[p->n++];
		**open = (struct prof_section){ .marker = id, .insns = b, .halts = c };
		return 0;
	}
	if (*open && sscanf(line, "f %" SCNu64 " %256[^\n]", &a, name) == 2)
		return add_entry(&(*open)->f, &(*open)->nf, &(*open)->fcap, name, a);
	if (*open && sscanf(line, "r %" SCNu64 " %256s %15s", &a, name, op) == 3) {
		char *both = xasprintf("%s %s", name, op);
		int rc = strlen(op) > 6 ? -1 : add_entry(&(*open)->r, &(*open)->nr, &(*open)->rcap, both, a);
		free(both);
		return rc;
	}
	if (*open && sscanf(line, HB_PROFILE_END_LINE, &a) == 1) {
		uint64_t sum = 0;
		for (size_t i = 0; i < (*open)->nf; i++)
			sum += (*open)->f[i].count;
		*open = NULL;
		return sum == p->s[p->n - 1].insns ? 0 : -1; /* the format's own invariant */
	}
	if (!*open && sscanf(line, HB_PROFILE_EXIT_LINE, &a, &b, &c, &d, &e, &f) == 6) {
		p->complete = true;
		p->restarts = c;
		p->stray_ends = d;
		p->dropped = e;
		return 0;
	}
	return -1;
}

struct cell_profile *cell_profile_read(const char *log_dir, char **why)
{
	char *path = hb_path_join(log_dir, PROFILE_RAW_NAME), *line = NULL;
	FILE *f = fopen(path, "re");
	struct cell_profile *p;
	struct prof_section *open = NULL;
	size_t cap = 0;
	long lineno = 0;
	ssize_t len;

	if (!f) {
		*why = xasprintf("no profile: %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (parse_line(p, line, &open) < 0) {
			*why = xasprintf("profile %s line %ld is not of its format "
					 "(plugins/profile/profile_format.h)", path, lineno);
			cell_profile_free(p);
			p = NULL;
			break;
		}
	}
	/* A section cut by QEMU's end is dropped: the plugin writes whole sections. */
	if (p && open) {
		section_free(open);
		p->n--;
	}
	free(line);
	fclose(f);
	free(path);
	return p;
}

size_t cell_profile_sections(const struct cell_profile *p)
{
	return p ? p->n : 0;
}

unsigned long long cell_profile_section_insns(const struct cell_profile *p, size_t i)
{
	return p && i < p->n ? p->s[i].insns : 0;
}

/* ---- one repetition's lines of RUN/profile.jsonl ---- */

static int cmp_entry(const void *a, const void *b)
{
	const struct prof_entry *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

static json_object *entries_json(struct prof_entry *v, size_t n)
{
	json_object *o = json_object_new_object();

	qsort(v, n, sizeof(*v), cmp_entry);
	for (size_t i = 0; i < n; i++)
		json_object_object_add(o, v[i].name, json_object_new_int64((int64_t)v[i].count));
	return o;
}

/* The group of sections of the boot's k-th job repetition: the k-th id-0 section and the
 * step sections that ended since the one before it. [*first, *last] indexes p->s. */
static bool group_of(const struct cell_profile *p, size_t k, size_t *first, size_t *last)
{
	size_t seen = 0, start = 0;

	for (size_t i = 0; i < p->n; i++) {
		if (p->s[i].marker != HB_MARK_ID_JOB)
			continue;
		if (seen++ == k) {
			*first = start;
			*last = i;
			return true;
		}
		start = i + 1;
	}
	return false;
}

static const struct sample *sample_named(const struct sample *s, size_t n, const char *metric)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].metric, metric))
			return &s[i];
	return NULL;
}

/* The metric a section of marker id times, and its value in seconds; false when the
 * workload declares none for a step id. Marker 0 without a declared metric: the job's
 * wall time as the init measured it. */
static bool section_metric(const struct workload *w, int id, const struct job_rep_result *jr,
			   const struct sample *s, size_t ns, const char **metric, double *value)
{
	for (size_t m = 0; m < w->nmetrics; m++) {
		const struct sample *x;
		if (w->metrics[m].marker != id)
			continue;
		*metric = w->metrics[m].name;
		x = sample_named(s, ns, *metric);
		*value = x ? x->value : NAN;
		return true;
	}
	if (id != HB_MARK_ID_JOB)
		return false;
	*metric = PROFILE_JOB_WALL;
	*value = jr->wall_s;
	return true;
}

static json_object *record_json(const struct plan_cell *c, int plan_rep, const char *metric,
				struct prof_section *sec, double value_s, double idle_s,
				bool symbols)
{
	json_object *o = plan_cell_rep_json(c, plan_rep);
	double sample_ns = value_s * 1e9, idle_ns = idle_s >= 0 ? idle_s * 1e9 : NAN;

	json_object_object_add(o, "metric", json_object_new_string(metric));
	json_object_object_add(o, "marker", json_object_new_int(sec->marker));
	json_object_object_add(o, "insns", json_object_new_int64((int64_t)sec->insns));
	json_object_object_add(o, "halts", json_object_new_int64((int64_t)sec->halts));
	if (isfinite(sample_ns))
		json_object_object_add(o, "sample_ns", json_object_new_double(round(sample_ns)));
	if (isfinite(idle_ns))
		json_object_object_add(o, "idle_ns", json_object_new_double(round(idle_ns)));
	json_object_object_add(o, "symbols", json_object_new_boolean(symbols));
	json_object_object_add(o, "functions", entries_json(sec->f, sec->nf));
	json_object_object_add(o, "rep_strings", entries_json(sec->r, sec->nr));
	return o;
}

int cell_profile_rep(struct run *r, const struct plan_cell *c, const struct cell_profile *p,
		     const struct vm_result *res, int i, int plan_rep, const struct sample *samples,
		     size_t nsamples, char **why)
{
	const struct workload *w = run_workload(r, c->workload);
	const struct job_rep_result *jr = NULL;
	size_t k, first, last;

	for (k = 0; k < res->nreps; k++) /* job 0's repetition i: its place in boot order */
		if (res->reps[k].job == 0 && res->reps[k].rep == i) {
			jr = &res->reps[k];
			break;
		}
	if (!jr || !group_of(p, k, &first, &last)) {
		*why = xasprintf("the guest marked fewer sections than it ran repetitions (none for "
				 "repetition %d; guest/marker.h)", i);
		return -1;
	}
	for (size_t s = first; s <= last; s++) {
		const char *metric;
		double value;
		json_object *o;
		char *line;
		int rc;

		if (!section_metric(w, p->s[s].marker, jr, samples, nsamples, &metric, &value))
			continue;
		/* The init's idle measurement covers its own (id 0) interval only. */
		o = record_json(c, plan_rep, metric, &p->s[s], value,
				p->s[s].marker == HB_MARK_ID_JOB ? jr->idle_sleep_s : -1, p->symbols);
		line = xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
									    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		rc = rs_append_line(r->rs, PROFILE_SET_FILE, line);
		free(line);
		if (rc < 0) {
			*why = xstrdup("cannot write " PROFILE_SET_FILE);
			return -1;
		}
	}
	return 0;
}
