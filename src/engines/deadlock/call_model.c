/* What each MPI call does to the detector's model: entries post operations, open collective slots,
 * create and complete requests, and make waits; exits apply the wildcard decisions MPI reported
 * and free what completed. docs/design/check-detector.md §5. */
#include "call_model.h"

#include <stdlib.h>
#include <string.h>

#include "coll_findings.h"
#include "lifecycle.h"
#include "mg_array.h"
#include "message_race.h"
#include "mg_error.h"
#include "rma_conflicts.h"
#include "rma_locks.h"
#include "rma_waits.h"
#include "wait_state.h"

/* ---- entries ---- */

static int comm_of(deadlock_detector *det, const check_event *ev, uint32_t *comm)
{
    return comm_table_lookup(&det->comms, ev->comm, comm);
}

static int send_buffered(const deadlock_detector *det, uint8_t mode)
{
    return mode == CHECK_EVENT_MODE_BUFFERED ||
           (det->prm.buffered_standard_sends &&
            (mode == CHECK_EVENT_MODE_STANDARD || mode == CHECK_EVENT_MODE_READY));
}

static void post_of(const check_event *ev, uint32_t comm, int32_t peer, int32_t tag, uint8_t mode,
                    uint64_t request, p2p_match_post *p)
{
    *p = (p2p_match_post){ev->rank,
                          peer,
                          tag,
                          comm,
                          ev->func,
                          mode,
                          ev->seq,
                          ev->callsite,
                          request,
                          ev->count,
                          ev->type_hash,
                          ev->type_elems,
                          ev->type_period,
                          !!(ev->flags & CHECK_EVENT_FLAG_TYPE_UNIFORM),
                          0};
}

/* Posts a send; *item gets what waiting for its completion means (done when buffered). Its op,
 * even a buffered one, stays referred to until the exit of the call that posted it, which may say
 * MPI refused the call (then the receive it matched is given back): through the call's wait, or
 * its request (requests_exit). */
static int post_send(deadlock_detector *det, p2p_match_post *p, detector_state_item *item)
{
    *item = (detector_state_item){
        .type = DETECTOR_STATE_ITEM_P2P, .done = 1, .ref = P2P_MATCH_NONE, .request = p->request};
    if (p->peer == CHECK_EVENT_PROC_NULL) {
        return MG_ERROR_OK;
    }
    if (p->peer < 0 || p->peer >= det->world) {
        return MG_ERROR_EINVAL;
    }
    uint32_t op;
    int rc = message_race_send_posted(det, p->rank, p->seq, p->peer, &p->dest_seen);
    rc = rc ? rc : p2p_match_post_send(&det->p2p, p, &op);
    if (rc) {
        return rc;
    }
    item->ref = op;
    item->done = send_buffered(det, p->mode) || det->p2p.ops[op].state == P2P_MATCH_MATCHED;
    wait_state_wake_probe(det, p);
    return MG_ERROR_OK;
}

static int post_recv(deadlock_detector *det, const p2p_match_post *p, detector_state_item *item)
{
    *item = (detector_state_item){
        .type = DETECTOR_STATE_ITEM_P2P, .done = 1, .ref = P2P_MATCH_NONE, .request = p->request};
    if (p->peer == CHECK_EVENT_PROC_NULL) {
        return MG_ERROR_OK;
    }
    if (p->peer < CHECK_EVENT_ANY_SOURCE || p->peer >= det->world) {
        return MG_ERROR_EINVAL;
    }
    int rc = p2p_match_post_recv(&det->p2p, p, &item->ref);
    if (!rc) {
        item->done = det->p2p.ops[item->ref].state == P2P_MATCH_MATCHED;
    }
    return rc;
}

/* Where and how ev made req, for its lifecycle findings. */
static void made_by(request_table_entry *req, const check_event *ev)
{
    req->func = ev->func;
    req->peer = ev->peer;
    req->tag = ev->tag;
    req->comm_id = ev->comm;
    req->callsite = ev->callsite;
}

/* req completes with op (P2P_MATCH_NONE: it is complete). A buffered send is complete at once, but
 * its op stays referred to (in_call) until the exit of the call that posted it, as MPI may refuse
 * that call (requests_exit). */
static void take_op(deadlock_detector *det, request_table_entry *req, uint32_t op)
{
    const p2p_match_op *o = op == P2P_MATCH_NONE ? NULL : &det->p2p.ops[op];
    int buffered = o && o->kind == P2P_MATCH_SEND && send_buffered(det, o->p.mode);
    req->kind = !o || buffered ? REQUEST_TABLE_DONE : REQUEST_TABLE_P2P;
    req->op = op;
    req->in_call = o != NULL;
}

/* Registers the request of ev (a nonblocking call) for a posted op (item). */
static int add_request(deadlock_detector *det, const check_event *ev,
                       const detector_state_item *item)
{
    request_table_entry *req;
    int rc = ev->request ? request_table_add(&det->reqs, ev->rank, ev->request, &req)
                         : MG_ERROR_EFORMAT;
    if (rc) {
        if (item->ref != P2P_MATCH_NONE) {
            p2p_match_release(&det->p2p, item->ref);
        }
        return rc;
    }
    if (item->type == DETECTOR_STATE_ITEM_COLL) {
        req->kind = item->done ? REQUEST_TABLE_DONE : REQUEST_TABLE_COLL;
        req->comm = item->ref;
        req->slot = item->slot;
    } else {
        take_op(det, req, item->ref);
    }
    made_by(req, ev);
    return MG_ERROR_OK;
}

/* Releases the ops of items a blocking call posted that no wait took over. */
static void release_items(deadlock_detector *det, const detector_state_item *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (items[i].type == DETECTOR_STATE_ITEM_P2P && items[i].ref != P2P_MATCH_NONE &&
            items[i].request == 0) {
            p2p_match_release(&det->p2p, items[i].ref);
        }
    }
}

