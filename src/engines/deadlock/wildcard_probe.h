/* Probing and deciding undecided wildcard receives (wildcard_probe.c, paper §6). Internal to
 * the detector; docs/design/check-detector.md §10. */
#ifndef WILDCARD_PROBE_H
#define WILDCARD_PROBE_H

#include "detector_state.h"

/* Explores decisions of undecided wildcards on copies (budgeted); the findings of the first
 * decision that deadlocks are copied into det with DL_FINDING_NOTE_PROBED. *found tells whether one
 * did. */
int wildcard_probe_run(deadlock_detector *det, uint64_t now, int *found);
/* Probes, then forces every undecided wildcard to its first candidate (deciding mode). */
int wildcard_probe_decide(deadlock_detector *det, uint64_t now);

#endif
