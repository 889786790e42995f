/* What the renderers need from the report module and nobody else does. */
#ifndef MG_REPORT_INTERNAL_H
#define MG_REPORT_INTERNAL_H

#include "report.h"

/* The document's root object, owned by the report. */
json_object *mg_report_root(const mg_report *r);

/* Checks a parsed document against the schema (report_schema.c), so that a loaded report is as
 * safe to render as a built one. Returns MG_OK, MG_EVERSION (another schema version) or
 * MG_EFORMAT; err then names the file, the JSON path (findings[2].sites[0].line) and what was
 * expected there. */
int mg_report_validate(json_object *root, const char *file, char *err, size_t errlen);

#endif
