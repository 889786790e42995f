/* Conflicting one-sided accesses (rma_conflicts.h). */
#include "rma_conflicts.h"

#include <stdlib.h>
#include <string.h>

#include "detector_state.h"
#include "mg_array.h"
#include "message_race.h"
#include "mg_error.h"
#include "rma_locks.h"
#include "usage_args.h"

/* Accesses kept per window (2.5 MiB): past them, the oldest half is forgotten (a conflict with it
 * missed). */
enum { MAX_ACCESSES = 65536 };
/* Kept accesses at which the first pass of forget_ordered runs. */
enum { FORGET_FIRST = 64 };
#define NOT_FENCED UINT32_MAX
#define NOT_EXPOSED 0

/* One access of the current epochs. */
typedef struct rma_access {
    int32_t origin, target; /* world ranks */
    uint16_t func;
    uint32_t op;           /* an atomic access's op (CHECK_EVENT_OP_*), else CHECK_EVENT_OP_NULL */
    uint64_t basic;        /* an atomic access's one basic type (type_period), else 0: unknown */
    int64_t first, end;    /* bytes [first, end) of the target's window */
    uint32_t epoch, fence; /* the origin's epoch; its fence epoch, or NOT_FENCED */
    uint32_t exposure; /* the target's Win_post the access's Win_start matched, or NOT_EXPOSED */
    uint8_t shared;    /* made under a shared lock or Lock_all: compared with other origins' */
    uint64_t done;     /* the sequence number of the origin's call that completed it, or 0 */
    uint64_t callsite;
} rma_access;

/* A member's lock on one target (rma_member.lock_on). */
enum { UNLOCKED = 0, LOCKED_SHARED, LOCKED_EXCLUSIVE };

/* One member's view of a window. */
typedef struct rma_member {
    int64_t disp_unit; /* 0 until its constructor's exit */
    uint32_t epoch;    /* synchronization calls so far */
    uint32_t fences;   /* fences so far */
    uint8_t fenced;    /* its last synchronization call was a fence that opened an epoch */
    uint8_t started;   /* in an access epoch of Win_start */
    uint32_t posts;    /* Win_posts so far */
    /* Per member (local rank): the number of this member's latest Win_post whose group held it,
     * NOT_EXPOSED for none; NULL before its first post. An origin's i-th Win_start naming this
     * member matches its i-th post naming the origin, and the model holds the origin's accesses
     * until that post is analysed (Win_start waits for it) and the next one until the origin
     * completed (Win_wait waits for it): so an access in a Win_start epoch belongs to the
     * latest post that names its origin. */
    uint32_t *exposed_to;
    uint8_t lock_all; /* in a Lock_all epoch */
    /* since the window was made, a Test or Iprobe family call of the member found something (the
     * model matches it only once the sender's records came, maybe after the member's later
     * accesses), or records of the member did not reach the detector (a message a stage of the
     * tree of detectors matched, tbon_leaf.h): what ordered its later accesses may be unknown,
     * and they are not compared with other origins' */
    uint8_t unsure;
    uint8_t *lock_on; /* per member (local rank): its lock on it; NULL before its first Win_lock */
} rma_member;

typedef struct rma_window {
    uint32_t comm; /* comm_table index of the window's id */
    uint32_t size; /* members */
    rma_member *members;
    rma_access *accesses;
    size_t n_accesses, cap_accesses;
    size_t forget_at; /* the count of kept accesses at which forget_ordered next runs */
    uint32_t fence;   /* the latest fence epoch of a kept access */
} rma_window;

struct rma_conflicts {
    int64_t *entered_unit; /* per world rank: the disp_unit of its last window constructor entry */
    uint64_t *last_seq;    /* per world rank: the sequence number of its last record here */
    rma_window *windows;
    size_t n_windows, cap_windows;
};

rma_conflicts *rma_conflicts_create(int32_t world)
{
    rma_conflicts *rc = calloc(1, sizeof *rc);
    if (!rc)
        return NULL;
    rc->entered_unit = calloc((size_t)world, sizeof *rc->entered_unit);
    rc->last_seq = calloc((size_t)world, sizeof *rc->last_seq);
    if (!rc->entered_unit || !rc->last_seq) {
        rma_conflicts_destroy(rc);
        return NULL;
    }
    return rc;
}

static void drop_window(rma_conflicts *rc, size_t i)
{
    for (uint32_t m = 0; m < rc->windows[i].size; m++) {
        free(rc->windows[i].members[m].exposed_to);
        free(rc->windows[i].members[m].lock_on);
    }
    free(rc->windows[i].members);
    free(rc->windows[i].accesses);
    rc->windows[i] = rc->windows[--rc->n_windows];
}

