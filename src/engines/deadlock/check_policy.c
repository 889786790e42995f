/* When `mpiguard check` analyses and when a deadlock is confirmed (check_policy.h). */
#include "check_policy.h"

/* "Every live process blocked" fires once no record came for this long (a short settle, so a
 * rank between two calls is not taken for blocked). */
#define SETTLE_NS 200000000ULL
/* How long an unconfirmed deadlock whose ranks send nothing new is looked at again. */
#define CONFIRM_WAIT_NS 5000000000ULL
/* How long the root waits for the record of a call a rank published (check_policy_view): the
 * stages below release what they hold when asked, so this bounds a lost answer, not the stages'
 * own quiet time. */
#define VIEW_WAIT_NS 3000000000ULL
/* Held records past which an analysis is due once they doubled since the last one. */
#define HELD_TRIGGER 4096

void check_policy_init(check_policy *p, double quiet_time, uint64_t now)
{
    *p = (check_policy){.quiet_ns = (uint64_t)(quiet_time * 1e9), .last_record = now};
}

void check_policy_note_record(check_policy *p, uint64_t now)
{
    p->last_record = now;
}

void check_policy_note_stream_end(check_policy *p)
{
    p->stream_ended = 1;
}

int check_policy_due(const check_policy *p, const deadlock_detector *det, uint64_t now)
{
    if (!det) {
        return 0;
    }
    if (p->stream_ended) {
        return 1;
    }
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(det, &q);
    if (q.mismatch_due && now >= q.mismatch_due) {
        return 1;
    }
    if (q.records == p->records_at_check) {
        return 0;
    }
    uint64_t quiet = now - p->last_record;
    if (quiet >= p->quiet_ns || q.live_processes == 0) {
        return 1;
    }
    if (quiet >= SETTLE_NS && deadlock_detector_is_every_live_process_blocked(det)) {
        return 1;
    }
    return q.held_records >= HELD_TRIGGER && q.held_records >= 2 * p->held_at_check;
}

void check_policy_analysed(check_policy *p, const deadlock_detector *det)
{
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(det, &q);
    p->held_at_check = q.held_records;
    p->records_at_check = q.records;
    p->stream_ended = 0;
}

int check_policy_stops(const dl_finding *f)
{
    return f->kind == DL_FINDING_DEADLOCK || f->kind == DL_FINDING_STUCK_ON_TERMINATED;
}

int check_policy_hangs_after(const dl_finding *f)
{
    return f->kind == DL_FINDING_COLLECTIVE_MISMATCH || f->kind == DL_FINDING_INVALID_ARGUMENTS;
}

/* A rank inside a call whose entry record the root has not had (a stale reading names an older
 * call: not missing). */
static int32_t missing_call(const check_policy_readings *rd)
{
    for (int32_t k = 0; rd->seen && k < rd->world; k++) {
        if (rd->in_call[k] > rd->seen[k]) {
            return k;
        }
    }
    return -1;
}

enum check_policy_view_kind check_policy_view(check_policy *p, const check_policy_readings *rd,
                                              uint64_t now, int32_t *rank)
{
    *rank = missing_call(rd);
    if (*rank < 0) {
        p->behind = p->gave_up = 0;
        return CHECK_POLICY_VIEW_WHOLE;
    }
    if (p->gave_up) {
        return CHECK_POLICY_VIEW_WHOLE;
    }
    if (!p->behind) {
        p->behind = 1;
        p->behind_since = now;
        return CHECK_POLICY_VIEW_ASK;
    }
    if (now - p->behind_since < VIEW_WAIT_NS) {
        return CHECK_POLICY_VIEW_BEHIND;
    }
    p->gave_up = 1;
    return CHECK_POLICY_VIEW_GAVE_UP;
}

static int in_call(const check_policy_readings *rd, int32_t rank)
{
    return rank >= 0 && rank < rd->world && rd->in_call[rank] != 0;
}

static int knot_in_calls(const dl_finding *f, const check_policy_readings *rd)
{
    for (size_t i = 0; i < f->n_calls; i++) {
        if (f->calls[i].in_knot && f->calls[i].state == WAIT_GRAPH_BLOCKED &&
            !in_call(rd, f->calls[i].rank)) {
            return 0;
        }
    }
    return 1;
}

static uint64_t finding_records(const dl_finding *f, const check_policy_readings *rd)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < f->n_calls; i++) {
        if (f->calls[i].rank >= 0 && f->calls[i].rank < rd->world) {
            sum += rd->records[f->calls[i].rank];
        }
    }
    return sum;
}

enum check_policy_confirmation check_policy_confirm(check_policy *p, size_t index,
                                                    const dl_finding *f,
                                                    const check_policy_readings *rd, uint64_t now)
{
    if (knot_in_calls(f, rd)) {
        p->pending = 0;
        return CHECK_POLICY_CONFIRMED;
    }
    uint64_t mark = finding_records(f, rd);
    if (!p->pending || p->pending_index != index) {
        p->pending = 1;
        p->pending_index = index;
        p->pending_mark = mark;
        p->pending_since = now;
        return CHECK_POLICY_UNCONFIRMED;
    }
    if (mark == p->pending_mark && now - p->pending_since < CONFIRM_WAIT_NS) {
        return CHECK_POLICY_UNCONFIRMED;
    }
    p->pending = 0;
    return CHECK_POLICY_DROPPED;
}

int check_policy_stuck(const check_policy *p, int after_errors, const check_policy_readings *rd,
                       uint64_t now)
{
    uint64_t wait = 3 * p->quiet_ns < 3000000000ULL ? 3000000000ULL : 3 * p->quiet_ns;
    if (!after_errors || !rd->world || now - p->last_record < wait) {
        return 0;
    }
    for (int32_t k = 0; k < rd->world; k++) {
        if (!rd->ended[k] && !in_call(rd, k)) {
            return 0;
        }
    }
    return 1;
}
