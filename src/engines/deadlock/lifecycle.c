/* Lifecycles of MPI objects (lifecycle.h). */
#include "lifecycle.h"

#include <stdlib.h>
#include <string.h>

#include "detector_state.h"
#include "key_map.h"
#include "mg_array.h"
#include "mg_error.h"
#include "rma_waits.h"

/* A live communicator of one rank, and where that rank made it. */
typedef struct live_comm {
    int32_t rank;
    uint16_t func; /* the constructor */
    uint64_t id, callsite;
} live_comm;

struct lifecycle {
    live_comm *comms;
    size_t n_comms, cap_comms;
    key_map comm_index; /* (rank, id) -> index in comms */
};

lifecycle *lifecycle_create(void)
{
    lifecycle *lc = calloc(1, sizeof *lc);
    if (lc)
        key_map_init(&lc->comm_index);
    return lc;
}

void lifecycle_destroy(lifecycle *lc)
{
    if (!lc)
        return;
    free(lc->comms);
    key_map_free(&lc->comm_index);
    free(lc);
}

int lifecycle_comm_made(deadlock_detector *det, const check_event *ev)
{
    lifecycle *lc = det->life;
    if (!lc)
        return MG_ERROR_OK;
    int rc = mg_array_reserve((void **)&lc->comms, &lc->cap_comms, lc->n_comms + 1,
                              sizeof *lc->comms);
    rc = rc ? rc : key_map_put(&lc->comm_index, (uint32_t)ev->rank, ev->aux, (uint32_t)lc->n_comms);
    if (rc)
        return rc;
    lc->comms[lc->n_comms++] = (live_comm){
        .rank = ev->rank, .func = ev->func, .id = ev->aux, .callsite = ev->callsite};
    return MG_ERROR_OK;
}

void lifecycle_comm_freed(deadlock_detector *det, int32_t rank, uint64_t comm)
{
    lifecycle *lc = det->life;
    uint32_t index;
    if (!lc || !key_map_get(&lc->comm_index, (uint32_t)rank, comm, &index))
        return;
    key_map_remove(&lc->comm_index, (uint32_t)rank, comm);
    /* the last entry fills the hole, so the array holds live communicators only */
    live_comm *last = &lc->comms[--lc->n_comms];
    if (index != lc->n_comms) {
        lc->comms[index] = *last;
        key_map_put(&lc->comm_index, (uint32_t)last->rank, last->id, index);
    }
}

/* The call that ended a rank or sent a message, as a finding lists it. */
static dl_finding_call ended_at(int32_t rank, uint16_t func, uint64_t comm, int32_t peer,
                                int32_t tag, uint64_t callsite)
{
    return (dl_finding_call){.rank = rank,
                             .func = func,
                             .state = WAIT_GRAPH_TERMINATED,
                             .comm = comm,
                             .peer = peer,
                             .tag = tag,
                             .root = CHECK_EVENT_NO_ROOT,
                             .callsite = callsite};
}

/* The call that made an object the finding is about. */
static dl_finding_call made_at(int32_t rank, uint16_t func, uint64_t comm, int32_t peer,
                               int32_t tag, uint64_t callsite)
{
    dl_finding_call call = ended_at(rank, func, comm, peer, tag, callsite);
    call.made_it = 1;
    return call;
}

/* A finding of problem about calls[0..n): the call at fault or the object's creation first. */
static int push_calls(deadlock_detector *det, uint32_t problem, uint64_t count,
                      const dl_finding_call *calls, size_t n)
{
    dl_finding f = {.kind = DL_FINDING_LIFECYCLE,
                    .time = det->last_time,
                    .problem = problem,
                    .count = count,
                    .probe_rank = -1,
                    .probe_source = -1};
    int rc = MG_ERROR_OK;
    for (size_t i = 0; i < n && !rc; i++)
        rc = dl_finding_add_call(&f, &calls[i]);
    if (rc) {
        dl_finding_free(&f);
        return rc;
    }
    return detector_state_push_finding(det, &f);
}

static int push(deadlock_detector *det, uint32_t problem, uint64_t count,
                const dl_finding_call *call)
{
    return push_calls(det, problem, count, call, 1);
}

static int by_rank_and_site(const void *a, const void *b)
{
    const dl_finding_call *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->callsite < y->callsite ? -1 : x->callsite > y->callsite;
}

/* One finding per (rank, creation site) of objects[0..n), with how many objects it made;
 * objects is sorted here. */
static int report_grouped(deadlock_detector *det, uint32_t problem, dl_finding_call *objects,
                          size_t n)
{
    qsort(objects, n, sizeof *objects, by_rank_and_site);
    int rc = MG_ERROR_OK;
    for (size_t i = 0, count = 1; i < n && !rc; i++, count++) {
        if (i + 1 < n && !by_rank_and_site(&objects[i], &objects[i + 1]))
            continue;
        rc = push(det, problem, count, &objects[i]);
        count = 0;
    }
    return rc;
}