void rma_conflicts_destroy(rma_conflicts *rc)
{
    if (!rc)
        return;
    while (rc->n_windows)
        drop_window(rc, 0);
    free(rc->windows);
    free(rc->entered_unit);
    free(rc->last_seq);
    free(rc);
}

static rma_window *find_window(rma_conflicts *rc, uint32_t comm)
{
    for (size_t i = 0; i < rc->n_windows; i++)
        if (rc->windows[i].comm == comm)
            return &rc->windows[i];
    return NULL;
}

static int add_window(rma_conflicts *rc, uint32_t comm, uint32_t size, rma_window **out)
{
    if (mg_array_reserve((void **)&rc->windows, &rc->cap_windows, rc->n_windows + 1,
                         sizeof *rc->windows))
        return MG_ERROR_ENOMEM;
    rma_window *w = &rc->windows[rc->n_windows];
    *w = (rma_window){.comm = comm,
                      .size = size,
                      .members = calloc(size, sizeof *w->members),
                      .forget_at = FORGET_FIRST};
    if (!w->members)
        return MG_ERROR_ENOMEM;
    rc->n_windows++;
    *out = w;
    return MG_ERROR_OK;
}

static int is_constructor(uint16_t func)
{
    return func == CHECK_EVENT_FN_WIN_CREATE || func == CHECK_EVENT_FN_WIN_ALLOCATE ||
           func == CHECK_EVENT_FN_WIN_CREATE_DYNAMIC;
}

static int is_access(uint16_t func)
{
    switch (func) {
    case CHECK_EVENT_FN_PUT:
    case CHECK_EVENT_FN_RPUT:
    case CHECK_EVENT_FN_GET:
    case CHECK_EVENT_FN_RGET:
    case CHECK_EVENT_FN_ACCUMULATE:
    case CHECK_EVENT_FN_GET_ACCUMULATE:
    case CHECK_EVENT_FN_RACCUMULATE:
    case CHECK_EVENT_FN_RGET_ACCUMULATE:
    case CHECK_EVENT_FN_FETCH_AND_OP:
    case CHECK_EVENT_FN_COMPARE_AND_SWAP:
        return 1;
    default:
        return 0;
    }
}

static int is_sync(uint16_t func)
{
    switch (func) {
    case CHECK_EVENT_FN_WIN_FENCE:
    case CHECK_EVENT_FN_WIN_POST:
    case CHECK_EVENT_FN_WIN_START:
    case CHECK_EVENT_FN_WIN_COMPLETE:
    case CHECK_EVENT_FN_WIN_WAIT:
    case CHECK_EVENT_FN_WIN_LOCK:
    case CHECK_EVENT_FN_WIN_UNLOCK:
    case CHECK_EVENT_FN_WIN_LOCK_ALL:
    case CHECK_EVENT_FN_WIN_UNLOCK_ALL:
        return 1;
    default:
        return 0;
    }
}

/* The passive-target calls that complete the caller's accesses at the target. */
static int is_completion(uint16_t func)
{
    return func == CHECK_EVENT_FN_WIN_FLUSH || func == CHECK_EVENT_FN_WIN_FLUSH_ALL;
}

/* Whether the origin's call ev completes its accesses at world rank target (MPI 3.1 §11.5.4: a
 * local flush completes them at the origin only, and Win_sync none). */
static int completes(const check_event *ev, int32_t target)
{
    switch (ev->func) {
    case CHECK_EVENT_FN_WIN_UNLOCK:
    case CHECK_EVENT_FN_WIN_FLUSH:
        return ev->peer == target;
    case CHECK_EVENT_FN_WIN_UNLOCK_ALL:
    case CHECK_EVENT_FN_WIN_FLUSH_ALL:
        return 1;
    default:
        return 0;
    }
}

static int writes(const rma_access *a)
{
    return a->func == CHECK_EVENT_FN_PUT || a->func == CHECK_EVENT_FN_RPUT;
}

static int atomic(const rma_access *a)
{
    return a->op != CHECK_EVENT_OP_NULL;
}

/* Whether a and b, overlapping, may not run in one epoch: atomic accesses agree with the same op
 * or MPI_NO_OP (an atomic read) on the same basic type (MPI 3.1 §11.7.1: atomicity holds for
 * the same predefined datatype; a derived type of more than one is not compared), a plain Get
 * with MPI_NO_OP only. */
