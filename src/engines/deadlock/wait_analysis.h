/* The wait-for analysis of the current state (wait_analysis.c). Internal to the detector;
 * docs/design/check-detector.md §8. */
#ifndef WAIT_ANALYSIS_H
#define WAIT_ANALYSIS_H

#include "detector_state.h"

/* Analyses the current state: potential deadlocks (whose buffered sends are then released) and
 * deadlocks become findings carrying `notes`; *found_deadlock tells whether a deadlocked process
 * exists (reported now or by an earlier check). Errors: MG_ERROR_ENOMEM. */
int wait_analysis_run(deadlock_detector *det, uint64_t now, uint32_t notes, int *found_deadlock);

#endif