/* Drops a wait that failed while being built (never committed, so never counted blocked). */
static void abandon_wait(deadlock_detector *det, int32_t rank, uint32_t wi)
{
    det->waits[wi].satisfied = 1;
    det->ranks[rank].wait = wi;
    wait_state_free(det, wi);
}

/* A blocking call with n items (all needed): becomes the rank's wait. On failure the ops the call
 * posted are released. */
static int block_on(deadlock_detector *det, const check_event *ev, const detector_state_item *items,
                    int n)
{
    uint32_t wi;
    int rc = wait_state_new(det, ev, 0, &wi);
    if (rc) {
        release_items(det, items, n);
        return rc;
    }
    for (int i = 0; i < n && !rc; i++) {
        rc = wait_state_add(det, wi, &items[i]);
    }
    if (rc) {
        int taken = (int)det->waits[wi].n_items; /* released with the wait */
        abandon_wait(det, ev->rank, wi);
        release_items(det, items + taken, n - taken);
        return rc;
    }
    wait_state_commit(det, wi);
    return MG_ERROR_OK;
}

static int enter_p2p(deadlock_detector *det, const check_event *ev,
                     const check_event_func_info *info)
{
    uint32_t comm;
    int rc = comm_of(det, ev, &comm);
    if (rc) {
        return rc;
    }
    p2p_match_post p;
    detector_state_item items[2] = {{.ref = P2P_MATCH_NONE}, {.ref = P2P_MATCH_NONE}};
    int n = 1, nonblocking = info->klass == CHECK_EVENT_CLASS_ISEND ||
                             info->klass == CHECK_EVENT_CLASS_IRECV;
    uint64_t request = nonblocking ? ev->request : 0;
    if (nonblocking && request == 0) {
        return MG_ERROR_EFORMAT; /* request ids are non-zero: 0 is MPI_REQUEST_NULL */
    }
    switch (info->klass) {
    case CHECK_EVENT_CLASS_SEND:
    case CHECK_EVENT_CLASS_ISEND:
        post_of(ev, comm, ev->peer, ev->tag, info->mode, request, &p);
        rc = post_send(det, &p, &items[0]);
        break;
    case CHECK_EVENT_CLASS_RECV:
    case CHECK_EVENT_CLASS_IRECV:
        post_of(ev, comm, ev->peer, ev->tag, 0, request, &p);
        rc = post_recv(det, &p, &items[0]);
        break;
    default: /* Sendrecv: the send side, then the receive side from peer2/tag2 */
        post_of(ev, comm, ev->peer, ev->tag, info->mode, 0, &p);
        rc = post_send(det, &p, &items[0]);
        post_of(ev, comm, ev->peer2, ev->tag2, 0, 0, &p);
        if (ev->func == CHECK_EVENT_FN_SENDRECV) {
            p.type_period = 0; /* the record describes the send side's message only */
        }
        rc = rc ? rc : post_recv(det, &p, &items[1]);
        n = 2;
        break;
    }
    if (rc) {
        for (int i = 0; i < n; i++) { /* what was posted before the failure */
            if (items[i].ref != P2P_MATCH_NONE) {
                p2p_match_release(&det->p2p, items[i].ref);
            }
        }
        return rc;
    }
    if (nonblocking) {
        return add_request(det, ev, &items[0]);
    }
    return block_on(det, ev, items, n);
}

/* Win_post, Win_start, Win_complete, Win_wait: a buffered send to, or an AND of blocking receives
 * from, every rank of the record's group on the window's id (rma_waits.h). */
static int enter_pscw(deadlock_detector *det, const check_event *ev,
                      const rma_waits_role_kind *role)
{
    uint32_t comm;
    int rc = comm_of(det, ev, &comm);
    if (rc || ev->n_ranks == 0) {
        return rc;
    }
    detector_state_item *items = calloc(ev->n_ranks, sizeof *items);
    if (!items) {
        return MG_ERROR_ENOMEM;
    }
    int n = 0;
    for (uint32_t i = 0; i < ev->n_ranks && !rc; i++) {
        p2p_match_post p;
        post_of(ev, comm, ev->ranks[i], role->tag, CHECK_EVENT_MODE_BUFFERED, 0, &p);
        p.type_period = 0; /* no message: nothing to compare */
        rc = role->waits ? post_recv(det, &p, &items[n]) : post_send(det, &p, &items[n]);
        n += !rc;
    }
    if (rc || !role->waits) { /* Win_post and Win_complete only send */
        release_items(det, items, n);
    } else {
        rc = block_on(det, ev, items, n);
    }
    free(items);
    return rc;
}

/* Passive-target locks (rma_locks.h): the entry of Win_lock and Win_lock_all waits for its own
 * exit, the grant; grants, unlocks and Win_free change the holds. Other records are ignored. */
static int model_locks(deadlock_detector *det, const check_event *ev)
{
    uint32_t comm;
    rma_locks_request req;
    if (!rma_locks_about(ev->func) || comm_of(det, ev, &comm) != MG_ERROR_OK) {
        return MG_ERROR_OK;
    }
    if (rma_locks_request_of(ev, comm, &req)) {
        detector_state_item it = {.type = DETECTOR_STATE_ITEM_LOCK,
                                  .ref = comm,
                                  .peer = req.target,
                                  .tag = req.exclusive};
        return block_on(det, ev, &it, 1);
    }
    return rma_locks_record(&det->locks, comm, ev);
}