static int conflict(const rma_access *a, const rma_access *b)
{
    if (writes(a) || writes(b))
        return 1;
    if (atomic(a) && atomic(b))
        return (a->op != b->op && a->op != CHECK_EVENT_OP_NO_OP && b->op != CHECK_EVENT_OP_NO_OP) ||
               (a->basic && b->basic && a->basic != b->basic);
    if (!atomic(a) && !atomic(b))
        return 0; /* two reads */
    return (atomic(a) ? a : b)->op != CHECK_EVENT_OP_NO_OP;
}

/* Of an earlier access a and b of another origin, both under shared locks: b's origin heard of
 * a's origin (a message it matched, a collective both completed) only before the call that
 * completed a, or a is not complete. The detector analyses a rank's records behind a blocking
 * receive or collective only once it completed: what b's origin did had not heard of that call. */
static int unordered(const deadlock_detector *det, const rma_access *a, const rma_access *b)
{
    return !a->done || message_race_heard(det->races, b->origin, a->origin) < a->done;
}

/* Of an earlier access a and b, to one target. */
static int same_epoch(const deadlock_detector *det, const rma_access *a, const rma_access *b)
{
    if (a->origin == b->origin)
        return a->epoch == b->epoch && !a->done;
    if (a->shared && b->shared)
        return unordered(det, a, b);
    return (a->fence != NOT_FENCED && a->fence == b->fence) ||
           (a->exposure != NOT_EXPOSED && a->exposure == b->exposure);
}

/* Whether every other member heard of a's origin after it completed a: no later access can
 * conflict with it. */
static int ordered_for_all(const deadlock_detector *det, const rma_window *w, const rma_access *a)
{
    if (!a->done)
        return 0;
    for (uint32_t i = 0; i < w->size; i++) {
        int32_t m = comm_table_member(&det->comms, w->comm, i);
        if (m != a->origin && message_race_heard(det->races, m, a->origin) < a->done)
            return 0;
    }
    return 1;
}

/* Forgets the shared accesses every member is past, so that a program ordering its lock epochs
 * by flushes and barriers keeps few; next at twice what stays, so that the passes cost each
 * access O(members) on average. */
static void forget_ordered(const deadlock_detector *det, rma_window *w)
{
    size_t kept = 0;
    for (size_t i = 0; i < w->n_accesses; i++)
        if (!w->accesses[i].shared || !ordered_for_all(det, w, &w->accesses[i]))
            w->accesses[kept++] = w->accesses[i];
    w->n_accesses = kept;
    w->forget_at = 2 * (kept > FORGET_FIRST ? kept : FORGET_FIRST);
}

static dl_finding_call call_of(const rma_access *a, uint64_t comm_id)
{
    return (dl_finding_call){.rank = a->origin,
                             .func = a->func,
                             .state = WAIT_GRAPH_RUNNING,
                             .comm = comm_id,
                             .peer = a->target,
                             .root = CHECK_EVENT_NO_ROOT,
                             .op = a->op,
                             .callsite = a->callsite};
}

static int report(deadlock_detector *det, const rma_access *earlier, const rma_access *a,
                  uint64_t comm_id)
{
    dl_finding f = {.kind = DL_FINDING_INVALID_ARGUMENTS,
                    .time = det->last_time,
                    .problem = USAGE_ARGS_RMA_CONFLICT,
                    .probe_rank = -1,
                    .probe_source = -1};
    dl_finding_call first = call_of(earlier, comm_id), second = call_of(a, comm_id);
    int rc = dl_finding_add_call(&f, &first);
    rc = rc ? rc : dl_finding_add_call(&f, &second);
    if (rc) {
        dl_finding_free(&f);
        return rc;
    }
    return detector_state_push_finding(det, &f);
}

/* A later fence epoch than any kept closes the earlier ones: their accesses go. */
static void close_fence_epochs(rma_window *w, uint32_t fence)
{
    size_t kept = 0;
    for (size_t i = 0; i < w->n_accesses; i++)
        if (w->accesses[i].fence == NOT_FENCED || w->accesses[i].fence >= fence)
            w->accesses[kept++] = w->accesses[i];
    w->n_accesses = kept;
    w->fence = fence;
}

/* Whether exit record ev found a message or completed a request without waiting. */
static int polled(const check_event *ev)
{
    const check_event_func_info *info = check_event_func_describe(ev->func);
    return ev->kind == CHECK_EVENT_EV_EXIT &&
           ((info->klass == CHECK_EVENT_CLASS_TEST && (ev->result || ev->n_statuses)) ||
            (info->klass == CHECK_EVENT_CLASS_IPROBE && ev->result));
}

static void mark_unsure(deadlock_detector *det, rma_conflicts *rc, int32_t rank)
{
    uint32_t local;
    for (size_t i = 0; i < rc->n_windows; i++)
        if (comm_table_local(&det->comms, rc->windows[i].comm, rank, &local))
            rc->windows[i].members[local].unsure = 1;
}

