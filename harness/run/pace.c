#include "run/pace.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot/accel.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/json.h"
#include "common/lock.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* A factor outside this range is not a host's speed but a broken figure (an edited file, a
 * clock gone wrong): ignored. It is wide because a group's params may shrink the work far
 * below workload.ini's figures, which are for the defaults: the quick matrix's test_vmalloc
 * cells took 0.013-0.037x of them. */
static const double factor_min = 1e-3, factor_max = 1e3;

char *pace_group(const char *accel, const char *clock, const char *workload,
		 char *const *params, const char *basis)
{
	struct hb_strv own = { 0 };
	size_t n = strlen(workload);
	char *list, *group;

	for (size_t i = 0; params && params[i]; i++)
		if (!strncmp(params[i], workload, n) && params[i][n] == '.')
			hb_strv_push(&own, xstrdup(params[i]));
	hb_strv_push(&own, NULL); /* v is never NULL, n counts the terminator */
	hb_strv_sort(own.v, own.n - 1);
	list = hb_join_names(own.v);
	group = xasprintf("%s %s %s [%s] %s", accel, clock, workload, list, basis);
	free(list);
	hb_free_strv(own.v);
	return group;
}

char *pace_kind(const char *line, const char *variant, int cores)
{
	return xasprintf("%s %s c%d", line ? line : "-", variant, cores);
}

/* The whole file (an object of hosts), or a new one when absent or unreadable. */
static json_object *read_file(void)
{
	char *path = hb_cache_file(PACE_FILE);
	json_object *all = hb_json_from_file_nofollow(path);

	free(path);
	if (!json_object_is_type(all, json_type_object)) {
		json_object_put(all);
		all = json_object_new_object();
	}
	return all;
}

void pace_load(struct pace *p)
{
	json_object *all = read_file();
	char *host = accel_host_key();
	json_object *mine = hb_json_get(all, host);

	*p = (struct pace){ .known = json_object_is_type(mine, json_type_object)
				? json_object_get(mine) : NULL,
			    .learned = json_object_new_object() };
	free(host);
	json_object_put(all);
}

void pace_free(struct pace *p)
{
	json_object_put(p->known);
	json_object_put(p->learned);
	*p = (struct pace){ 0 };
}

static double number(json_object *kind, const char *key)
{
	json_object *v = hb_json_get(kind, key);
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)
		? json_object_get_double(v) : NAN;
}

/* Adds a kind's figures to the sums when they are sane. */
static void add_kind(json_object *kind, double *seconds, double *estimated)
{
	double s = number(kind, "seconds"), e = number(kind, "estimated");

	if (isfinite(s) && isfinite(e) && s > 0 && e > 0) {
		*seconds += s;
		*estimated += e;
	}
}

double pace_factor(const struct pace *p, const char *group, const char *kind,
		   enum pace_match *match)
{
	json_object *g = hb_json_get(p->known, group), *k = kind ? hb_json_get(g, kind) : NULL;
	double s = 0, e = 0, f;

	*match = PACE_NONE;
	if (k) {
		add_kind(k, &s, &e);
		*match = PACE_KIND;
	} else if (json_object_is_type(g, json_type_object)) {
		json_object_object_foreach(g, name, each) {
			(void)name;
			add_kind(each, &s, &e);
		}
		*match = PACE_GROUP;
	}
	f = e > 0 ? s / e : NAN;
	if (!(f >= factor_min && f <= factor_max)) {
		*match = PACE_NONE;
		return 1.0;
	}
	return f;
}

static json_object *child(json_object *o, const char *key)
{
	json_object *c = hb_json_get(o, key);

	if (!json_object_is_type(c, json_type_object)) {
		c = json_object_new_object();
		json_object_object_add(o, key, c);
	}
	return c;
}

/* kind[key] + x, counting an absent figure as 0. */
static double sum_with(json_object *kind, const char *key, double x)
{
	double v = number(kind, key);
	return v > 0 ? v + x : x;
}

void pace_learn(struct pace *p, const char *group, const char *kind, double seconds,
		double estimated)
{
	json_object *k;

	if (!p->learned || !(seconds > 0) || !(estimated > 0))
		return;
	k = child(child(p->learned, group), kind);
	json_object_object_add(k, "seconds", json_object_new_double(sum_with(k, "seconds", seconds)));
	json_object_object_add(k, "estimated", json_object_new_double(sum_with(k, "estimated", estimated)));
	json_object_object_add(k, "cells", json_object_new_int64((int64_t)sum_with(k, "cells", 1)));
	json_object_object_add(k, "updated", json_object_new_int64((int64_t)time(NULL)));
}

/* Drops kinds older than PACE_MAX_AGE_S, and groups left empty, from one host's figures. */
static void prune(json_object *host, double now)
{
	struct hb_strv empty = { 0 };

	json_object_object_foreach(host, gname, g) {
		struct hb_strv old = { 0 };

		if (!json_object_is_type(g, json_type_object)) {
			hb_strv_push(&empty, xstrdup(gname));
			continue;
		}
		json_object_object_foreach(g, kname, k)
			if (!(now - number(k, "updated") < PACE_MAX_AGE_S))
				hb_strv_push(&old, xstrdup(kname));
		for (size_t i = 0; i < old.n; i++)
			json_object_object_del(g, old.v[i]);
		if (!json_object_object_length(g))
			hb_strv_push(&empty, xstrdup(gname));
		hb_free_strv(old.v);
	}
	for (size_t i = 0; i < empty.n; i++)
		json_object_object_del(host, empty.v[i]);
	hb_free_strv(empty.v);
}

void pace_save(const struct pace *p)
{
	json_object *all, *mine;
	char *host, *path, *dir;
	const char *text;
	int lock;

	if (!p->learned || !json_object_object_length(p->learned))
		return;
	/* Runs that end together (meson's parallel tests) each merge into the latest file. */
	dir = hb_cache_dir();
	lock = kernel_cache_lock(dir, "pace", "another run writing " PACE_FILE);
	free(dir);
	all = read_file();
	host = accel_host_key();
	mine = child(all, host);
	json_object_object_foreach(p->learned, gname, g) {
		json_object *to = child(mine, gname);
		json_object_object_foreach(g, kname, k)
			json_object_object_add(to, kname, json_object_get(k));
	}
	json_object_object_foreach(all, hname, h) {
		if (json_object_is_type(h, json_type_object))
			prune(h, (double)time(NULL));
		(void)hname;
	}
	path = hb_cache_file(PACE_FILE);
	text = json_object_to_json_string_ext(all, JSON_C_TO_STRING_PRETTY);
	if (hb_write_file_atomic(path, text, strlen(text)) < 0)
		hb_warn("cannot write %s: %s (the next estimate keeps the older pace)", path,
			strerror(errno));
	free(path);
	free(host);
	json_object_put(all);
	if (lock >= 0)
		kernel_cache_unlock(lock);
}
