/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* Which of the detector's findings `mpiguard check` writes to its report, and how (check_report.c):
 * each finding once, those the detector changes later rewritten (check_report_refresh), the report
 * saved (with an SVG of the graph next to it) after each batch, and the run's figures at the end.
 * The findings' own form is check_findings.h. */
#ifndef MG_CHECK_REPORT_H
#define MG_CHECK_REPORT_H

#include <stddef.h>

#include "check_run.h"
#include "dl_finding.h"

/* Rewrites the reported findings of fs (the detector's findings) that changed since: collective
 * mismatches later callers joined, invalid calls MPI then ended their rank inside. Returns how
 * many were rewritten. */
size_t check_report_refresh(check_run *r, const dl_finding *fs);
/* Adds finding `index` of the detector, f, to the report and prints its banner; a collective
 * mismatch or an invalid call is kept for check_report_refresh. Returns 0, adding nothing, when
 * --checks did not select its class (counted in r->left_out) or when an identical finding was
 * reported already (the detector may find a potential deadlock again in a later analysis once the
 * buffered sends were released), else 1 (also when out of memory: then it is missing). */
int check_report_add(check_run *r, size_t index, const dl_finding *f);
/* Saves the report, and renders its graph next to it as SVG when Graphviz's dot is installed. */
void check_report_save(check_run *r);
/* Adds the run's figures (ranks captured, records, losses, options) to the report's tool data;
 * warns when records were lost. */
void check_report_tool_data(check_run *r);

#endif