/* A rank's live objects sorted into two lists, each reported as a problem of its own. */
typedef struct two_lists {
    dl_finding_call *list[2];
    size_t n[2];
} two_lists;

/* Room for n objects in each list; rc MG_ERROR_ENOMEM (two_lists_report then frees what was made).
 */
static int two_lists_alloc(two_lists *t, size_t n)
{
    *t = (two_lists){0};
    for (int i = 0; i < 2; i++)
        t->list[i] = calloc(n ? n : 1, sizeof *t->list[i]);
    return t->list[0] && t->list[1] ? MG_ERROR_OK : MG_ERROR_ENOMEM;
}

static dl_finding_call *two_lists_next(two_lists *t, int which)
{
    return &t->list[which][t->n[which]++];
}

/* Reports list 0 as problem0 and list 1 as problem1 (unless rc says the lists failed) and frees
 * them; returns the first error. */
static int two_lists_report(deadlock_detector *det, two_lists *t, int rc, uint32_t problem0,
                            uint32_t problem1)
{
    rc = rc ? rc : report_grouped(det, problem0, t->list[0], t->n[0]);
    rc = rc ? rc : report_grouped(det, problem1, t->list[1], t->n[1]);
    free(t->list[0]);
    free(t->list[1]);
    return rc;
}

/* The rank's requests that are still live: pending ones, then inactive persistent ones. */
static int report_requests(deadlock_detector *det, int32_t rank)
{
    const request_table *rt = &det->reqs;
    two_lists t;
    int rc = two_lists_alloc(&t, rt->n);
    for (size_t i = 0; !rc && i < rt->n; i++) {
        const request_table_entry *req = &rt->reqs[i];
        if (req->kind == REQUEST_TABLE_FREE || req->rank != rank)
            continue;
        *two_lists_next(&t, req->kind == REQUEST_TABLE_INACTIVE) = made_at(
            rank, req->func, req->comm_id, req->peer, req->tag, req->callsite);
    }
    return two_lists_report(det, &t, rc, DL_FINDING_LIFECYCLE_REQUEST_PENDING,
                            DL_FINDING_LIFECYCLE_REQUEST_NOT_FREED);
}

static int is_window(uint16_t constructor)
{
    return constructor == CHECK_EVENT_FN_WIN_CREATE || constructor == CHECK_EVENT_FN_WIN_ALLOCATE ||
           constructor == CHECK_EVENT_FN_WIN_CREATE_DYNAMIC;
}

/* The rank's live communicators, then its live windows (which the detector models as the
 * communicators their constructors made). */
static int report_comms(deadlock_detector *det, int32_t rank)
{
    lifecycle *lc = det->life;
    two_lists t;
    int rc = two_lists_alloc(&t, lc->n_comms);
    for (size_t i = 0; !rc && i < lc->n_comms; i++) {
        const live_comm *c = &lc->comms[i];
        if (c->rank == rank)
            *two_lists_next(&t, is_window(c->func)) = made_at(
                rank, c->func, c->id, CHECK_EVENT_PROC_NULL, 0, c->callsite);
    }
    return two_lists_report(det, &t, rc, DL_FINDING_LIFECYCLE_COMM_LEAK,
                            DL_FINDING_LIFECYCLE_WINDOW_LEAK);
}

/* Sends still queued when every rank has ended, to a rank that finalized: never received. Not
 * decided while a wildcard receive is undecided (it may have taken one of them). */
static int report_lost_messages(deadlock_detector *det)
{
    const p2p_match *pm = &det->p2p;
    if (pm->undecided)
        return MG_ERROR_OK;
    dl_finding_call *lost = calloc(pm->n_ops ? pm->n_ops : 1, sizeof *lost);
    if (!lost)
        return MG_ERROR_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < pm->n_ops; i++) {
        const p2p_match_op *op = &pm->ops[i];
        rma_waits_role_kind
            pscw; /* a Win_post or Win_complete answered by a Win_test is no message */
        if (op->kind != P2P_MATCH_SEND || op->state != P2P_MATCH_WAITING || op->p.peer < 0 ||
            det->ranks[op->p.peer].life != DETECTOR_STATE_LIFE_FINALIZED ||
            rma_waits_role(op->p.func, &pscw))
            continue;
        lost[n++] = ended_at(op->p.rank, op->p.func, comm_table_id(&det->comms, op->p.comm),
                             op->p.peer, op->p.tag, op->p.callsite);
    }
    int rc = report_grouped(det, DL_FINDING_LIFECYCLE_MESSAGE_LOST, lost, n);
    free(lost);
    return rc;
}

