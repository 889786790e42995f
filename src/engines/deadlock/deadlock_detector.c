/* The deadlock detector's front: lifecycle, the record feed (records of model-blocked ranks are
 * held, paper 5.1), the work list that analyses them once the rank can go on, and the checks.
 * The model itself: call_model.c, wait_state.c; analysis: wait_analysis.c, wfg_build.c, or_knot.c;
 * wildcards: wildcard_probe.c. Spec: docs/check-detector.md §5-§10. */
#include "detector_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

void dl_params_default(dl_params *p) {
    p->buffered_standard_sends = 0;
    p->inline_or_max = 64;
    p->probing = 1;
    p->probe_budget = 64;
    p->probe_depth = 4;
    p->probe_candidates = 16;
    p->deciding = 1;
    p->decide_backlog = (size_t)1 << 20;
    p->release_rounds = 16;
    p->mismatch_ranks = 64;
}

int deadlock_detector_create(const dl_params *params, int32_t world_size, deadlock_detector **out) {
    if (!out || world_size <= 0) {
        return MG_EINVAL;
    }
    deadlock_detector *det = calloc(1, sizeof *det);
    if (!det) {
        return MG_ENOMEM;
    }
    if (params) {
        det->prm = *params;
    } else {
        dl_params_default(&det->prm);
    }
    det->world = world_size;
    det->live = (size_t)world_size;
    det->free_wait = DL_NONE;
    p2p_match_init(&det->p2p);
    /* A new mismatch finding lists the first call, the agreeing ones and the disagreeing one. */
    coll_match_init(&det->coll, det->prm.mismatch_ranks > 2 ? det->prm.mismatch_ranks - 2 : 0);
    request_table_init(&det->reqs);
    det->ranks = calloc((size_t)world_size, sizeof *det->ranks);
    det->work = malloc((size_t)world_size * sizeof *det->work);
    int rc = det->ranks && det->work ? comm_table_init(&det->comms, world_size) : MG_ENOMEM;
    if (!rc) {
        rc = record_backlog_init(&det->backlog, world_size);
    }
    if (rc) {
        free(det->ranks);
        free(det->work);
        comm_table_free(&det->comms);
        free(det);
        return rc;
    }
    for (int32_t r = 0; r < world_size; r++) {
        det->ranks[r].wait = DL_NONE;
    }
    *out = det;
    return MG_OK;
}

static void free_state(deadlock_detector *det) {
    for (size_t i = 0; i < det->n_waits; i++) {
        free(det->waits[i].items);
    }
    free(det->waits);
    free(det->ranks);
    comm_table_free(&det->comms);
    p2p_match_free(&det->p2p);
    coll_match_free(&det->coll);
    request_table_free(&det->reqs);
    record_backlog_free(&det->backlog);
    free(det->work);
    for (size_t i = 0; i < det->n_findings; i++) {
        dl_finding_free(&det->findings[i]);
    }
    free(det->findings);
    free(det->held);
    free(det->dec_req);
    free(det->dec_st);
    free(det->dec_ranks);
}

void deadlock_detector_destroy(deadlock_detector *det) {
    if (det) {
        free_state(det);
        free(det);
    }
}

