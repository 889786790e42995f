/* What the renderers need from the report module and nobody else does. */
#ifndef MG_REPORT_INTERNAL_H
#define MG_REPORT_INTERNAL_H

#include "report.h"

/* The document's root object, owned by the report. */
json_object *mg_report_root(const mg_report *r);

#endif
