/* Conflicting one-sided accesses (issue 28 item 5): two accesses to overlapping bytes of one
 * target's window within one epoch, at least one of them writing (a Put, or atomics with different
 * ops or basic types), are an error (MPI 3.1 §11.7.1): the result is undefined. Accumulates,
 * Get_accumulates, Fetch_and_ops and Compare_and_swaps with the same op and basic type on the same
 * bytes are atomic and legal, as are two reads, and accesses in different epochs.
 *
 * "One epoch": an origin's accesses between two of its synchronization calls on the window
 * (whatever the kind); every origin's accesses between the same two fences (a fence is
 * collective, and the detector holds a rank's records behind a fence until every member reached
 * it, so the accesses of fence epoch k are all analysed before any of epoch k + 1); and the
 * accesses of every origin to one target in the access epochs that one Win_post of that target
 * exposed (the model holds an origin's accesses behind its Win_start until the post is analysed,
 * and the target's next post behind the Win_wait until every origin completed); and accesses of
 * two origins under shared locks or Lock_all (exclusive locks serialize their epochs) that
 * nothing orders: the earlier one not yet completed at the target by its origin's Win_flush,
 * Win_flush_all, Win_unlock or Win_unlock_all (Win_flush_local and Win_sync complete nothing
 * there), or completed but the later one's origin not having heard of that origin since (a
 * message it received from it, a collective both completed: message_race.h's knowledge). With no
 * such knowledge (past MESSAGE_RACE_MAX_WORLD ranks) they are not compared, nor are a rank's
 * once a Test or Iprobe of it found something or records of it did not reach the detector (what
 * ordered them may be unknown). An access of an
 * origin completed by its own flush is no longer compared with its later ones either.
 *
 * Records (check_event.h): a window constructor's entry carries the caller's disp_unit in count;
 * an access carries the target in peer, its displacement (the target's units) in aux, the bytes
 * its target datatype spans from its true lower bound in count, that lower bound in tag2, and the
 * op of an atomic access in op, with its target signature (type_period and
 * CHECK_EVENT_FLAG_TYPE_UNIFORM when the type is made of one basic type). The state lives in the
 * detector; a probing copy has none. A flush record carries its target in peer. Design:
 * docs/design/check-classes.md "One-sided communication". */
#ifndef RMA_CONFLICTS_H
#define RMA_CONFLICTS_H

#include <stdint.h>

#include "check_event.h"

typedef struct deadlock_detector deadlock_detector;
typedef struct rma_conflicts rma_conflicts;

/* A new state for world ranks, or NULL when memory is short (accesses are then not compared). */
rma_conflicts *rma_conflicts_create(int32_t world);
void rma_conflicts_destroy(rma_conflicts *rc);

/* Applies one record (after the model did): a window constructor's entry and exit, a
 * synchronization call, a flush, an access (a DL_FINDING_INVALID_ARGUMENTS finding of
 * USAGE_ARGS_RMA_CONFLICT naming both calls when it conflicts with an earlier one), Win_free's
 * exit. Other records are ignored. Errors: MG_ERROR_ENOMEM (a finding or an access lost). */
int rma_conflicts_record(deadlock_detector *det, const check_event *ev);

#endif