static int enter_probe(deadlock_detector *det, const check_event *ev)
{
    uint32_t comm;
    int rc = comm_of(det, ev, &comm);
    if (rc) {
        return rc;
    }
    detector_state_item it = {
        .type = DETECTOR_STATE_ITEM_PROBE, .ref = comm, .peer = ev->peer, .tag = ev->tag};
    it.done = ev->peer == CHECK_EVENT_PROC_NULL ||
              p2p_match_has_send(&det->p2p, comm, ev->peer, ev->rank, ev->tag);
    return block_on(det, ev, &it, 1);
}

static int enter_pinit(deadlock_detector *det, const check_event *ev,
                       const check_event_func_info *info)
{
    uint32_t comm;
    request_table_entry *req;
    int rc = ev->request ? comm_of(det, ev, &comm) : MG_ERROR_EFORMAT;
    rc = rc ? rc : request_table_add(&det->reqs, ev->rank, ev->request, &req);
    if (rc) {
        return rc;
    }
    req->kind = REQUEST_TABLE_INACTIVE;
    req->persistent = 1;
    made_by(req, ev);
    req->is_send = ev->func != CHECK_EVENT_FN_RECV_INIT;
    post_of(ev, comm, ev->peer, ev->tag, info->mode, ev->request, &req->start);
    return MG_ERROR_OK;
}

static uint64_t request_at(const check_event *ev, uint32_t i)
{
    return ev->n_requests ? (i < ev->n_requests ? ev->requests[i] : 0) : (i == 0 ? ev->request : 0);
}

static uint32_t request_count(const check_event *ev)
{
    return ev->n_requests ? ev->n_requests : 1;
}

static int enter_start(deadlock_detector *det, const check_event *ev)
{
    for (uint32_t i = 0; i < request_count(ev); i++) {
        uint64_t id = request_at(ev, i);
        request_table_entry *req = id ? request_table_find(&det->reqs, ev->rank, id) : NULL;
        if (id && !req) {
            return MG_ERROR_EFORMAT;
        }
        if (!req || !req->persistent) {
            continue; /* MPI_REQUEST_NULL or a nonblocking call's: MPI refuses the call */
        }
        if (req->kind !=
            REQUEST_TABLE_INACTIVE) { /* MPI refuses it (MPI 3.1 §3.9): nothing posted */
            int rc = lifecycle_request_restarted(det, ev, req);
            if (rc) {
                return rc;
            }
            continue;
        }
        p2p_match_post p = req->start;
        p.seq = ev->seq;
        detector_state_item it;
        int rc = req->is_send ? post_send(det, &p, &it) : post_recv(det, &p, &it);
        if (rc) {
            return rc;
        }
        take_op(det, request_table_find(&det->reqs, ev->rank, id), it.ref);
    }
    return MG_ERROR_OK;
}

/* Forgets a request (completed or freed): its op lives on in the queues until matched. */
static void drop_request(deadlock_detector *det, request_table_entry *req)
{
    if (req->kind == REQUEST_TABLE_P2P || req->in_call) {
        p2p_match_release(&det->p2p, req->op);
    }
    req->in_call = 0;
    if (req->persistent) {
        req->kind = REQUEST_TABLE_INACTIVE;
        req->op = P2P_MATCH_NONE;
    } else {
        request_table_remove(&det->reqs, req);
    }
}

static int enter_free(deadlock_detector *det, const check_event *ev)
{
    request_table_entry *req = request_table_find(&det->reqs, ev->rank, ev->request);
    if (!req) {
        return MG_ERROR_EFORMAT;
    }
    req->persistent = 0;
    drop_request(det, req);
    return MG_ERROR_OK;
}

static int enter_cancel(deadlock_detector *det, const check_event *ev)
{
    request_table_entry *req = request_table_find(&det->reqs, ev->rank, ev->request);
    if (!req) {
        return MG_ERROR_EFORMAT;
    }
    if (req->kind == REQUEST_TABLE_P2P) {
        p2p_match_cancel(&det->p2p, req->op);
    }
    return MG_ERROR_OK;
}

/* Whether ev is a request-based one-sided access's (Rput, Rget, Raccumulate, Rget_accumulate):
 * the records of class OTHER that carry a request. */
static int rma_request(const check_event *ev, const check_event_func_info *info)
{
    return info->klass == CHECK_EVENT_CLASS_OTHER && ev->request;
}

/* A request no peer completes: nonblocking file I/O's and a request-based one-sided access's are
 * complete for the model at once (MPI completes them on its own: the access's target takes no
 * part), a generalized one once the rank calls MPI_Grequest_complete on it. */
static int enter_local(deadlock_detector *det, const check_event *ev)
{
    request_table_entry *req = request_table_find(&det->reqs, ev->rank, ev->request);
    if (ev->func == CHECK_EVENT_FN_GREQUEST_COMPLETE) {
        if (req && req->kind == REQUEST_TABLE_GREQ) {
            req->kind = REQUEST_TABLE_DONE;
        }
        return MG_ERROR_OK;
    }
    int rc = ev->request ? request_table_add(&det->reqs, ev->rank, ev->request, &req)
                         : MG_ERROR_EFORMAT;
    if (rc) {
        return rc;
    }
    req->kind = ev->func == CHECK_EVENT_FN_GREQUEST_START ? REQUEST_TABLE_GREQ : REQUEST_TABLE_DONE;
    made_by(req, ev);
    return MG_ERROR_OK;
}

