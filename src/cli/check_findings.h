/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The detector's findings as report findings (docs/report-schema.md, kinds deadlock,
 * potential_deadlock, collective_mismatch, stuck_on_terminated): ranks, sites with file:line,
 * evidence and the wait-for graph (AND solid, OR dashed, request nodes as parallelograms). */
#ifndef MG_CHECK_FINDINGS_H
#define MG_CHECK_FINDINGS_H

#include "dl_finding.h"
#include "report.h"
#include "site_resolver.h"

/* Adds f to the report with its sites resolved through sites; records_lost > 0 is noted in the
 * evidence (a lost record may make the finding wrong). Returns the report finding, NULL when out
 * of memory. */
report_entry *check_findings_add(report_doc *report, const dl_finding *f,
                                 const site_resolver *sites, uint64_t records_lost);
/* Writes finding `index` of the report anew from f, a finding that grew since it was added (a
 * collective mismatch a later caller joined). Returns it, NULL when out of memory. */
report_entry *check_findings_replace(report_doc *report, size_t index, const dl_finding *f,
                                     const site_resolver *sites, uint64_t records_lost);

#endif
