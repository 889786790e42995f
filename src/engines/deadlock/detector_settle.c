/* Records of model-blocked ranks (paper 5.1): held behind the rank's wait, and analysed in order
 * once the wait is satisfied (detector_settle.h). docs/design/check-detector.md §5. */
#include "detector_settle.h"

#include <string.h>

#include "call_model.h"
#include "lifecycle.h"
#include "mg_array.h"
#include "mg_error.h"
#include "wait_state.h"

/* Bytes of the arrays of ev, laid out after the struct in a held copy (8-byte arrays first, so
 * every array stays aligned). */
static size_t arrays_size(const check_event *ev)
{
    return ev->n_requests * sizeof(uint64_t) + ev->n_statuses * sizeof(check_event_status) +
           ev->n_ranks * sizeof(int32_t);
}

/* Held records never leave the process, so they are kept native rather than encoded (no CRC, no
 * byte order): the struct and its arrays in one block. */
int detector_settle_hold(deadlock_detector *det, const check_event *ev)
{
    size_t len = sizeof *ev + arrays_size(ev);
    if (mg_array_reserve((void **)&det->held, &det->cap_held, len, 1)) {
        return MG_ERROR_ENOMEM;
    }
    check_event copy = *ev;
    copy.requests = NULL;
    copy.statuses = NULL;
    copy.ranks = NULL;
    uint8_t *p = det->held;
    memcpy(p, &copy, sizeof copy);
    p += sizeof copy;
    if (ev->n_requests) {
        memcpy(p, ev->requests, ev->n_requests * sizeof(uint64_t));
        p += ev->n_requests * sizeof(uint64_t);
    }
    if (ev->n_statuses) {
        memcpy(p, ev->statuses, ev->n_statuses * sizeof(check_event_status));
        p += ev->n_statuses * sizeof(check_event_status);
    }
    if (ev->n_ranks) {
        memcpy(p, ev->ranks, ev->n_ranks * sizeof(int32_t));
    }
    int rc = record_backlog_push(&det->backlog, ev->rank, det->held, len);
    if (!rc) {
        call_model_note_held(det, ev);
    }
    return rc;
}

/* Copies a held record into the detector's buffer (valid until the next unpack) and points ev's
 * arrays into it. */
static int unpack_held(deadlock_detector *det, const uint8_t *bytes, size_t len, check_event *ev)
{
    if (mg_array_reserve((void **)&det->held, &det->cap_held, len, 1)) {
        return MG_ERROR_ENOMEM;
    }
    memcpy(det->held, bytes, len);
    memcpy(ev, det->held, sizeof *ev);
    const uint8_t *p = det->held + sizeof *ev;
    ev->requests = ev->n_requests ? (const uint64_t *)(const void *)p : NULL;
    p += ev->n_requests * sizeof(uint64_t);
    ev->statuses = ev->n_statuses ? (const check_event_status *)(const void *)p : NULL;
    p += ev->n_statuses * sizeof(check_event_status);
    ev->ranks = ev->n_ranks ? (const int32_t *)(const void *)p : NULL;
    return MG_ERROR_OK;
}

/* Analyses the held records of a rank the model no longer blocks, in order. When the rank blocks
 * again and the next held record is the exit of that call, the wildcard decisions it reports are
 * applied at once (they were not the current call's when the record arrived); an exit of a call
 * that ends the wait whatever the model says (a refused call's, a lock's grant) is analysed. */
static int drain_backlog(deadlock_detector *det, int32_t rank)
{
    const uint8_t *bytes;
    size_t len;
    int first = MG_ERROR_OK;
    while (record_backlog_front(&det->backlog, rank, &bytes, &len)) {
        check_event ev;
        int rc = unpack_held(det, bytes, len, &ev);
        if (rc) {
            return rc;
        }
        if (det->ranks[rank].life != DETECTOR_STATE_LIFE_LIVE &&
            !lifecycle_call_too_late(det, &ev)) {
            break;
        }
        /* an error MPI raised, or an abort, goes in even behind a blocked call: it belongs to
         * that call */
        if (wait_state_blocked(det, rank) && !call_model_in_current_call(&ev)) {
            if (ev.kind != CHECK_EVENT_EV_EXIT) {
                break;
            }
            rc = call_model_apply_decisions(det, &ev, check_event_func_describe(ev.func), 1);
            wait_state_wake_completed(det);
            if (rc || (wait_state_blocked(det, rank) && !call_model_exit_ends_wait(&ev))) {
                return first ? first : rc;
            }
        }
        /* Popped first: unpack copied everything, and the exit being analysed must not count as
         * a record still held behind the rank's wait. */
        record_backlog_pop(&det->backlog, rank);
        rc = call_model_process(det, &ev);
        first = first ? first : rc;
    }
    if (!record_backlog_has(&det->backlog, rank)) {
        detector_settle_end_lost(det, rank);
    }
    return first;
}

int detector_settle_release(deadlock_detector *det, int32_t rank)
{
    int first = MG_ERROR_OK;
    /* each pass goes past one wait; a rank that ended (its MPI_Abort) takes no more records */
    while (record_backlog_has(&det->backlog, rank) &&
           det->ranks[rank].life == DETECTOR_STATE_LIFE_LIVE) {
        wait_state_satisfy(det, rank);
        int rc = drain_backlog(det, rank);
        first = first ? first : rc;
        if (rc == MG_ERROR_ENOMEM) {
            return rc;
        }
    }
    detector_settle_end_lost(det, rank);
    return first;
}

void detector_settle_end_lost(deadlock_detector *det, int32_t rank)
{
    detector_state_rank *rs = &det->ranks[rank];
    if (rs->flags & DETECTOR_STATE_RANK_LOST_HELD) {
        rs->flags &= (uint8_t)~DETECTOR_STATE_RANK_LOST_HELD;
        call_model_terminate(det, rank, DETECTOR_STATE_LIFE_LOST, rs->func, rs->callsite);
    }
}

int detector_settle(deadlock_detector *det)
{
    int first = MG_ERROR_OK;
    wait_state_wake_completed(det);
    /* First in, first out: ranks woken together are analysed in the order they were woken
     * (member order for a completed collective), which keeps slot references predictable. */
    int32_t r;
    while (wait_state_next_ready(det, &r)) {
        int rc = drain_backlog(det, r);
        first = first ? first : rc;
        if (rc == MG_ERROR_ENOMEM) {
            return rc;
        }
    }
    return first;
}