int deadlock_detector_clone(const deadlock_detector *src, deadlock_detector **out) {
    deadlock_detector *d = calloc(1, sizeof *d);
    if (!d) {
        return MG_ENOMEM;
    }
    d->prm = src->prm;
    d->world = src->world;
    d->free_wait = src->free_wait;
    d->live = src->live;
    d->blocked = src->blocked;
    d->records = src->records;
    d->last_time = src->last_time;
    d->forced = src->forced;
    d->notes = src->notes;
    d->probe_mark = src->probe_mark;
    d->ranks = malloc((size_t)src->world * sizeof *d->ranks);
    d->work = malloc((size_t)src->world * sizeof *d->work);
    d->waits = src->cap_waits ? calloc(src->cap_waits, sizeof *d->waits) : NULL;
    int rc = !d->ranks || !d->work || (src->cap_waits && !d->waits) ? MG_ENOMEM : MG_OK;
    if (!rc) {
        memcpy(d->ranks, src->ranks, (size_t)src->world * sizeof *d->ranks);
        memcpy(d->work, src->work, (size_t)src->world * sizeof *d->work);
        d->work_head = src->work_head;
        d->n_work = src->n_work;
        d->cap_waits = src->cap_waits;
        for (size_t i = 0; i < src->n_waits && !rc; i++, d->n_waits++) {
            d->waits[i] = src->waits[i];
            d->waits[i].items = NULL;
            if (src->waits[i].n_items) {
                d->waits[i].items = malloc(src->waits[i].n_items * sizeof(dl_item));
                rc = d->waits[i].items ? MG_OK : MG_ENOMEM;
                if (!rc) {
                    memcpy(d->waits[i].items, src->waits[i].items,
                           src->waits[i].n_items * sizeof(dl_item));
                }
            }
        }
    }
    rc = rc ? rc : comm_table_clone(&src->comms, &d->comms);
    rc = rc ? rc : p2p_match_clone(&src->p2p, &d->p2p);
    rc = rc ? rc : coll_match_clone(&src->coll, &d->coll);
    rc = rc ? rc : request_table_clone(&src->reqs, &d->reqs);
    rc = rc ? rc : record_backlog_clone(&src->backlog, &d->backlog);
    if (rc) {
        free_state(d);
        free(d);
        return rc;
    }
    *out = d;
    return MG_OK;
}

/* ---- held records ---- */

/* Bytes of the arrays of ev, laid out after the struct in a held copy (8-byte arrays first, so
 * every array stays aligned). */
static size_t arrays_size(const check_event *ev) {
    return ev->n_requests * sizeof(uint64_t) + ev->n_statuses * sizeof(check_status) +
           ev->n_ranks * sizeof(int32_t);
}

/* Holds a copy of ev behind its rank's wait: the struct and its arrays in one block. Held records
 * never leave the process, so they are kept native rather than encoded (no CRC, no byte order). */
