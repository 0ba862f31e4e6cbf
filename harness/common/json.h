/* The one JSON accessor the readers of meta.json and result files share (json-c). */
#ifndef HB_COMMON_JSON_H
#define HB_COMMON_JSON_H

#include <json-c/json.h>

/* o[key], or NULL when o is NULL or has no such key. */
json_object *hb_json_get(json_object *o, const char *key);
/* o[keys[0]][keys[1]]... (keys NULL-terminated), or NULL when a step is missing or not an
 * object. */
json_object *hb_json_at(json_object *o, const char *const *keys);

#endif