/* Compares a with the accesses of its epochs (one finding per access: its first conflict), then
 * keeps it. */
static int access(deadlock_detector *det, rma_window *w, const rma_access *a, uint64_t comm_id)
{
    if (a->fence != NOT_FENCED && a->fence > w->fence)
        close_fence_epochs(w, a->fence);
    for (size_t i = 0; i < w->n_accesses; i++) {
        const rma_access *b = &w->accesses[i];
        if (b->target == a->target && b->first < a->end && a->first < b->end &&
            same_epoch(det, b, a) && conflict(a, b)) {
            int rc = report(det, b, a, comm_id);
            if (rc)
                return rc;
            break;
        }
    }
    if (w->n_accesses >= w->forget_at && det->races)
        forget_ordered(det, w);
    if (w->n_accesses == MAX_ACCESSES) {
        w->n_accesses /= 2;
        memmove(w->accesses, w->accesses + w->n_accesses, w->n_accesses * sizeof *w->accesses);
    }
    if (mg_array_reserve((void **)&w->accesses, &w->cap_accesses, w->n_accesses + 1,
                         sizeof *w->accesses))
        return MG_ERROR_ENOMEM;
    w->accesses[w->n_accesses++] = *a;
    return MG_ERROR_OK;
}

/* A Win_post of member m (world rank `rank`) opens its next exposure epoch: the accesses of its
 * earlier ones go (every origin completed them: the model held this post behind the Win_wait
 * that waited for it), and each origin of its group is exposed to the new one. Errors:
 * MG_ERROR_ENOMEM (the exposure is not kept: its accesses are compared per origin only). */
static int posted(deadlock_detector *det, rma_window *w, rma_member *m, int32_t rank,
                  const check_event *ev)
{
    size_t kept = 0;
    for (size_t i = 0; i < w->n_accesses; i++)
        if (w->accesses[i].target != rank || w->accesses[i].exposure == NOT_EXPOSED)
            w->accesses[kept++] = w->accesses[i];
    w->n_accesses = kept;
    m->posts++;
    if (!m->exposed_to && !(m->exposed_to = calloc(w->size, sizeof *m->exposed_to)))
        return MG_ERROR_ENOMEM;
    uint32_t origin;
    for (uint32_t i = 0; i < ev->n_ranks; i++)
        if (comm_table_local(&det->comms, w->comm, ev->ranks[i], &origin))
            m->exposed_to[origin] = m->posts;
    return MG_ERROR_OK;
}

/* The caller's accesses outside fence and exposure epochs that ev completes are done; those that
 * are not shared go when done, or all when ev ends the caller's epoch (`ends`): the others stay
 * for other origins' (fence and exposure epochs' go with their fence epoch, or the target's next
 * post). */
static void completed(rma_window *w, const check_event *ev, int ends)
{
    size_t kept = 0;
    for (size_t i = 0; i < w->n_accesses; i++) {
        rma_access *x = &w->accesses[i];
        int own = x->origin == ev->rank && x->fence == NOT_FENCED && x->exposure == NOT_EXPOSED;
        if (own && !x->done && completes(ev, x->target))
            x->done = ev->seq;
        if (!own || x->shared || !(ends || x->done))
            w->accesses[kept++] = *x;
    }
    w->n_accesses = kept;
}

/* The caller's lock state after its lock call ev. Errors: MG_ERROR_ENOMEM (its locks are then taken
 * for exclusive ones: its accesses are compared per origin only). */
static int locked(deadlock_detector *det, rma_window *w, rma_member *m, const check_event *ev)
{
    uint32_t target;
    if (ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL || ev->func == CHECK_EVENT_FN_WIN_UNLOCK_ALL) {
        m->lock_all = ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL;
        return MG_ERROR_OK;
    }
    if ((ev->func != CHECK_EVENT_FN_WIN_LOCK && ev->func != CHECK_EVENT_FN_WIN_UNLOCK) ||
        ev->peer < 0 || !comm_table_local(&det->comms, w->comm, ev->peer, &target))
        return MG_ERROR_OK;
    if (!m->lock_on && !(m->lock_on = calloc(w->size, sizeof *m->lock_on)))
        return MG_ERROR_ENOMEM;
    m->lock_on[target] = ev->func == CHECK_EVENT_FN_WIN_UNLOCK ? UNLOCKED
                         : ev->count == RMA_LOCKS_EXCLUSIVE    ? LOCKED_EXCLUSIVE
                                                               : LOCKED_SHARED;
    return MG_ERROR_OK;
}