int lifecycle_request_restarted(deadlock_detector *det, const check_event *ev,
                                const request_table_entry *req)
{
    if (!det->life)
        return MG_ERROR_OK;
    dl_finding_call calls[2] = {
        {.rank = ev->rank,
         .func = ev->func,
         .state = WAIT_GRAPH_RUNNING,
         .comm = req->comm_id,
         .peer = req->peer,
         .tag = req->tag,
         .root = CHECK_EVENT_NO_ROOT,
         .callsite = ev->callsite},
        made_at(ev->rank, req->func, req->comm_id, req->peer, req->tag, req->callsite)};
    return push_calls(det, DL_FINDING_LIFECYCLE_REQUEST_RESTARTED, 1, calls, 2);
}

int lifecycle_handles_leaked(deadlock_detector *det, const check_event *ev)
{
    static const uint32_t problem_of[CHECK_EVENT_HANDLE_KIND_END] = {
        [CHECK_EVENT_HANDLE_GROUP] = DL_FINDING_LIFECYCLE_GROUP_LEAK,
        [CHECK_EVENT_HANDLE_DATATYPE] = DL_FINDING_LIFECYCLE_DATATYPE_LEAK,
        [CHECK_EVENT_HANDLE_OP] = DL_FINDING_LIFECYCLE_OP_LEAK,
        [CHECK_EVENT_HANDLE_INFO] = DL_FINDING_LIFECYCLE_INFO_LEAK,
        [CHECK_EVENT_HANDLE_ERRHANDLER] = DL_FINDING_LIFECYCLE_ERRHANDLER_LEAK,
    };
    if (!det->life || ev->aux >= CHECK_EVENT_HANDLE_KIND_END || !problem_of[ev->aux] ||
        ev->count <= 0)
        return MG_ERROR_OK;
    dl_finding_call call = made_at(ev->rank, ev->func, CHECK_EVENT_COMM_NULL, CHECK_EVENT_PROC_NULL,
                                   0, ev->callsite);
    call.maker = (uint16_t)ev->result;
    return push(det, problem_of[ev->aux], (uint64_t)ev->count, &call);
}

int lifecycle_finalized(deadlock_detector *det, int32_t rank)
{
    if (!det->life)
        return MG_ERROR_OK;
    /* Each is a scan of every rank's live objects; a correct program has none left at its
     * Finalizes, so a job of P ranks pays O(P) here, not O(P^2). */
    int rc = det->reqs.live ? report_requests(det, rank) : MG_ERROR_OK;
    rc = rc || !det->life->n_comms ? rc : report_comms(det, rank);
    return rc || det->live ? rc : report_lost_messages(det);
}

int lifecycle_exited(deadlock_detector *det, const check_event *ev)
{
    if (!det->life)
        return MG_ERROR_OK;
    dl_finding_call call = ended_at(ev->rank, ev->func, CHECK_EVENT_COMM_WORLD,
                                    CHECK_EVENT_PROC_NULL, 0, ev->callsite);
    return push(det, DL_FINDING_LIFECYCLE_NO_FINALIZE, 1, &call);
}

int lifecycle_after_finalize(deadlock_detector *det, const check_event *ev)
{
    if (!det->life)
        return MG_ERROR_OK;
    dl_finding_call call = ended_at(ev->rank, ev->func, CHECK_EVENT_COMM_NULL,
                                    CHECK_EVENT_PROC_NULL, 0, ev->callsite);
    call.maker = (uint16_t)ev->result;
    return push(det, DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE, 1, &call);
}

int lifecycle_call_too_late(const deadlock_detector *det, const check_event *ev)
{
    return ev->func == CHECK_EVENT_FN_AFTER_FINALIZE &&
           det->ranks[ev->rank].life == DETECTOR_STATE_LIFE_FINALIZED;
}

const char *lifecycle_problem_name(uint32_t problem)
{
    static const char *const names[DL_FINDING_LIFECYCLE_PROBLEM_END] = {
        [DL_FINDING_LIFECYCLE_REQUEST_PENDING] = "request_not_completed",
        [DL_FINDING_LIFECYCLE_REQUEST_NOT_FREED] = "request_not_freed",
        [DL_FINDING_LIFECYCLE_REQUEST_RESTARTED] = "request_started_twice",
        [DL_FINDING_LIFECYCLE_COMM_LEAK] = "communicator_leak",
        [DL_FINDING_LIFECYCLE_MESSAGE_LOST] = "lost_message",
        [DL_FINDING_LIFECYCLE_NO_FINALIZE] = "no_finalize",
        [DL_FINDING_LIFECYCLE_WINDOW_LEAK] = "window_leak",
        [DL_FINDING_LIFECYCLE_GROUP_LEAK] = "group_leak",
        [DL_FINDING_LIFECYCLE_DATATYPE_LEAK] = "datatype_leak",
        [DL_FINDING_LIFECYCLE_OP_LEAK] = "op_leak",
        [DL_FINDING_LIFECYCLE_INFO_LEAK] = "info_leak",
        [DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE] = "call_after_finalize",
        [DL_FINDING_LIFECYCLE_ERRHANDLER_LEAK] = "errhandler_leak",
    };
    return problem > 0 && problem < DL_FINDING_LIFECYCLE_PROBLEM_END ? names[problem] : "unknown";
}
