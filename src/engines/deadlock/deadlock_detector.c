/* The deadlock detector's front: lifecycle, the record feed (records of model-blocked ranks are
 * held, paper 5.1: detector_settle.c), and the checks. Below it, each part uses only the parts
 * under it: wildcard_probe.c; wait_analysis.c, wfg_build.c, or_knot.c (analysis);
 * detector_settle.c; call_model.c, wait_state.c (the model); detector_state.c (state, findings).
 * Spec: docs/design/check-detector.md §5-§10. */
#include "deadlock_detector.h"

#include "call_model.h"
#include "coll_findings.h"
#include "detector_settle.h"
#include "detector_state.h"
#include "lifecycle.h"
#include "message_race.h"
#include "mg_array.h"
#include "mg_error.h"
#include "rma_conflicts.h"
#include "wait_analysis.h"
#include "wait_state.h"
#include "wildcard_probe.h"

int deadlock_detector_create(const dl_params *params, int32_t world_size, deadlock_detector **out)
{
    if (!out || world_size <= 0) {
        return MG_ERROR_EINVAL;
    }
    dl_params defaults;
    if (!params) {
        dl_params_default(&defaults);
        params = &defaults;
    }
    int rc = detector_state_create(params, world_size, out);
    if (rc) {
        return rc;
    }
    /* The parts that push findings into the state sit above it, so the front attaches them; each
     * may be missing (out of memory, or past the race check's world limit). */
    deadlock_detector *det = *out;
    det->life = lifecycle_create();
    det->races = message_race_create(world_size);
    det->rma = rma_conflicts_create(world_size);
    det->p2p.log_pairings = det->races != NULL;
    return MG_ERROR_OK;
}

void deadlock_detector_destroy(deadlock_detector *det)
{
    if (det) {
        lifecycle_destroy(det->life);
        message_race_destroy(det->races);
        rma_conflicts_destroy(det->rma);
    }
    detector_state_destroy(det);
}

/* Decodes an encoded record into ev, its arrays into the detector's buffers (valid until the next
 * decode). */
static int decode_record(deadlock_detector *det, const uint8_t *bytes, size_t len, check_event *ev,
                         size_t *used)
{
    int rc = check_event_decode(bytes, len, ev, used);
    if (rc) {
        return rc;
    }
    if (mg_array_reserve((void **)&det->dec_req, &det->cap_dec_req, ev->n_requests,
                         sizeof(uint64_t)) ||
        mg_array_reserve((void **)&det->dec_st, &det->cap_dec_st, ev->n_statuses,
                         sizeof(check_event_status)) ||
        mg_array_reserve((void **)&det->dec_ranks, &det->cap_dec_ranks, ev->n_ranks,
                         sizeof(int32_t))) {
        return MG_ERROR_ENOMEM;
    }
    return check_event_decode_arrays(bytes, ev, det->dec_req, det->dec_st, det->dec_ranks);
}

/* ---- the public feed ---- */

static int valid_event(const deadlock_detector *det, const check_event *ev)
{
    return ev->rank >= 0 && ev->rank < det->world && check_event_func_describe(ev->func) &&
           (ev->kind == CHECK_EVENT_EV_ENTER || ev->kind == CHECK_EVENT_EV_EXIT) &&
           (!ev->n_requests || ev->requests) && (!ev->n_statuses || ev->statuses) &&
           (!ev->n_ranks || ev->ranks);
}

/* Whether MPI can no longer refuse the call that posted p (which would void its pair's type
 * issue, p2p_match_withdraw): its exit was analysed, the rank went on or ended, or the call is
 * blocked waiting, which a refusal does not follow in practice. */
static int refusal_past(const deadlock_detector *det, const p2p_match_post *p)
{
    const detector_state_rank *rs = &det->ranks[p->rank];
    return rs->life != DETECTOR_STATE_LIFE_LIVE || !(rs->flags & DETECTOR_STATE_RANK_IN_CALL) ||
           rs->call_seq != p->seq || wait_state_blocked(det, p->rank);
}

/* The pairs the matcher found disagreeing become findings (the send, then the receive) once
 * neither call can be refused any more; the others stay listed. */
static int report_type_issues(deadlock_detector *det)
{
    p2p_match *pm = &det->p2p;
    size_t kept = 0;
    int first = MG_ERROR_OK;
    for (size_t i = 0; i < pm->n_type_issues; i++) {
        const p2p_match_type_issue *t = &pm->type_issues[i];
        if (!refusal_past(det, &t->send) || !refusal_past(det, &t->recv)) {
            pm->type_issues[kept++] = *t;
            continue;
        }
        uint64_t comm = comm_table_id(&det->comms, t->send.comm);
        dl_finding f = {.kind = t->verdict == TYPE_MATCH_TRUNCATED ? DL_FINDING_TRUNCATION
                                                                   : DL_FINDING_TYPE_MISMATCH,
                        .time = det->last_time,
                        .send_elems = t->send.type_elems,
                        .recv_elems = t->recv.type_elems,
                        .probe_rank = -1,
                        .probe_source = -1};
        dl_finding_call send = detector_state_post_call(&t->send, comm),
                        recv = detector_state_post_call(&t->recv, comm);
        int rc = dl_finding_add_call(&f, &send);
        rc = rc ? rc : dl_finding_add_call(&f, &recv);
        rc = rc ? (dl_finding_free(&f), rc) : detector_state_push_finding(det, &f);
        first = first ? first : rc;
    }
    pm->n_type_issues = kept;
    return first;
}

