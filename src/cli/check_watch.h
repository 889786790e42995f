/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The watch of `mpiguard check` (check_watch.c): drains the ranks' records into the deadlock
 * detector, runs the wait-for analysis when the engine's check_policy says so, acts on a deadlock
 * it confirms, and stops the job on it or when the job hangs after reported errors. */
#ifndef MG_CHECK_WATCH_H
#define MG_CHECK_WATCH_H

#include "check_run.h"

/* Watches the job of r until it ends, a deadlock is confirmed, it hangs after reported errors, or
 * a rank turns out not observed (observe_ranks.h), reporting the findings as they come
 * (check_report.h) and each rank's observation (r->observed, r->blind). Returns the finding
 * status: MG_EXIT_DEADLOCK, MG_EXIT_FINDINGS (stopped after a mismatch), MG_EXIT_SOFTWARE (stopped
 * after the analysis failed), MG_EXIT_UNOBSERVED (stopped on a rank not observed) or 0. */
int check_watch(check_run *r);

#endif
