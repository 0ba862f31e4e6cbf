#include "common/json.h"

json_object *hb_json_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o)
		json_object_object_get_ex(o, key, &v);
	return v;
}

json_object *hb_json_at(json_object *o, const char *const *keys)
{
	for (size_t i = 0; o && keys[i]; i++)
		o = json_object_is_type(o, json_type_object) ? hb_json_get(o, keys[i]) : NULL;
	return o;
}
