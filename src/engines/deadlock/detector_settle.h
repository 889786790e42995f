/* Records of model-blocked ranks (paper 5.1): held behind the rank's wait and analysed, in order,
 * once it can go on (detector_settle.c). Internal to the detector; docs/design/check-detector.md
 * §5. */
#ifndef DETECTOR_SETTLE_H
#define DETECTOR_SETTLE_H

#include "detector_state.h"

/* Holds a copy of ev behind its rank's wait. Errors: MG_ERROR_ENOMEM. */
int detector_settle_hold(deadlock_detector *det, const check_event *ev);
/* Applies pending p2p completions and analyses the held records of every rank whose wait was
 * satisfied, until every rank is blocked or idle. */
int detector_settle(deadlock_detector *det);
/* Ends rank as lost when its process was lost in a wait or with records held
 * (DETECTOR_STATE_RANK_LOST_HELD). */
void detector_settle_end_lost(deadlock_detector *det, int32_t rank);
/* Analyses rank's held records in order though the waits they are behind are not satisfied in
 * the model, then ends it as lost (DETECTOR_STATE_RANK_LOST_HELD): the rank ended, and went on from
 * those waits before, but the records that show why never came (its partners' went with their
 * ranks' rings or leaves). Errors: as detector_settle; MG_ERROR_ENOMEM stops it. */
int detector_settle_release(deadlock_detector *det, int32_t rank);

#endif