int deadlock_detector_feed(deadlock_detector *det, const check_event *ev, uint64_t now)
{
    if (!det || !ev || !valid_event(det, ev)) {
        return MG_ERROR_EINVAL;
    }
    detector_state_rank *rs = &det->ranks[ev->rank];
    if (ev->seq <= rs->last_seq) {
        return MG_ERROR_ESTATE;
    }
    rs->last_seq = ev->seq;
    det->records++;
    det->last_time = now;
    if (rs->life != DETECTOR_STATE_LIFE_LIVE) {
        return lifecycle_call_too_late(det, ev) ? call_model_process(det, ev) : MG_ERROR_OK;
    }
    const check_event_func_info *info = check_event_func_describe(ev->func);
    int rc;
    if (call_model_in_current_call(ev) && !record_backlog_has(&det->backlog, ev->rank)) {
        /* raised in (an abort: called from) the call the rank is in, even a blocked one: the job
         * ends next. With records held behind its wait, the rank went on: the record is its last
         * held call's, and waits behind it (a tree's root may have a rank's later calls before
         * its partners' earlier ones, and only in order is an error or an abort folded into an
         * invalid call's finding). */
        rc = call_model_process(det, ev);
    } else if (wait_state_blocked(det, ev->rank) || record_backlog_has(&det->backlog, ev->rank)) {
        int first_held = !record_backlog_has(&det->backlog, ev->rank);
        rc = call_model_apply_decisions(det, ev, info, first_held);
        wait_state_wake_completed(det);
        /* the exit whose decision unblocked the rank, or that ends its wait, goes straight in */
        if (!rc) {
            rc = first_held && (!wait_state_blocked(det, ev->rank) || call_model_exit_ends_wait(ev))
                     ? call_model_process(det, ev)
                     : detector_settle_hold(det, ev);
        }
        /* held behind records, an error MPI raised or an abort still ends the rank: if what its
         * partners wrote never comes, the next analysis lets them out (release_lost) */
        if (!rc && call_model_in_current_call(ev) && record_backlog_has(&det->backlog, ev->rank)) {
            rs->flags |= DETECTOR_STATE_RANK_LOST_HELD;
        }
    } else {
        rc = call_model_process(det, ev);
    }
    int rc2 = detector_settle(det);
    rc = rc ? rc : rc2;
    rc2 = report_type_issues(det);
    rc = rc ? rc : rc2;
    rc2 = coll_findings_release(det, 0, now);
    rc = rc ? rc : rc2;
    rc2 = message_race_sync(det);
    rc = rc ? rc : rc2;
    if (!rc && det->prm.deciding && det->backlog.total > det->prm.decide_backlog &&
        det->p2p.undecided) {
        rc = wildcard_probe_decide(det, now);
    }
    return rc;
}

int deadlock_detector_feed_summary(deadlock_detector *det, const check_event *ev,
                                   const int32_t *ranks, int32_t n, uint64_t now)
{
    if (!det || !ev || !ranks || n <= 0) {
        return MG_ERROR_EINVAL;
    }
    for (int32_t i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= det->world) {
            return MG_ERROR_EINVAL;
        }
    }
    check_event one = *ev;
    int rc = MG_ERROR_OK;
    for (int32_t i = 0; !rc && i < n; i++) {
        one.rank = ranks[i];
        one.kind = CHECK_EVENT_EV_ENTER;
        one.seq = det->ranks[one.rank].last_seq + 1;
        rc = deadlock_detector_feed(det, &one, now);
        one.kind = CHECK_EVENT_EV_EXIT;
        one.seq++;
        rc = rc ? rc : deadlock_detector_feed(det, &one, now);
    }
    return rc;
}

int deadlock_detector_feed_bytes(deadlock_detector *det, const uint8_t *buf, size_t len,
                                 uint64_t now, size_t *consumed)
{
    if (!det || !buf || !consumed) {
        return MG_ERROR_EINVAL;
    }
    check_event ev;
    int rc = decode_record(det, buf, len, &ev, consumed);
    return rc ? rc : deadlock_detector_feed(det, &ev, now);
}

