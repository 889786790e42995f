/* What `mpiguard concolic` tells the user: a reproducer and a report finding (kind
 * "concolic_bug") per distinct bug, and the final coverage report per function and file with the
 * uncovered branches' lines (docs/design/concolic.md "Output"). */
#ifndef CONCOLIC_REPORT_H
#define CONCOLIC_REPORT_H

#include "concolic_campaign.h"
#include "concolic_launch.h"
#include "concolic_loop.h"
#include "report.h"

#include <stdio.h>

/* When r is a bug not seen before in the campaign: records it, writes DIR/bugs/bug-N.txt (inputs,
 * np, focus, exact command, outcome), adds a finding to rep (may be NULL) and prints its banner.
 * Returns 1 for a new bug, else 0. */
int concolic_report_bug(concolic_campaign *c, const concolic_launch_result *r,
                        const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                        uint64_t iteration, report_doc *rep);

/* Appends the run's line to DIR/runs.tsv (written with a header line when new): iteration, np,
 * focus, outcome, arms covered so far, the job's seconds and its launch/run/teardown split ("-"
 * when unknown), the seconds spent choosing the next inputs, then the inputs the run used. */
void concolic_report_run(const concolic_campaign *c, const concolic_launch_result *r,
                         const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                         double solve_s);

/* Starts DIR/runs.tsv anew: a new campaign in a directory that held one. */
void concolic_report_runs_restart(const concolic_campaign *c);

/* Covered arms of the campaign among the table's 2 * nbranches. */
size_t concolic_report_covered(const concolic_campaign *c);

/* The coverage report: totals, per file, per function, then every uncovered arm with its line. */
void concolic_report_coverage(const concolic_campaign *c, FILE *out);
/* Adds the coverage per function and per file to the JSON report's tool data:
 * "coverage_by_function": [{"function", "arms_covered", "arms_total"}...], "coverage_by_file"
 * likewise with "file". */
void concolic_report_coverage_json(const concolic_campaign *c, json_object *data);

/* The cost line of the final report: the split averages over the runs that have one; total_s:
 * the session's seconds. */
void concolic_report_cost(const concolic_loop_cost *k, double total_s, FILE *out);
/* The JSON report's tool data: iterations, arms covered and in all, the cost per run, the
 * coverage per function and file. */
void concolic_report_data(report_doc *rep, const concolic_campaign *c, const concolic_loop_cost *k);

#endif
