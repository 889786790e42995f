/* The blocking call each rank is in and what satisfies it (wait_state.c). Internal to the
 * detector; docs/design/check-detector.md §5. */
#ifndef WAIT_STATE_H
#define WAIT_STATE_H

#include "detector_state.h"

/* 1 when the model has rank blocked: in a wait not satisfied yet. */
int wait_state_blocked(const deadlock_detector *det, int32_t rank);
/* A new wait for the call of ev (any: satisfied by one item); *out gets its index. */
int wait_state_new(deadlock_detector *det, const check_event *ev, int any, uint32_t *out);
/* Appends an item; a pending p2p item points its op back at the wait. Errors: MG_ERROR_ENOMEM. */
int wait_state_add(deadlock_detector *det, uint32_t wi, const detector_state_item *item);
/* Counts rank's wait satisfied whatever its items say (no-op when the rank is not blocked): the
 * rank ended, or went on from it though the records that show why never came. */
void wait_state_satisfy(deadlock_detector *det, int32_t rank);
/* Makes wi the rank's wait, counted blocked unless already satisfied. */
void wait_state_commit(deadlock_detector *det, uint32_t wi);
/* Drops wait wi; releases the ops the blocking call posted itself. */
void wait_state_free(deadlock_detector *det, uint32_t wi);
/* Marks an item complete; a wait that becomes satisfied puts its rank on the work list. */
void wait_state_item_done(deadlock_detector *det, uint32_t wi, uint32_t item);
/* An item's op was given back unmatched (p2p_match_withdraw): the live rank's wait that it had
 * satisfied blocks again. */
void wait_state_item_undone(deadlock_detector *det, uint32_t wi, uint32_t item);
/* Completes the items of the p2p ops matched or cancelled since the last call. */
void wait_state_wake_completed(deadlock_detector *det);
/* Completes the collective items of comm's members whose slot completed, and undoes those whose
 * slot was opened again. */
void wait_state_wake_collective(deadlock_detector *det, uint32_t comm);
/* A send was queued: completes a probe of its destination that it satisfies. */
void wait_state_wake_probe(deadlock_detector *det, const p2p_match_post *send);
/* Takes the next rank of the work list: 1 and *rank, or 0 when empty. */
int wait_state_next_ready(deadlock_detector *det, int32_t *rank);

#endif
