#include "results/jsonfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

json_object *hb_json_double(double v)
{
	char buf[40];

	if (!isfinite(v))
		return NULL;
	/* json-c prints %.17g, which shows binary noise; find the shortest exact form. */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return json_object_new_double_s(v, buf);
}

json_object *hb_json_count(long v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

const char *hb_json_pretty(json_object *obj)
{
	return json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}
