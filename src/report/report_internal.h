/* What the renderers need from the report module and nobody else does. */
#ifndef MG_REPORT_INTERNAL_H
#define MG_REPORT_INTERNAL_H

#include "report.h"

/* The document's root object, owned by the report. */
json_object *report_root(const report_doc *r);

/* Checks a parsed document against the schema (report_schema.c), so that a loaded report is as
 * safe to render as a built one. Returns MG_ERROR_OK, MG_ERROR_EVERSION (another schema version) or
 * MG_ERROR_EFORMAT; err then names the file, the JSON path (findings[2].sites[0].line) and what was
 * expected there. */
int report_schema_validate(json_object *root, const char *file, char *err, size_t errlen);

/* The string at key of o, or fallback when o is NULL or the value is missing or not a string. */
const char *report_json_string(json_object *o, const char *key, const char *fallback);
/* Whether a site's line is its procedure's (report_mark_procedure_line); the renderers then
 * say REPORT_INTERNAL_PROCEDURE_LINE after it. */
int report_site_is_procedure_line(json_object *site);
#define REPORT_INTERNAL_PROCEDURE_LINE                                                             \
    "(the procedure's line: the compiler's line table names no call line)"
/* The array at key of o, or NULL. */
json_object *report_render_json_array(json_object *o, const char *key);
/* An array of rank numbers (or NULL) as a rank list, "0-2,5", into buf; "?" when out of memory. */
void report_render_format_ranks(json_object *ranks, char *buf, size_t buflen);

#endif
