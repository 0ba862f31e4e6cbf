/* harness merge: samples with their host, rounds kept pairable, every node's hostinfo. */
#include "results/merge.h"

#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "results/store.h"

/* Calls cb for every parsable line of dir's samples.jsonl; corrupt lines are counted.
 * -1 when the file cannot be opened (absent is an empty set: 0). */
static long each_sample(const char *dir, void (*cb)(json_object *s, void *ctx), void *ctx, long *bad)
{
	char *path = hb_path_join(dir, RS_SAMPLES_FILE), *line = NULL;
	FILE *f = hb_fopen_nofollow(path, "r");
	size_t cap = 0;
	long n = 0;

	free(path);
	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (getline(&line, &cap, f) > 0) {
		json_object *s = json_tokener_parse(line);
		if (!s || !json_object_is_type(s, json_type_object)) {
			(*bad)++;
			json_object_put(s);
			continue;
		}
		cb(s, ctx);
		json_object_put(s);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/* Rounds: the (workload, cores, boot) keys of the sets merged so far. */
struct rounds {
	void *seen;      /* tsearch of "workload\tcores\tboot" */
	void *mine;      /* the current set's keys */
	int max_boot;    /* over the sets merged so far, after their offsets */
	int set_max;
	bool collides;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static char *round_key(json_object *s, int offset)
{
	return xasprintf("%s\t%d\t%d", json_object_get_string(hb_json_get(s, "workload")),
			 hb_json_get(s, "cores") ? json_object_get_int(hb_json_get(s, "cores")) : -1,
			 hb_json_get(s, "boot") ? json_object_get_int(hb_json_get(s, "boot")) + offset : -1);
}

static void note_round(json_object *s, void *ctx)
{
	struct rounds *r = ctx;
	char *k = round_key(s, 0);

	if (hb_json_get(s, "boot") && json_object_get_int(hb_json_get(s, "boot")) > r->set_max)
		r->set_max = json_object_get_int(hb_json_get(s, "boot"));
	if (hb_json_get(s, "boot") && tfind(k, &r->seen, cmp_str))
		r->collides = true;
	if (*(char **)tsearch(k, &r->mine, cmp_str) != k)
		free(k);
}

static void keep_rounds(struct rounds *r, int offset)
{
	/* The current set's keys join the seen ones, shifted; tdestroy frees the old. */
	void *mine = r->mine;
	r->mine = NULL;
	while (mine) {
		char *k = *(char **)mine, *w = xstrdup(k), *c = strchr(w, '\t'), *b = c ? strchr(c + 1, '\t') : NULL;
		tdelete(k, &mine, cmp_str);
		if (b) {
			char *shifted = xasprintf("%.*s\t%d", (int)(b - w), w, atoi(b + 1) + offset);
			if (*(char **)tsearch(shifted, &r->seen, cmp_str) != shifted)
				free(shifted);
		}
		free(w);
		free(k);
	}
	if (r->set_max + offset > r->max_boot)
		r->max_boot = r->set_max + offset;
}

/* The boot offset of each set: 0 unless its rounds collide with an earlier set's. */
static int plan_offsets(char *const *sets, size_t n, int *offsets, long *bad)
{
	struct rounds r = { .max_boot = -1 };

	for (size_t i = 0; i < n; i++) {
		r.collides = false;
		r.set_max = -1;
		if (each_sample(sets[i], note_round, &r, bad) < 0)
			return -1;
		offsets[i] = r.collides ? r.max_boot + 1 : 0;
		keep_rounds(&r, offsets[i]);
	}
	tdestroy(r.seen, free);
	return 0;
}

struct writer {
	FILE *f;
	const char *host;
	int offset;
	long n;
};

static void write_sample(json_object *s, void *ctx)
{
	struct writer *w = ctx;

	if (!hb_json_get(s, "host"))
		json_object_object_add(s, "host", json_object_new_string(w->host));
	if (w->offset && hb_json_get(s, "boot"))
		json_object_object_add(s, "boot", json_object_new_int(json_object_get_int(hb_json_get(s, "boot")) + w->offset));
	fprintf(w->f, "%s\n", json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN));
	w->n++;
}

/* Adds set i's hosts to meta "hosts" (a merged set brings its own list). */
static void add_hosts(json_object *hosts, json_object *meta, const char *host)
{
	json_object *list = hb_json_get(meta, "hosts"), *e;
	size_t n = list ? json_object_array_length(list) : 0;

	if (!list) {
		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(host));
		json_object_object_add(e, "hostinfo", json_object_get(hb_json_get(meta, "host")));
		list = json_object_new_array();
		json_object_array_add(list, e);
		n = 1;
	} else {
		json_object_get(list);
	}
	for (size_t i = 0; i < n; i++) {
		json_object *h = json_object_array_get_idx(list, i);
		const char *name = json_object_get_string(hb_json_get(h, "name"));
		bool seen = false;
		for (size_t j = 0; j < json_object_array_length(hosts) && !seen; j++)
			seen = !strcmp(json_object_get_string(hb_json_get(json_object_array_get_idx(hosts, j), "name")), name);
		if (!seen)
			json_object_array_add(hosts, json_object_get(h));
	}
	json_object_put(list);
}

static json_object *merged_entry(const char *set, const char *host, long n, int offset)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "set", json_object_new_string(set));
	json_object_object_add(e, "host", json_object_new_string(host));
	json_object_object_add(e, "samples", json_object_new_int64(n));
	json_object_object_add(e, "boot_offset", json_object_new_int(offset));
	return e;
}

