/* Internal to the published.json reader: seeds_load.c checks one figure's keys,
 * seeds_files.c reads files and folders of them (format: seeds.h). */
#ifndef HB_SEEDS_SEEDS_FIGURE_H
#define HB_SEEDS_SEEDS_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "seeds/seeds.h"

#define PUBLISHED_FILE "published.json"

/* Where we are, for the one-line error. */
struct seed_where {
	const char *file;
	size_t index; /* 0: the file's top level */
	const char *within; /* "conditions: " or "" */
	char *error;  /* the first problem, malloc'd */
};

/* Records the first problem as "FILE: figure N: ..." in w->error; returns false. */
__attribute__((format(printf, 2, 3))) bool seed_problem(struct seed_where *w, const char *fmt, ...);
/* Every key of o is in accepted (", "-separated), else a problem naming it. */
bool seed_only_known_keys(struct seed_where *w, json_object *o, const char *accepted);
/* Fills f from fig (f is set up first, so seed_figure_free is right on failure too).
 * folder: the workload the file belongs to, or NULL. */
bool seed_load_figure(struct seed_where *w, json_object *fig, const char *folder, struct seed_figure *f);
void seed_figure_free(struct seed_figure *f);

#endif