static int enter_wait(deadlock_detector *det, const check_event *ev,
                      const check_event_func_info *info)
{
    int any = info->completion == CHECK_EVENT_COMPLETE_ANY ||
              info->completion == CHECK_EVENT_COMPLETE_SOME;
    uint32_t wi;
    int rc = wait_state_new(det, ev, any, &wi);
    if (rc) {
        return rc;
    }
    int active = 0;
    for (uint32_t i = 0; i < request_count(ev) && !rc; i++) {
        uint64_t id = request_at(ev, i);
        request_table_entry *req = id ? request_table_find(&det->reqs, ev->rank, id) : NULL;
        if (!req || req->kind == REQUEST_TABLE_INACTIVE) {
            continue; /* MPI_REQUEST_NULL or inactive: nothing to wait for */
        }
        active++;
        detector_state_item it = {
            .type = DETECTOR_STATE_ITEM_P2P, .done = 1, .ref = P2P_MATCH_NONE, .request = id};
        if (req->kind == REQUEST_TABLE_P2P) {
            it.ref = req->op;
            it.done = det->p2p.ops[req->op].state == P2P_MATCH_MATCHED ||
                      det->p2p.ops[req->op].state == P2P_MATCH_CANCELLED;
        } else if (req->kind == REQUEST_TABLE_COLL) {
            it = (detector_state_item){.type = DETECTOR_STATE_ITEM_COLL,
                                       .ref = req->comm,
                                       .slot = req->slot,
                                       .request = id};
            it.done = (uint8_t)coll_match_complete(&det->coll, req->comm, req->slot);
        } else if (req->kind == REQUEST_TABLE_GREQ) {
            it = (detector_state_item){.type = DETECTOR_STATE_ITEM_SELF, .request = id};
        }
        rc = wait_state_add(det, wi, &it);
    }
    if (rc) {
        abandon_wait(det, ev->rank, wi);
        return rc;
    }
    /* Waitany/Waitsome with no active request return at once. */
    if (any && active == 0) {
        det->waits[wi].any = 0;
    }
    wait_state_commit(det, wi);
    return MG_ERROR_OK;
}

static int enter_coll(deadlock_detector *det, const check_event *ev,
                      const check_event_func_info *info)
{
    uint32_t comm, local;
    int rc = comm_of(det, ev, &comm);
    if (rc) {
        return rc;
    }
    if (info->klass == CHECK_EVENT_CLASS_ICOLL && ev->request == 0) {
        return MG_ERROR_EFORMAT;
    }
    if (!comm_table_local(&det->comms, comm, ev->rank, &local)) {
        return MG_ERROR_EFORMAT;
    }
    coll_match_call call = {ev->rank,      ev->func,       ev->root,        ev->op,       ev->count,
                            ev->type_hash, ev->type_elems, ev->type_period, ev->callsite, ev->seq};
    coll_match_arrival arr;
    rc = coll_match_arrive(&det->coll, comm, comm_table_size(&det->comms, comm), local, &call,
                           &arr);
    if (!rc) {
        det->ranks[ev->rank].flags &= (uint8_t)~DETECTOR_STATE_RANK_REFUSED_INVALID;
        rc = coll_findings_arrive(det, comm, ev->comm, &arr, &call);
    }
    if (!rc && arr.complete) {
        wait_state_wake_collective(det, comm);
    }
    rc = rc ? rc : message_race_collective(det, ev->rank, ev->seq, comm, arr.complete);
    if (rc) {
        return rc;
    }
    detector_state_item it = {.type = DETECTOR_STATE_ITEM_COLL,
                              .ref = comm,
                              .slot = arr.slot,
                              .done = (uint8_t)coll_match_complete(&det->coll, comm, arr.slot),
                              .request = info->klass == CHECK_EVENT_CLASS_ICOLL ? ev->request : 0};
    if (info->klass == CHECK_EVENT_CLASS_ICOLL) {
        return add_request(det, ev, &it);
    }
    return block_on(det, ev, &it, 1);
}

/* The rank ends inside its call with invalid arguments: that call's finding (its last one at
 * invalid_site) says MPI ended the rank there. */
static void mark_ended_inside(deadlock_detector *det, int32_t rank)
{
    for (size_t i = det->n_findings; i-- > 0;) {
        dl_finding *f = &det->findings[i];
        if (f->kind == DL_FINDING_INVALID_ARGUMENTS && f->n_calls && f->calls[0].rank == rank &&
            f->calls[0].callsite == det->ranks[rank].invalid_site) {
            f->notes |= DL_FINDING_NOTE_ENDED_INSIDE;
            return;
        }
    }
}

void call_model_terminate(deadlock_detector *det, int32_t rank, uint8_t life, uint16_t func,
                          uint64_t callsite)
{
    detector_state_rank *rs = &det->ranks[rank];
    if (rs->life != DETECTOR_STATE_LIFE_LIVE) {
        return;
    }
    if (rs->flags & DETECTOR_STATE_RANK_IN_INVALID) {
        mark_ended_inside(det, rank);
    }
    rs->life = life;
    rs->func = func;
    rs->callsite = callsite;
    det->live--;
    wait_state_satisfy(det, rank);
}