/* A synchronization call ends the caller's epoch. */
static int synchronized(deadlock_detector *det, rma_window *w, rma_member *m, int32_t rank,
                        const check_event *ev)
{
    completed(w, ev, 1);
    int rc = locked(det, w, m, ev);
    if (rc)
        return rc;
    m->epoch++;
    m->fenced = ev->func == CHECK_EVENT_FN_WIN_FENCE;
    m->fences += m->fenced;
    if (ev->func == CHECK_EVENT_FN_WIN_START || ev->func == CHECK_EVENT_FN_WIN_COMPLETE)
        m->started = ev->func == CHECK_EVENT_FN_WIN_START;
    return ev->func == CHECK_EVENT_FN_WIN_POST ? posted(det, w, m, rank, ev) : MG_ERROR_OK;
}

int rma_conflicts_record(deadlock_detector *det, const check_event *ev)
{
    rma_conflicts *rc = det->rma;
    uint32_t comm, local, target;
    if (!rc)
        return MG_ERROR_OK;
    /* the capture module numbers a rank's records one by one */
    if (polled(ev) || ev->seq != rc->last_seq[ev->rank] + 1)
        mark_unsure(det, rc, ev->rank);
    rc->last_seq[ev->rank] = ev->seq;
    if (is_constructor(ev->func) && ev->kind == CHECK_EVENT_EV_ENTER) {
        rc->entered_unit[ev->rank] = ev->count;
        return MG_ERROR_OK;
    }
    int made = is_constructor(ev->func) && ev->kind == CHECK_EVENT_EV_EXIT;
    uint64_t id = made ? ev->aux : ev->comm;
    if (!(made || is_sync(ev->func) || is_completion(ev->func) || is_access(ev->func) ||
          ev->func == CHECK_EVENT_FN_WIN_FREE) ||
        comm_table_lookup(&det->comms, id, &comm) != MG_ERROR_OK ||
        !comm_table_local(&det->comms, comm, ev->rank, &local))
        return MG_ERROR_OK;
    rma_window *w = find_window(rc, comm);
    if (ev->func == CHECK_EVENT_FN_WIN_FREE) {
        if (w && ev->kind == CHECK_EVENT_EV_EXIT)
            drop_window(rc, (size_t)(w - rc->windows));
        return MG_ERROR_OK;
    }
    if (!w && add_window(rc, comm, comm_table_size(&det->comms, comm), &w))
        return MG_ERROR_ENOMEM;
    rma_member *m = &w->members[local];
    if (made) {
        m->disp_unit = rc->entered_unit[ev->rank];
        return MG_ERROR_OK;
    }
    if (ev->kind != CHECK_EVENT_EV_ENTER)
        return MG_ERROR_OK;
    if (is_sync(ev->func))
        return synchronized(det, w, m, ev->rank, ev);
    if (is_completion(ev->func)) {
        completed(w, ev, 0);
        return MG_ERROR_OK;
    }
    if (ev->peer < 0 || ev->peer >= det->world ||
        !comm_table_local(&det->comms, comm, ev->peer, &target))
        return MG_ERROR_OK; /* MPI_PROC_NULL */
    /* the target's constructor exit may not be analysed yet: its entry gave the same unit */
    int64_t unit = w->members[target].disp_unit ? w->members[target].disp_unit
                                                : rc->entered_unit[ev->peer];
    int64_t first = (int64_t)ev->aux * unit + ev->tag2;
    const uint32_t *exposed = w->members[target].exposed_to;
    rma_access a = {.origin = ev->rank,
                    .target = ev->peer,
                    .func = ev->func,
                    .op = ev->op,
                    .basic = ev->flags & CHECK_EVENT_FLAG_TYPE_UNIFORM ? ev->type_period : 0,
                    .first = first,
                    .end = first + ev->count,
                    .epoch = m->epoch,
                    .fence = m->fenced ? m->fences : NOT_FENCED,
                    .exposure = m->started && exposed ? exposed[local] : NOT_EXPOSED,
                    .callsite = ev->callsite};
    /* without the knowledge of who heard of whom, another origin's lock epoch is never known
     * to be concurrent */
    a.shared = det->races && !m->fenced && !m->started && !m->unsure &&
               (m->lock_all || (m->lock_on && m->lock_on[target] == LOCKED_SHARED));
    if (ev->count <= 0)
        return MG_ERROR_OK;
    int synced = a.shared ? message_race_sync(det) : MG_ERROR_OK;
    int kept = access(det, w, &a, comm_table_id(&det->comms, comm));
    return synced ? synced : kept;
}
