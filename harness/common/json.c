#include "common/json.h"

json_object *hb_json_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o)
		json_object_object_get_ex(o, key, &v);
	return v;
}