static int enter(deadlock_detector *det, const check_event *ev, const check_event_func_info *info)
{
    detector_state_rank *rs = &det->ranks[ev->rank];
    if (rs->wait != DETECTOR_STATE_DL_NONE) {
        /* The previous call's exit record was lost (a full ring): its wait, satisfied since the
         * rank went on, is dropped. */
        wait_state_free(det, rs->wait);
    }
    rs->flags |= DETECTOR_STATE_RANK_IN_CALL;
    rs->func = ev->func;
    rs->callsite = ev->callsite;
    rs->call_seq = ev->seq;
    switch (info->klass) {
    case CHECK_EVENT_CLASS_SEND:
    case CHECK_EVENT_CLASS_ISEND:
    case CHECK_EVENT_CLASS_RECV:
    case CHECK_EVENT_CLASS_IRECV:
    case CHECK_EVENT_CLASS_SENDRECV:
        return enter_p2p(det, ev, info);
    case CHECK_EVENT_CLASS_PROBE:
        message_race_probe_entered(det, ev);
        return enter_probe(det, ev);
    case CHECK_EVENT_CLASS_IPROBE:
        message_race_probe_entered(det, ev);
        return MG_ERROR_OK;
    case CHECK_EVENT_CLASS_PINIT:
        return enter_pinit(det, ev, info);
    case CHECK_EVENT_CLASS_START:
        return enter_start(det, ev);
    case CHECK_EVENT_CLASS_FREE:
        return enter_free(det, ev);
    case CHECK_EVENT_CLASS_CANCEL:
        return enter_cancel(det, ev);
    case CHECK_EVENT_CLASS_WAIT:
        return enter_wait(det, ev, info);
    case CHECK_EVENT_CLASS_LOCAL:
        return enter_local(det, ev);
    case CHECK_EVENT_CLASS_COLL:
    case CHECK_EVENT_CLASS_ICOLL:
        /* MPI refuses to free a predefined communicator (an error, no collective a member's
         * next call could mismatch): the rank is only in the call */
        if (ev->func == CHECK_EVENT_FN_COMM_FREE &&
            (ev->comm == CHECK_EVENT_COMM_WORLD || (ev->comm & CHECK_EVENT_COMM_SELF_FLAG))) {
            return MG_ERROR_OK;
        }
        return enter_coll(det, ev, info);
    case CHECK_EVENT_CLASS_MRECV: {
        detector_state_item done = {
            .type = DETECTOR_STATE_ITEM_P2P, .done = 1, .ref = P2P_MATCH_NONE};
        p2p_match_post p;
        post_of(ev, 0, CHECK_EVENT_PROC_NULL, 0, 0, 0, &p);
        int rc = p2p_match_receive_message(&det->p2p, ev->rank, ev->aux, &p);
        return !rc && ev->func == CHECK_EVENT_FN_IMRECV ? add_request(det, ev, &done) : rc;
    }
    case CHECK_EVENT_CLASS_FINALIZE:
        call_model_terminate(det, ev->rank, DETECTOR_STATE_LIFE_FINALIZED, ev->func, ev->callsite);
        return lifecycle_finalized(det, ev->rank);
    default: {
        if (rma_request(ev, info)) {
            return enter_local(det, ev);
        }
        rma_waits_role_kind role;
        return rma_waits_role(ev->func, &role) ? enter_pscw(det, ev, &role) : model_locks(det, ev);
    }
    }
}

/* ---- exits ---- */

/* Applies the wildcard decisions an exit record reports. Safe to apply early (while the record is
 * held) and again in order: a repeated decision is a no-op. Decisions for requests the model has
 * not posted yet wait for the in-order pass. `current` says the record is the exit of the rank's
 * current wait (a blocking receive's status refers to that wait's receive); otherwise it is the
 * record just fed, held behind the rank's other held records. */
int call_model_apply_decisions(deadlock_detector *det, const check_event *ev,
                               const check_event_func_info *info, int current)
{
    if (ev->kind != CHECK_EVENT_EV_EXIT) {
        return MG_ERROR_OK;
    }
    for (uint32_t i = 0; i < ev->n_statuses; i++) {
        const check_event_status *s = &ev->statuses[i];
        uint32_t op = P2P_MATCH_NONE;
        if (current &&
            (info->klass == CHECK_EVENT_CLASS_RECV || info->klass == CHECK_EVENT_CLASS_SENDRECV)) {
            uint32_t wi = det->ranks[ev->rank].wait;
            for (uint32_t k = 0; wi != DETECTOR_STATE_DL_NONE && k < det->waits[wi].n_items; k++) {
                const detector_state_item *it = &det->waits[wi].items[k];
                if (it->type == DETECTOR_STATE_ITEM_P2P && it->ref != P2P_MATCH_NONE &&
                    det->p2p.ops[it->ref].kind == P2P_MATCH_RECV) {
                    op = it->ref;
                }
            }
        } else if (info->klass == CHECK_EVENT_CLASS_WAIT || info->klass == CHECK_EVENT_CLASS_TEST) {
            uint64_t id = request_at(ev, s->index);
            request_table_entry *req = id ? request_table_find(&det->reqs, ev->rank, id) : NULL;
            /* Arriving behind a held Start of a persistent request, the completion is of the
             * incarnation that Start posts in the in-order pass, not of the model's op. */
            op = req && req->kind == REQUEST_TABLE_P2P &&
                         (current || det->p2p.ops[req->op].p.seq >= req->held_start)
                     ? req->op
                     : P2P_MATCH_NONE;
        }
        if (op == P2P_MATCH_NONE || s->source < 0 || s->tag < 0 ||
            det->p2p.ops[op].kind != P2P_MATCH_RECV ||
            det->p2p.ops[op].p.peer != CHECK_EVENT_ANY_SOURCE ||
            det->p2p.ops[op].state == P2P_MATCH_MATCHED) {
            continue;
        }
        int rc = p2p_match_decide(&det->p2p, op, s->source, s->tag, 0);
        if (rc == MG_ERROR_ESTATE && (det->p2p.ops[op].flags & P2P_MATCH_F_FORCED)) {
            continue; /* reality contradicts a forced decision; findings already carry the note */
        }
        if (rc) {
            return rc;
        }
    }
    return MG_ERROR_OK;
}

void call_model_note_held(deadlock_detector *det, const check_event *ev)
{
    if (ev->kind != CHECK_EVENT_EV_ENTER ||
        check_event_func_describe(ev->func)->klass != CHECK_EVENT_CLASS_START) {
        return;
    }
    for (uint32_t i = 0; i < request_count(ev); i++) {
        request_table_entry *req = request_table_find(&det->reqs, ev->rank, request_at(ev, i));
        if (req) { /* else created by a held *_init: nothing of it is posted before this Start */
            req->held_start = ev->seq;
        }
    }
}