int deadlock_detector_process_lost(deadlock_detector *det, int32_t rank, uint64_t now)
{
    if (!det || rank < 0 || rank >= det->world) {
        return MG_ERROR_EINVAL;
    }
    det->last_time = now;
    /* A partner's records not read yet hold the rank's later ones (a collective it entered
     * first): they were written before the rank ended, so they are analysed before it ends. A
     * rank ended while it waits (MPICH's launcher kills the job once a rank exits without
     * Finalize) was stuck in that wait, unless records its partners wrote before its end, not
     * read yet, end the wait: it stays in it until they are in or the next analysis, which sees
     * it there first (the caller gates it on a whole view, as a tree of detectors' root does). */
    if (record_backlog_has(&det->backlog, rank) || wait_state_blocked(det, rank)) {
        det->ranks[rank].flags |= DETECTOR_STATE_RANK_LOST_HELD;
        return MG_ERROR_OK;
    }
    call_model_terminate(det, rank, DETECTOR_STATE_LIFE_LOST, det->ranks[rank].func,
                         det->ranks[rank].callsite);
    return MG_ERROR_OK;
}

/* ---- findings and checks ---- */

/* Ranks lost (DETECTOR_STATE_RANK_LOST_HELD) inside their wait with no records held behind it:
 * ended when `end`. Returns how many. */
static int lost_in_wait(deadlock_detector *det, int end)
{
    int n = 0;
    for (int32_t r = 0; r < det->world; r++) {
        if ((det->ranks[r].flags & DETECTOR_STATE_RANK_LOST_HELD) &&
            !record_backlog_has(&det->backlog, r)) {
            n++;
            if (end) {
                detector_settle_end_lost(det, r);
            }
        }
    }
    return n;
}

/* What would let a lost rank's held records out is not coming (the caller analyses at a whole
 * view): they are analysed as if it had come, so the rank's last calls (an invalid one, the
 * error MPI raised, its MPI_Abort) are reported, then it ends. Errors: MG_ERROR_ENOMEM. */
static int release_lost(deadlock_detector *det)
{
    for (int32_t r = 0; r < det->world; r++) {
        if ((det->ranks[r].flags & DETECTOR_STATE_RANK_LOST_HELD) &&
            record_backlog_has(&det->backlog, r) &&
            detector_settle_release(det, r) == MG_ERROR_ENOMEM) {
            return MG_ERROR_ENOMEM;
        }
    }
    return MG_ERROR_OK;
}

int deadlock_detector_check_now(deadlock_detector *det, uint64_t now, size_t *n_new)
{
    if (!det) {
        return MG_ERROR_EINVAL;
    }
    size_t before = det->n_findings;
    int found = 0, rc = release_lost(det);
    /* the type issues of calls that ended with their ranks, or wait in this analysis, and every
     * collective mismatch held */
    int rc2 = report_type_issues(det);
    rc = rc ? rc : rc2;
    rc2 = coll_findings_release(det, 1, now);
    rc = rc ? rc : rc2;
    if (!rc && lost_in_wait(det, 0)) {
        /* the ranks lost inside their wait: analysed in it once, then as ended */
        rc = wait_analysis_run(det, now, 0, &found);
        lost_in_wait(det, 1);
    }
    int again = 0;
    rc = rc ? rc : wait_analysis_run(det, now, 0, &again);
    found |= again;
    if (!rc && !found && det->prm.probing && det->p2p.undecided &&
        det->probe_mark != det->records) {
        det->probe_mark = det->records;
        rc = wildcard_probe_run(det, now, &found);
    }
    if (n_new) {
        *n_new = det->n_findings - before;
    }
    return rc;
}

int deadlock_detector_end(deadlock_detector *det)
{
    return det ? coll_findings_release(det, 1, UINT64_MAX) : MG_ERROR_EINVAL;
}

int deadlock_detector_is_every_live_process_blocked(const deadlock_detector *det)
{
    return det && det->live > 0 && det->blocked == det->live;
}

int deadlock_detector_rank_in_call(const deadlock_detector *det, int32_t rank)
{
    return det && rank >= 0 && rank < det->world &&
           (det->ranks[rank].flags & DETECTOR_STATE_RANK_IN_CALL);
}

size_t deadlock_detector_unmodelled(const deadlock_detector *det, mpi_function_ids_fn *out,
                                    size_t cap)
{
    size_t n = 0;
    for (unsigned fn = MG_FN_NONE + 1; det && fn < MG_FN_COUNT; fn++)
        if (det->unmodelled[fn] && n < cap)
            out[n++] = (mpi_function_ids_fn)fn;
    return n;
}

void deadlock_detector_queue_sizes(const deadlock_detector *det, deadlock_detector_queues *out)
{
    *out = (deadlock_detector_queues){.queued_sends = det->p2p.queued_sends,
                                      .pending_recvs = det->p2p.pending_recvs,
                                      .undecided = det->p2p.undecided,
                                      .held_records = det->backlog.total,
                                      .held_bytes = det->backlog.bytes,
                                      .live_requests = det->reqs.live,
                                      .live_processes = det->live,
                                      .blocked_processes = det->blocked,
                                      .records = det->records,
                                      .last_record_time = det->last_time,
                                      .forced_decisions = det->forced,
                                      .mismatch_due = coll_findings_due(det)};
}

const dl_finding *deadlock_detector_findings(const deadlock_detector *det, size_t *n)
{
    *n = det ? det->n_findings : 0;
    return det ? det->findings : NULL;
}
