/* JSON numbers as people want to read them: the shortest decimal that reads back to the
 * same double (12.34, not 12.339999999999999), and null for what is unknown. */
#ifndef HB_RESULTS_JSONFMT_H
#define HB_RESULTS_JSONFMT_H

#include <json-c/json.h>

/* NULL (JSON null) for NAN and infinities. */
json_object *hb_json_double(double v);
/* NULL (JSON null) for negative values, used as "absent" for cores/boot/rep. */
json_object *hb_json_count(long v);
/* Pretty, 2-space-indented text of obj (owned by obj). */
const char *hb_json_pretty(json_object *obj);

#endif