static void complete_index(deadlock_detector *det, const check_event *ev, uint32_t index)
{
    uint64_t id = request_at(ev, index);
    request_table_entry *req = id ? request_table_find(&det->reqs, ev->rank, id) : NULL;
    if (req && req->kind != REQUEST_TABLE_INACTIVE) {
        drop_request(det, req);
    }
}

/* Frees the requests a Wait/Test family call reports complete. */
static void complete_requests(deadlock_detector *det, const check_event *ev,
                              const check_event_func_info *info)
{
    if (info->klass == CHECK_EVENT_CLASS_TEST && ev->result == 0 &&
        info->completion != CHECK_EVENT_COMPLETE_SOME) {
        return;
    }
    if (!check_event_completes_listed(ev, info)) {
        for (uint32_t i = 0; i < request_count(ev); i++) {
            complete_index(det, ev, i);
        }
        return;
    }
    for (uint32_t i = 0; i < ev->n_statuses; i++) {
        if (ev->statuses[i].index != CHECK_EVENT_UNDEFINED_INDEX) {
            complete_index(det, ev, ev->statuses[i].index);
        }
    }
}

int call_model_refused_exit(const check_event *ev)
{
    return ev->kind == CHECK_EVENT_EV_EXIT && (ev->flags & CHECK_EVENT_FLAG_REFUSED);
}

int call_model_exit_ends_wait(const check_event *ev)
{
    return call_model_refused_exit(ev) ||
           (ev->kind == CHECK_EVENT_EV_EXIT &&
            (ev->func == CHECK_EVENT_FN_WIN_LOCK || ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL));
}

/* MPI refused the call that posted op: op leaves the queues, and a message or receive it matched
 * is given back to be matched again; the call waiting for that one waits again (not a buffered
 * send's), and a Probe it satisfies is woken. */
static int withdraw(deadlock_detector *det, uint32_t op)
{
    uint32_t back;
    int rc = p2p_match_withdraw(&det->p2p, op, &back);
    const p2p_match_op *o = back == P2P_MATCH_NONE ? NULL : &det->p2p.ops[back];
    if (!o || o->state == P2P_MATCH_MATCHED) {
        return rc;
    }
    int buffered = o->kind == P2P_MATCH_SEND && send_buffered(det, o->p.mode);
    if (o->owner != P2P_MATCH_NONE && !buffered) {
        wait_state_item_undone(det, o->owner, o->owner_item);
    }
    if (o->kind == P2P_MATCH_SEND) {
        wait_state_wake_probe(det, &o->p);
    }
    return rc;
}

/* MPI refused the collective whose exit is ev, its arrival in slot `slot` of comm: the arrival is
 * withdrawn, so that the rank's next collective on comm fills the slot, a mismatch found against
 * it while held goes, and if it had completed the slot, the members still in their call for it
 * wait again. */
static int withdraw_arrival(deadlock_detector *det, const check_event *ev, uint32_t comm,
                            uint64_t slot)
{
    uint32_t local;
    int reopened = 0;
    detector_state_rank *rs = &det->ranks[ev->rank];
    int rc = comm_table_local(&det->comms, comm, ev->rank, &local)
                 ? coll_match_withdraw(&det->coll, comm, local, ev->rank, slot, &reopened)
                 : MG_ERROR_EFORMAT;
    rc = rc ? rc : coll_findings_refused(det, comm, slot, ev->rank);
    if (!rc && reopened) {
        wait_state_wake_collective(det, comm);
    }
    if (!rc && ev->callsite && ev->callsite == rs->invalid_site) {
        rs->flags |= DETECTOR_STATE_RANK_REFUSED_INVALID;
    }
    return rc;
}

/* A refused call posted nothing MPI will match: the ops it posted itself (request 0) are
 * withdrawn, so that they neither take a later call's message nor keep one a later call takes,
 * and so is a blocking collective's arrival. */
static int withdraw_own_ops(deadlock_detector *det, const check_event *ev, uint32_t wi)
{
    int rc = MG_ERROR_OK;
    for (uint32_t i = 0; i < det->waits[wi].n_items && !rc; i++) {
        const detector_state_item *it = &det->waits[wi].items[i];
        if (it->type == DETECTOR_STATE_ITEM_P2P && it->ref != P2P_MATCH_NONE && it->request == 0) {
            rc = withdraw(det, it->ref);
        } else if (it->type == DETECTOR_STATE_ITEM_COLL && it->request == 0) {
            rc = withdraw_arrival(det, ev, it->ref, it->slot);
        }
    }
    return rc;
}

/* The exit of a call that posted ops for requests (Isend, Ibsend, ..., Start, Startall), made a
 * persistent one, a nonblocking collective or a request-based one-sided access. Refused, MPI posted
 * nothing: each op the call posted is withdrawn, and so is a collective's arrival, and its request
 * forgotten (a persistent one is inactive again; one that Start found active keeps its earlier op).
 * Of a Startall MPI may have started some requests: all are taken as not started. Otherwise the ops
 * are MPI's, and a buffered send's, complete already, is let go. */
static int requests_exit(deadlock_detector *det, const check_event *ev,
                         const check_event_func_info *info)
{
    int refused = call_model_refused_exit(ev), rc = MG_ERROR_OK;
    for (uint32_t i = 0; i < request_count(ev); i++) {
        request_table_entry *req = request_table_find(&det->reqs, ev->rank, request_at(ev, i));
        if (!req) {
            continue;
        }
        if (refused && (req->in_call || info->klass != CHECK_EVENT_CLASS_START)) {
            int rc2 = req->in_call ? withdraw(det, req->op) : MG_ERROR_OK;
            if (info->klass == CHECK_EVENT_CLASS_ICOLL) {
                rc2 = withdraw_arrival(det, ev, req->comm, req->slot);
            }
            rc = rc ? rc : rc2;
            req->persistent &= info->klass == CHECK_EVENT_CLASS_START;
            drop_request(det, req);
        } else if (req->in_call && req->kind == REQUEST_TABLE_DONE) {
            p2p_match_release(&det->p2p, req->op);
            req->op = P2P_MATCH_NONE;
        }
        req->in_call = 0;
    }
    return rc;
}