static int hold(deadlock_detector *det, const check_event *ev) {
    size_t len = sizeof *ev + arrays_size(ev);
    if (mg_array_reserve((void **)&det->held, &det->cap_held, len, 1)) {
        return MG_ENOMEM;
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
        memcpy(p, ev->statuses, ev->n_statuses * sizeof(check_status));
        p += ev->n_statuses * sizeof(check_status);
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
static int unpack_held(deadlock_detector *det, const uint8_t *bytes, size_t len, check_event *ev) {
    if (mg_array_reserve((void **)&det->held, &det->cap_held, len, 1)) {
        return MG_ENOMEM;
    }
    memcpy(det->held, bytes, len);
    memcpy(ev, det->held, sizeof *ev);
    const uint8_t *p = det->held + sizeof *ev;
    ev->requests = ev->n_requests ? (const uint64_t *)(const void *)p : NULL;
    p += ev->n_requests * sizeof(uint64_t);
    ev->statuses = ev->n_statuses ? (const check_status *)(const void *)p : NULL;
    p += ev->n_statuses * sizeof(check_status);
    ev->ranks = ev->n_ranks ? (const int32_t *)(const void *)p : NULL;
    return MG_OK;
}

/* Decodes an encoded record into ev, its arrays into the detector's buffers (valid until the next
 * decode). */
static int decode_record(deadlock_detector *det, const uint8_t *bytes, size_t len, check_event *ev,
                         size_t *used) {
    int rc = check_event_decode(bytes, len, ev, used);
    if (rc) {
        return rc;
    }
    if (mg_array_reserve((void **)&det->dec_req, &det->cap_dec_req, ev->n_requests,
                         sizeof(uint64_t)) ||
        mg_array_reserve((void **)&det->dec_st, &det->cap_dec_st, ev->n_statuses,
                         sizeof(check_status)) ||
        mg_array_reserve((void **)&det->dec_ranks, &det->cap_dec_ranks, ev->n_ranks,
                         sizeof(int32_t))) {
        return MG_ENOMEM;
    }
    return check_event_decode_arrays(bytes, ev, det->dec_req, det->dec_st, det->dec_ranks);
}

/* Analyses the held records of a rank the model no longer blocks, in order. When the rank blocks
 * again and the next held record is the exit of that call, the wildcard decisions it reports are
 * applied at once (they were not the current call's when the record arrived). */
static int drain_backlog(deadlock_detector *det, int32_t rank) {
    const uint8_t *bytes;
    size_t len;
    int first = MG_OK;
    while (det->ranks[rank].life == LIFE_LIVE &&
           record_backlog_front(&det->backlog, rank, &bytes, &len)) {
        check_event ev;
        int rc = unpack_held(det, bytes, len, &ev);
        if (rc) {
            return rc;
        }
        if (wait_state_blocked(det, rank)) {
            if (ev.kind != CHECK_EV_EXIT) {
                break;
            }
            rc = call_model_apply_decisions(det, &ev, check_func_describe(ev.func), 1);
            wait_state_wake_completed(det);
            if (rc || wait_state_blocked(det, rank)) {
                return first ? first : rc;
            }
        }
        /* Popped first: unpack copied everything, and the exit being analysed must not count as
         * a record still held behind the rank's wait. */
        record_backlog_pop(&det->backlog, rank);
        rc = call_model_process(det, &ev);
        first = first ? first : rc;
    }
    return first;
}

int deadlock_detector_settle(deadlock_detector *det) {
    int first = MG_OK;
    wait_state_wake_completed(det);
    /* First in, first out: ranks woken together are analysed in the order they were woken
     * (member order for a completed collective), which keeps slot references predictable. */
    int32_t r;
    while (wait_state_next_ready(det, &r)) {
        int rc = drain_backlog(det, r);
        first = first ? first : rc;
        if (rc == MG_ENOMEM) {
            return rc;
        }
    }
    return first;
}

/* ---- the public feed ---- */

static int valid_event(const deadlock_detector *det, const check_event *ev) {
    return ev->rank >= 0 && ev->rank < det->world && check_func_describe(ev->func) &&
           (ev->kind == CHECK_EV_ENTER || ev->kind == CHECK_EV_EXIT) &&
           (!ev->n_requests || ev->requests) && (!ev->n_statuses || ev->statuses) &&
           (!ev->n_ranks || ev->ranks);
}

static dl_call type_call(const p2p_post *p, uint64_t comm) {
    return (dl_call){.rank = p->rank, .func = p->func, .state = WG_RUNNING, .comm = comm,
                     .peer = p->peer, .tag = p->tag, .root = CHECK_NO_ROOT, .callsite = p->callsite};
}

/* The pairs the matcher found disagreeing become findings: the send, then the receive. */
static int report_type_issues(deadlock_detector *det) {
    const p2p_type_issue *issues;
    size_t n;
    p2p_match_drain_type_issues(&det->p2p, &issues, &n);
    int first = MG_OK;
    for (size_t i = 0; i < n; i++) {
        const p2p_type_issue *t = &issues[i];
        uint64_t comm = comm_table_id(&det->comms, t->send.comm);
        dl_finding f = {.kind = t->verdict == TYPE_MATCH_TRUNCATED ? DL_TRUNCATION
                                                                   : DL_TYPE_MISMATCH,
                        .time = det->last_time, .send_elems = t->send.type_elems,
                        .recv_elems = t->recv.type_elems, .probe_rank = -1,
                        .probe_source = -1};
        dl_call send = type_call(&t->send, comm), recv = type_call(&t->recv, comm);
        int rc = dl_finding_add_call(&f, &send);
        rc = rc ? rc : dl_finding_add_call(&f, &recv);
        rc = rc ? (dl_finding_free(&f), rc) : deadlock_detector_push_finding(det, &f);
        first = first ? first : rc;
    }
    return first;
}

int deadlock_detector_feed(deadlock_detector *det, const check_event *ev, uint64_t now) {
    if (!det || !ev || !valid_event(det, ev)) {
        return MG_EINVAL;
    }
    dl_rank *rs = &det->ranks[ev->rank];
    if (ev->seq <= rs->last_seq) {
        return MG_ESTATE;
    }
    rs->last_seq = ev->seq;
    det->records++;
    det->last_time = now;
    if (rs->life != LIFE_LIVE) {
        return MG_OK;
    }
    const check_func_info *info = check_func_describe(ev->func);
    int rc;
    if (info->klass == CHECK_CLASS_ABORT && ev->kind == CHECK_EV_ENTER) {
        call_model_terminate(det, ev->rank, LIFE_ABORTED, ev->func, ev->callsite);
        rc = MG_OK;
    } else if (wait_state_blocked(det, ev->rank) || record_backlog_has(&det->backlog, ev->rank)) {
        int first_held = !record_backlog_has(&det->backlog, ev->rank);
        rc = call_model_apply_decisions(det, ev, info, first_held);
        wait_state_wake_completed(det);
        if (!rc) { /* the exit whose decision unblocked the rank goes straight in */
            rc = first_held && !wait_state_blocked(det, ev->rank) ? call_model_process(det, ev)
                                                                   : hold(det, ev);
        }
    } else {
        rc = call_model_process(det, ev);
    }
    int rc2 = deadlock_detector_settle(det);
    rc = rc ? rc : rc2;
    rc2 = report_type_issues(det);
    rc = rc ? rc : rc2;
    if (!rc && det->prm.deciding && det->backlog.total > det->prm.decide_backlog &&
        det->p2p.undecided) {
        rc = wildcard_probe_decide(det, now);
    }
    return rc;
}

int deadlock_detector_feed_bytes(deadlock_detector *det, const uint8_t *buf, size_t len,
                                 uint64_t now, size_t *consumed) {
    if (!det || !buf || !consumed) {
        return MG_EINVAL;
    }
    check_event ev;
    int rc = decode_record(det, buf, len, &ev, consumed);
    return rc ? rc : deadlock_detector_feed(det, &ev, now);
}

int deadlock_detector_process_lost(deadlock_detector *det, int32_t rank, uint64_t now) {
    if (!det || rank < 0 || rank >= det->world) {
        return MG_EINVAL;
    }
    det->last_time = now;
    call_model_terminate(det, rank, LIFE_LOST, det->ranks[rank].func, det->ranks[rank].callsite);
    return MG_OK;
}

/* ---- findings and checks ---- */

int deadlock_detector_push_finding(deadlock_detector *det, dl_finding *f) {
    if (mg_array_reserve((void **)&det->findings, &det->cap_findings, det->n_findings + 1,
                         sizeof *det->findings)) {
        dl_finding_free(f);
        return MG_ENOMEM;
    }
    det->findings[det->n_findings++] = *f;
    return MG_OK;
}

int deadlock_detector_check_now(deadlock_detector *det, uint64_t now, size_t *n_new) {
    if (!det) {
        return MG_EINVAL;
    }
    size_t before = det->n_findings;
    int found = 0;
    int rc = wait_analysis_run(det, now, 0, &found);
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

int deadlock_detector_is_every_live_process_blocked(const deadlock_detector *det) {
    return det && det->live > 0 && det->blocked == det->live;
}

void deadlock_detector_queue_sizes(const deadlock_detector *det, dl_queue_sizes *out) {
    *out = (dl_queue_sizes){.queued_sends = det->p2p.queued_sends,
                            .pending_recvs = det->p2p.pending_recvs,
                            .undecided = det->p2p.undecided,
                            .held_records = det->backlog.total,
                            .held_bytes = det->backlog.bytes,
                            .live_requests = det->reqs.live,
                            .live_processes = det->live,
                            .blocked_processes = det->blocked,
                            .records = det->records,
                            .last_record_time = det->last_time,
                            .forced_decisions = det->forced};
}

const dl_finding *deadlock_detector_findings(const deadlock_detector *det, size_t *n) {
    *n = det ? det->n_findings : 0;
    return det ? det->findings : NULL;
}