/* Streams every set into f; fills meta's hosts and merged_from. */
static int copy_samples(FILE *f, char *const *sets, json_object **metas, size_t n, const int *offsets,
			json_object *meta, long *bad)
{
	json_object *hosts = json_object_new_array(), *from = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		char *host = merge_host_name(metas[i], sets[i]);
		struct writer w = { .f = f, .host = host, .offset = offsets[i] };
		long got = each_sample(sets[i], write_sample, &w, bad);
		add_hosts(hosts, metas[i], host);
		json_object_array_add(from, merged_entry(sets[i], host, w.n, offsets[i]));
		free(host);
		if (got < 0) {
			json_object_put(hosts);
			json_object_put(from);
			return -1;
		}
	}
	json_object_object_add(meta, "hosts", hosts);
	json_object_object_add(meta, "merged_from", from);
	return 0;
}

static int write_all(const char *out, char *const *sets, json_object **metas, size_t n,
		     json_object *meta, char **why)
{
	char *path = hb_path_join(out, RS_SAMPLES_FILE), *tmp = xasprintf("%s.merge-tmp", path);
	int *offsets = xcalloc(n, sizeof(int)), rc = HB_EXIT_FAIL;
	long bad = 0;
	FILE *f = NULL;

	if (plan_offsets(sets, n, offsets, &bad) < 0)
		*why = xasprintf("merge: cannot read the samples of a set: %s", strerror(errno));
	else if ((unlink(tmp) < 0 && errno != ENOENT) || !(f = hb_fopen_nofollow(tmp, "wx")))
		*why = xasprintf("merge: cannot write %s: %s", tmp, strerror(errno));
	else if (copy_samples(f, sets, metas, n, offsets, meta, &bad) < 0 || fflush(f) || fsync(fileno(f)))
		*why = xasprintf("merge: cannot copy samples into %s: %s", tmp, strerror(errno));
	else if (rename(tmp, path) < 0)
		*why = xasprintf("merge: cannot rename %s: %s", tmp, strerror(errno));
	else
		rc = 0;
	if (f)
		fclose(f);
	if (rc)
		unlink(tmp);
	if (bad)
		hb_warn("merge: skipped %ld corrupt sample lines", bad / 2); /* read twice */
	free(offsets);
	free(tmp);
	free(path);
	return rc;
}

static int write_meta(const char *out, json_object *meta, char **why)
{
	char *path = hb_path_join(out, RS_META_FILE);
	const char *text = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	char *data = xasprintf("%s\n", text);
	int rc = hb_write_file_atomic(path, data, strlen(data));

	if (rc)
		*why = xasprintf("merge: cannot write %s: %s", path, strerror(errno));
	free(data);
	free(path);
	return rc ? HB_EXIT_FAIL : 0;
}

/* Reads every set's meta.json into metas[n]: 0, or HB_EXIT_USAGE with *why; with warn,
 * differences that do not prevent the merge are said. */
static int read_metas(char *const *sets, size_t n, json_object **metas, bool warn, char **why)
{
	for (size_t i = 0; i < n; i++)
		if (!(metas[i] = rs_read_meta(sets[i]))) {
			*why = xasprintf("merge: %s: not a result set (no readable meta.json)", sets[i]);
			return HB_EXIT_USAGE;
		}
	return merge_check(metas, sets, n, warn, why) == 0 ? 0 : HB_EXIT_USAGE;
}

static void put_metas(json_object **metas, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_put(metas[i]);
	free(metas);
}

int merge_check_sets(char *const *sets, size_t n, char **why)
{
	json_object **metas = xcalloc(n + 1, sizeof(*metas));
	int rc = read_metas(sets, n, metas, false, why); /* merge_sets says the warnings */

	put_metas(metas, n);
	return rc;
}

/* Adds to object into what from has and into lacks (one level deep; into may be NULL). */
static void add_missing(json_object *into, json_object *from)
{
	if (!into || !from || !json_object_is_type(into, json_type_object) ||
	    !json_object_is_type(from, json_type_object))
		return;
	json_object_object_foreach(from, name, v)
		if (!hb_json_get(into, name))
			json_object_object_add(into, name, json_object_get(v));
}

/* Halves split by workload ran different kernels, variants and workloads: the merged
 * meta.json lists them all (merge_check made sure the shared ones agree), so the report
 * names every kernel. */
static void union_definitions(json_object *meta, json_object *const *metas, size_t n)
{
	static const char *const keys[] = { "kernels", "variants", "workloads", NULL };
	json_object *lines = hb_json_get(meta, "kernels_by_line");

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; keys[k]; k++)
			add_missing(hb_json_get(meta, keys[k]), hb_json_get(metas[i], keys[k]));
		add_missing(hb_json_get(hb_json_get(meta, "clock"), "workloads"),
			    hb_json_get(hb_json_get(metas[i], "clock"), "workloads"));
		add_missing(lines, hb_json_get(metas[i], "kernels_by_line"));
		if (lines && json_object_is_type(lines, json_type_object)) {
			json_object_object_foreach(lines, line, kernels)
				add_missing(kernels, hb_json_get(hb_json_get(metas[i], "kernels_by_line"), line));
		}
	}
}

int merge_sets(const char *out, char *const *sets, size_t n, json_object *base, char **why)
{
	json_object **metas = xcalloc(n + 1, sizeof(*metas)), *meta = NULL;
	int rc = read_metas(sets, n, metas, true, why);

	if (rc == 0) {
		/* A deep copy: the caller's base stays as it was if the merge fails. */
		json_object_deep_copy(base ? base : metas[0], &meta, NULL);
		union_definitions(meta, metas, n);
		rc = write_all(out, sets, metas, n, meta, why);
		if (rc == 0)
			rc = write_meta(out, meta, why);
	}
	put_metas(metas, n);
	json_object_put(meta);
	return rc;
}