/* Hands op, the receive of a matched probe whose exit ev names its message, to the matcher until
 * the message's receive compares its signature with the send's (p2p_match_keep_message); without
 * a message id (none recorded) it is released. */
static int keep_probed(deadlock_detector *det, const check_event *ev, uint32_t op)
{
    int rc = ev->aux ? p2p_match_keep_message(&det->p2p, ev->rank, ev->aux, op) : MG_ERROR_OK;
    if (!ev->aux || rc) {
        p2p_match_release(&det->p2p, op);
    }
    return rc;
}

/* The exit ev of an Mprobe that matched: its wait's receive is kept (keep_probed), not released
 * with the wait. */
static int keep_mprobed(deadlock_detector *det, const check_event *ev, uint32_t wi)
{
    if (ev->func != CHECK_EVENT_FN_MPROBE || call_model_refused_exit(ev)) {
        return MG_ERROR_OK;
    }
    detector_state_wait *w = &det->waits[wi];
    for (uint32_t k = 0; k < w->n_items; k++) {
        detector_state_item *it = &w->items[k];
        if (it->type == DETECTOR_STATE_ITEM_P2P && it->ref != P2P_MATCH_NONE) {
            p2p_match_op *o = &det->p2p.ops[it->ref];
            o->owner = o->owner_item = P2P_MATCH_NONE;
            uint32_t op = it->ref;
            it->ref = P2P_MATCH_NONE;
            return keep_probed(det, ev, op);
        }
    }
    return MG_ERROR_OK;
}

static int leave(deadlock_detector *det, const check_event *ev, const check_event_func_info *info)
{
    detector_state_rank *rs = &det->ranks[ev->rank];
    int rc = call_model_apply_decisions(det, ev, info, 1);
    if (rs->wait != DETECTOR_STATE_DL_NONE) {
        int kept = keep_mprobed(det, ev, rs->wait);
        rc = rc ? rc : kept;
        int rc2 = call_model_refused_exit(ev) ? withdraw_own_ops(det, ev, rs->wait) : MG_ERROR_OK;
        rc = rc ? rc : rc2;
        wait_state_free(det, rs->wait);
    }
    if (info->klass == CHECK_EVENT_CLASS_ISEND || info->klass == CHECK_EVENT_CLASS_IRECV ||
        info->klass == CHECK_EVENT_CLASS_PINIT || info->klass == CHECK_EVENT_CLASS_START ||
        info->klass == CHECK_EVENT_CLASS_ICOLL || rma_request(ev, info)) {
        int rc2 = requests_exit(det, ev, info);
        rc = rc ? rc : rc2;
    }
    rs->flags &= (uint8_t)~DETECTOR_STATE_RANK_IN_CALL;
    rc = rc ? rc : model_locks(det, ev);
    if (rc) {
        return rc;
    }
    if (info->klass == CHECK_EVENT_CLASS_WAIT || info->klass == CHECK_EVENT_CLASS_TEST) {
        complete_requests(det, ev, info);
    } else if (ev->func == CHECK_EVENT_FN_PROBE || ev->func == CHECK_EVENT_FN_IPROBE) {
        uint32_t comm;
        rc = comm_of(det, ev, &comm);
        rc = rc ? rc : message_race_probed(det, ev, comm);
    } else if (ev->func == CHECK_EVENT_FN_IMPROBE && ev->result && ev->n_statuses) {
        /* A successful Improbe matched (and removed) a message: a receive decided at once. */
        uint32_t comm;
        p2p_match_post p;
        detector_state_item it;
        rc = comm_of(det, ev, &comm);
        rc = rc ? rc : message_race_probed(det, ev, comm);
        if (!rc) {
            post_of(ev, comm, ev->statuses[0].source, ev->statuses[0].tag, 0, 0, &p);
            rc = post_recv(det, &p, &it);
        }
        if (!rc && it.ref != P2P_MATCH_NONE) {
            rc = keep_probed(det, ev, it.ref);
        }
    } else if (info->creates_comm && ev->aux != CHECK_EVENT_COMM_NULL) {
        uint32_t index;
        rc = comm_table_add(&det->comms, ev->aux, ev->ranks, ev->n_ranks,
                            ev->flags & CHECK_EVENT_FLAG_INTERCOMM ? ev->n_local : ev->n_ranks,
                            !!(ev->flags & CHECK_EVENT_FLAG_INTERCOMM), &index);
        rc = rc ? rc : lifecycle_comm_made(det, ev);
    } else if (ev->func == CHECK_EVENT_FN_COMM_FREE || ev->func == CHECK_EVENT_FN_WIN_FREE) {
        /* a window is modelled as the communicator its constructor made (rma_epochs.h) */
        lifecycle_comm_freed(det, ev->rank, ev->comm);
    }
    return rc;
}

/* A call with invalid arguments (reported, not modelled: MPI refused it or aborted the job), or
 * an error MPI raised in the rank's call (then aborted the job), unless it is the error of a call
 * whose invalid arguments were reported: the argument finding says more. */
