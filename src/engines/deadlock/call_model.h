/* What each MPI call does to the detector's model (call_model.c). Internal to the detector;
 * docs/design/check-detector.md §5. */
#ifndef CALL_MODEL_H
#define CALL_MODEL_H

#include "detector_state.h"

/* Applies one record (in the rank's order) to the model. Errors: as deadlock_detector_feed. */
int call_model_process(deadlock_detector *det, const check_event *ev);
/* 1 when ev belongs to the call its rank is in, even a blocked one: an error MPI raised in it, or
 * MPI_Abort (a program's error handler calls it there, as the capture module's does). */
int call_model_in_current_call(const check_event *ev);
/* Applies the wildcard decisions of an exit record (see call_model.c). */
int call_model_apply_decisions(deadlock_detector *det, const check_event *ev,
                               const check_event_func_info *info, int current);
/* 1 when ev is the exit of a call MPI refused (CHECK_EVENT_FLAG_REFUSED): it ends the rank's wait
 * whatever the model says, so it is analysed at once rather than held behind that wait. */
int call_model_refused_exit(const check_event *ev);
/* 1 when ev is an exit that ends the rank's wait whatever the model says: a refused call's, or
 * the grant of Win_lock or Win_lock_all (rma_locks.h). */
int call_model_exit_ends_wait(const check_event *ev);
/* A record was held behind its rank's wait: a Start notes it in the requests it restarts, so the
 * decisions of held completions are not applied to their earlier incarnation. */
void call_model_note_held(deadlock_detector *det, const check_event *ev);
/* The rank finalized, aborted or vanished: it is no longer live nor blocked. */
void call_model_terminate(deadlock_detector *det, int32_t rank, uint8_t life, uint16_t func,
                          uint64_t callsite);

#endif
