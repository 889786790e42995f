/* The AND⊕OR wait-for graph built from the wait states (wfg_build.c). Internal to the detector;
 * docs/design/check-detector.md §7. */
#ifndef WFG_BUILD_H
#define WFG_BUILD_H

#include "detector_state.h"

/* The wait-for graph of the current state (finished; processes are nodes 0..P-1).
 * Errors: MG_ERROR_ENOMEM (g left empty). */
int wfg_build(deadlock_detector *det, wait_graph *g);

#endif