static int report_invalid(deadlock_detector *det, const check_event *ev)
{
    detector_state_rank *rs = &det->ranks[ev->rank];
    int raised = ev->func == CHECK_EVENT_FN_MPI_ERROR;
    if (raised && ev->callsite && ev->callsite == rs->invalid_site) {
        return MG_ERROR_OK;
    }
    if (!raised) {
        rs->invalid_site = ev->callsite;
        rs->flags |= DETECTOR_STATE_RANK_IN_INVALID;
    }
    dl_finding f = {.kind = raised ? DL_FINDING_MPI_ERROR : DL_FINDING_INVALID_ARGUMENTS,
                    .time = det->last_time,
                    .problem = (uint32_t)ev->aux,
                    .count = (uint64_t)(uint32_t)ev->result,
                    .probe_rank = -1,
                    .probe_source = -1};
    dl_finding_call call = {
        .rank = ev->rank,
        .func = raised ? (rs->flags & DETECTOR_STATE_RANK_IN_CALL ? rs->func : CHECK_EVENT_FN_NONE)
                       : ev->func,
        .state = WAIT_GRAPH_RUNNING,
        .comm = ev->comm,
        .peer = ev->peer,
        .tag = ev->tag,
        .root = ev->root,
        .op = ev->op,
        .callsite = ev->callsite};
    int rc = dl_finding_add_call(&f, &call);
    if (!rc && !raised && rs->made_site) {
        dl_finding_call made = {.rank = ev->rank,
                                .func = CHECK_EVENT_FN_HANDLE_MADE,
                                .state = WAIT_GRAPH_RUNNING,
                                .comm = CHECK_EVENT_COMM_NULL,
                                .peer = CHECK_EVENT_PROC_NULL,
                                .root = CHECK_EVENT_NO_ROOT,
                                .callsite = rs->made_site,
                                .maker = rs->made_fn,
                                .made_it = 1};
        rc = dl_finding_add_call(&f, &made);
    }
    if (!raised) {
        rs->made_site = 0;
    }
    if (rc) {
        dl_finding_free(&f);
        return rc;
    }
    return detector_state_push_finding(det, &f);
}

/* Whether the rank is still inside its call with invalid arguments after record ev: its end (an
 * exit, MPI's error in that call) leaves it there, and so does the call's own entry record when
 * the capture module models the call after its flagged record (Win_post, Win_start); any other
 * record means the call returned. */
static void track_invalid(detector_state_rank *rs, const check_event *ev)
{
    if (ev->func == CHECK_EVENT_FN_EXIT || ev->func == CHECK_EVENT_FN_MPI_ERROR) {
        return;
    }
    if ((rs->flags & DETECTOR_STATE_RANK_IN_INVALID) &&
        !(rs->flags & DETECTOR_STATE_RANK_INVALID_ENTERED) && ev->kind == CHECK_EVENT_EV_ENTER &&
        ev->callsite == rs->invalid_site) {
        rs->flags |= DETECTOR_STATE_RANK_INVALID_ENTERED;
        return;
    }
    rs->flags &= (uint8_t) ~(DETECTOR_STATE_RANK_IN_INVALID | DETECTOR_STATE_RANK_INVALID_ENTERED);
}

int call_model_in_current_call(const check_event *ev)
{
    return ev->func == CHECK_EVENT_FN_MPI_ERROR ||
           (ev->kind == CHECK_EVENT_EV_ENTER &&
            check_event_func_describe(ev->func)->klass == CHECK_EVENT_CLASS_ABORT);
}

int call_model_process(deadlock_detector *det, const check_event *ev)
{
    if (ev->func != CHECK_EVENT_FN_MPI_ERROR && call_model_in_current_call(ev)) {
        /* before track_invalid: an abort straight after a call with invalid arguments ends the
         * rank inside it (the capture module's handler aborts after MPI's error) */
        call_model_terminate(det, ev->rank, DETECTOR_STATE_LIFE_ABORTED, ev->func, ev->callsite);
        return MG_ERROR_OK;
    }
    track_invalid(&det->ranks[ev->rank], ev);
    if ((ev->flags & CHECK_EVENT_FLAG_INVALID_ARGUMENTS) || ev->func == CHECK_EVENT_FN_MPI_ERROR) {
        return report_invalid(det, ev);
    }
    if (ev->func == CHECK_EVENT_FN_EXIT) {
        /* A return from main has no call (libc's start code calls exit): the rank's last MPI
         * call, which the capture records, names where it ended instead. */
        check_event end = *ev;
        const detector_state_rank *rs = &det->ranks[ev->rank];
        if (!end.callsite && rs->callsite) {
            end.func = rs->func;
            end.callsite = rs->callsite;
        }
        call_model_terminate(det, ev->rank, DETECTOR_STATE_LIFE_LOST, end.func, end.callsite);
        return lifecycle_exited(det, &end);
    }
    if (ev->func == CHECK_EVENT_FN_HANDLE_LEAK) {
        return lifecycle_handles_leaked(det, ev);
    }
    if (ev->func == CHECK_EVENT_FN_HANDLE_MADE) {
        det->ranks[ev->rank].made_site = ev->callsite;
        det->ranks[ev->rank].made_fn = (uint16_t)ev->result;
        return MG_ERROR_OK;
    }
    if (ev->func == CHECK_EVENT_FN_AFTER_FINALIZE) {
        return lifecycle_after_finalize(det, ev);
    }
    if (ev->func == CHECK_EVENT_FN_UNMODELLED) {
        if (ev->result > MG_FN_NONE && ev->result < MG_FN_COUNT) {
            det->unmodelled[ev->result] = 1;
        }
        return MG_ERROR_OK;
    }
    const check_event_func_info *info = check_event_func_describe(ev->func);
    int rc = ev->kind == CHECK_EVENT_EV_ENTER ? enter(det, ev, info) : leave(det, ev, info);
    wait_state_wake_completed(det);
    /* after the model: a window constructor's exit registers the window's id */
    int rc2 = rma_conflicts_record(det, ev);
    return rc ? rc : rc2;
}
