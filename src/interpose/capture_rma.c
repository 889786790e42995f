/* The capture module's one-sided communication (capture_call.h), observed. A window constructor is
 * a collective on its communicator whose exit record carries the window's own id and members, as
 * a communicator constructor's does (capture_comm_derive): Win_fence and Win_free are then
 * collectives on that id, and the detector finds their deadlocks as it finds a Barrier's. Every
 * rank steps its epochs on each window (rma_epochs.h) at the entry of each call; a problem is
 * written as a flagged record ahead of the call's own records, which the detector still models
 * (a fence stays in the collective model even when its epoch is wrong).
 * docs/design/check-classes.md, "One-sided communication". */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_rma.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_ctor.h"
#include "capture_emit.h"
#include "capture_types.h"
#include "rma_epochs.h"
#include "rma_locks.h"

#include <stdlib.h>
#include <string.h>

#pragma weak PMPI_Type_get_extent
#pragma weak PMPI_Type_get_true_extent

/* Windows live at once; calls on a window beyond them are not captured. */
enum { MAX_WINDOWS = 256 };

/* The group of a Win_post or Win_start as world ranks, kept for the Win_wait or Win_complete
 * that ends its epoch: the detector waits on each of them (rma_waits.h). */
typedef struct pscw_group {
    int32_t *world;
    int size;
} pscw_group;

typedef struct rma_window {
    MPI_Win handle;
    int live, freed;    /* freed: released, the handle kept for win_freed */
    capture_comm group; /* the window's id and members */
    rma_epochs epochs;
    pscw_group posted, started;
} rma_window;

static rma_window windows[MAX_WINDOWS];
/* The communicator of the window constructor in progress, and the window Win_free is freeing
 * (MPI nulls the handle). */
static capture_comm *making_on;
static rma_window *freeing;

static rma_window *window_of(MPI_Win win)
{
    for (int i = 0; i < MAX_WINDOWS; i++)
        if (windows[i].live && windows[i].handle == win)
            return &windows[i];
    return NULL;
}

/* The live window of handle win; at the entry of fn, a copy of a freed window's handle (a slot
 * that held it and was released, not taken by a new window since) gets its win_freed record.
 * NULL for a handle no live window has: the call is not captured otherwise. */
static rma_window *window_for(uint16_t fn, int phase, MPI_Win win)
{
    rma_window *w = window_of(win);
    for (int i = 0; !w && phase == INTERPOSE_HOOKS_CALL_ENTER && i < MAX_WINDOWS; i++)
        if (windows[i].freed && windows[i].handle == win) {
            capture_args_reject(fn, phase, NULL, USAGE_ARGS_WIN_FREED, CHECK_EVENT_PROC_NULL, 0, 0);
            break;
        }
    return w;
}

/* Registers a new window made on parent; NULL when out of room or memory (its calls are then not
 * captured). Counts the creation on parent either way, so that ids stay equal on every member. */
static rma_window *add_window(capture_comm *parent, MPI_Win win)
{
    rma_window *w = NULL;
    /* a slot never used first, so that a freed window's handle is remembered as long as can be */
    for (int i = 0; i < MAX_WINDOWS && !w; i++)
        if (!windows[i].live && !windows[i].freed)
            w = &windows[i];
    for (int i = 0; i < MAX_WINDOWS && !w; i++)
        if (!windows[i].live)
            w = &windows[i];
    if (!w) {
        parent->creations++;
        return NULL;
    }
    memset(w, 0, sizeof *w);
    if (capture_comm_derive(parent, &w->group) != 0)
        return NULL;
    w->epochs.locked = calloc((size_t)w->group.size, 1);
    if (!w->epochs.locked) {
        free(w->group.world);
        return NULL;
    }
    w->epochs.targets = w->group.size;
    w->handle = win;
    w->live = 1;
    return w;
}

static void release(rma_window *w)
{
    free(w->posted.world);
    free(w->started.world);
    free(w->group.world);
    free(w->epochs.locked);
    w->live = 0;
    w->freed = 1;
}

/* A window constructor's records; the entry carries the caller's disp_unit, which scales the
 * displacements of the accesses to it (rma_conflicts.h). */
static void made(uint16_t fn, int phase, int rc, MPI_Comm comm, int disp_unit, const MPI_Win *win)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        making_on = capture_comm_find(comm);
    if (!making_on)
        return;
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), making_on);
    ev.flags |= capture_call_refused(rc);
    ev.count = phase == INTERPOSE_HOOKS_CALL_ENTER ? disp_unit : 0;
    if (phase == INTERPOSE_HOOKS_CALL_EXIT) {
        const rma_window *w = rc == MPI_SUCCESS ? add_window(making_on, *win) : NULL;
        capture_ctor_describe(&ev, w ? &w->group : NULL);
    }
    capture_emit(&ev);
}

/* The target bytes of an access, as the detector compares them (rma_conflicts.h). */
typedef struct rma_region {
    int64_t disp, span; /* displacement (the target's units); bytes from the true lower bound */
    int32_t lb;         /* the target datatype's true lower bound */
    uint32_t op;        /* an atomic access's op id, else CHECK_EVENT_OP_NULL */
    MPI_Datatype type;  /* the target datatype, and its count: an atomic access's record carries */
    int count;          /* their signature, as atomicity needs one basic type per location */
    uint64_t request;   /* a request-based access's request id (Rput, ...), else 0 */
} rma_region;

/* An access's target arguments: count x type at disp; op: an atomic access's, else MPI_OP_NULL. */
typedef struct rma_target {
    MPI_Aint disp;
    int count;
    MPI_Datatype type;
    MPI_Op op;
} rma_target;

static rma_region region_of(rma_target t)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    rma_region r = {.disp = t.disp,
                    .op = t.op == MPI_OP_NULL ? CHECK_EVENT_OP_NULL : capture_emit_op_id(t.op),
                    .type = t.type,
                    .count = t.count};
    if (t.count > 0 && PMPI_Type_get_extent(t.type, &lb, &extent) == MPI_SUCCESS &&
        PMPI_Type_get_true_extent(t.type, &true_lb, &true_extent) == MPI_SUCCESS) {
        r.span = (int64_t)(t.count - 1) * extent + true_extent;
        r.lb = (int32_t)true_lb;
    }
    return r;
}

/* The record of a call on window w that returned rc (target: a rank of the window's group, or
 * -1), with the target as a world rank, the count and, for post/start/complete/wait, the
 * epoch's group g (world ranks, NULL for none) that the detector turns into sends or waits
 * (rma_waits.h); an access's record carries its region (NULL for the others) in place of the
 * count. A call MPI refuses ends its wait by its exit record (CHECK_EVENT_FLAG_REFUSED). */
static void emit_on(const rma_window *w, uint16_t fn, int phase, int rc, int target, int64_t count,
                    const pscw_group *g, const rma_region *region)
{
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), &w->group);
    ev.flags |= capture_call_refused(rc);
    ev.peer = target >= 0 ? capture_comm_world(&w->group, target) : CHECK_EVENT_PROC_NULL;
    ev.count = count;
    if (region) {
        ev.aux = (uint64_t)region->disp;
        ev.count = region->span;
        ev.tag2 = region->lb;
        ev.op = region->op;
        ev.request = region->request;
        if (region->op != CHECK_EVENT_OP_NULL)
            capture_types_describe(&ev, region->type, region->count);
    }
    if (phase == INTERPOSE_HOOKS_CALL_ENTER && g && g->world) {
        ev.ranks = g->world;
        ev.n_ranks = (uint32_t)g->size;
    }
    capture_emit(&ev);
}

/* At the entry, the flagged record of the epoch problem the call's action shows: 1 then. */
static int epoch_step(rma_window *w, uint16_t fn, int phase, rma_epochs_action action, int target,
                      int64_t count)
{
    return phase == INTERPOSE_HOOKS_CALL_ENTER &&
           capture_args_reject(fn, phase, &w->group, rma_epochs_step(&w->epochs, action, target),
                               target, 0, count);
}

/* The epoch problem's record, then the call's own. */
static void on_window(rma_window *w, uint16_t fn, int phase, int rc, rma_epochs_action action,
                      int target, int64_t count, const pscw_group *g, const rma_region *region)
{
    if (!w)
        return;
    epoch_step(w, fn, phase, action, target, count);
    emit_on(w, fn, phase, rc, target, count, g, region);
}

#define NO_TARGET -1
static void sync_call(uint16_t fn, int phase, int rc, MPI_Win win, rma_epochs_action action)
{
    on_window(window_for(fn, phase, win), fn, phase, rc, action, NO_TARGET, 0, NULL, NULL);
}

static void obs_Win_create(int ph, int rc, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                           MPI_Comm comm, MPI_Win *win)
{
    (void)base, (void)size, (void)info;
    made(CHECK_EVENT_FN_WIN_CREATE, ph, rc, comm, disp_unit, win);
}
static void obs_Win_allocate(int ph, int rc, MPI_Aint size, int disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    (void)size, (void)info, (void)baseptr;
    made(CHECK_EVENT_FN_WIN_ALLOCATE, ph, rc, comm, disp_unit, win);
}
static void obs_Win_create_dynamic(int ph, int rc, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)info;
    made(CHECK_EVENT_FN_WIN_CREATE_DYNAMIC, ph, rc, comm, 1, win); /* addresses as displacements */
}

static void obs_Win_free(int ph, int rc, MPI_Win *win)
{
    if (ph == INTERPOSE_HOOKS_CALL_ENTER)
        freeing = window_for(CHECK_EVENT_FN_WIN_FREE, ph, *win);
    on_window(freeing, CHECK_EVENT_FN_WIN_FREE, ph, rc, RMA_EPOCHS_FREE, NO_TARGET, 0, NULL, NULL);
    if (ph == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS && freeing)
        release(freeing);
}

static void obs_Win_fence(int ph, int rc, int assertion, MPI_Win win)
{
    sync_call(CHECK_EVENT_FN_WIN_FENCE, ph, rc, win,
              assertion & MPI_MODE_NOSUCCEED ? RMA_EPOCHS_FENCE_LAST : RMA_EPOCHS_FENCE);
}
/* Keeps group's members as the epoch's group in *g (the previous one is dropped); out of memory,
 * *g is left empty and the detector models no wait for this epoch. */
static void keep_group(pscw_group *g, MPI_Group group)
{
    free(g->world);
    *g = (pscw_group){0};
    int n;
    if (PMPI_Group_size(group, &n) != MPI_SUCCESS || n <= 0)
        return;
    g->world = capture_comm_members(group, n);
    g->size = g->world ? n : 0;
}

/* Post and start: a new epoch's group is kept for the call that ends it. An epoch the check
 * refuses (an rma_epoch_twice: opened twice, or a start inside a passive-target epoch) is one both
 * MPIs refuse: it opens nothing, so its call carries no group, and the model neither adds a second
 * set of messages nor has a refused Win_start take a target's one post. Ending the refused call's
 * wait at its exit is not enough: when the post was read first, the wait had matched it already
 * (rma_epoch_twice_start_in_lock_all). The epoch the call finds open keeps its group. */
static void open_pscw(uint16_t fn, int phase, int rc, rma_epochs_action action, MPI_Group group,
                      MPI_Win win)
{
    rma_window *w = window_for(fn, phase, win);
    if (!w) {
        return;
    }
    pscw_group *g = action == RMA_EPOCHS_POST ? &w->posted : &w->started;
    int refused = epoch_step(w, fn, phase, action, NO_TARGET, 0);
    /* a freed group is not read: the epoch then has no group to wait on */
    if (phase == INTERPOSE_HOOKS_CALL_ENTER && !refused)
        keep_group(g, capture_args_group(fn, phase, &w->group, group) ? MPI_GROUP_EMPTY : group);
    emit_on(w, fn, phase, rc, NO_TARGET, 0, refused ? NULL : g, NULL);
}
/* Complete and wait: the group of the epoch they end, when one is open. */
static void close_pscw(uint16_t fn, int phase, int rc, rma_epochs_action action, MPI_Win win)
{
    rma_window *w = window_for(fn, phase, win);
    if (!w) {
        return;
    }
    int open = action == RMA_EPOCHS_WAIT ? w->epochs.post_open : w->epochs.start_open;
    on_window(w, fn, phase, rc, action, NO_TARGET, 0,
              !open                       ? NULL
              : action == RMA_EPOCHS_WAIT ? &w->posted
                                          : &w->started,
              NULL);
}
static void obs_Win_post(int ph, int rc, MPI_Group group, int assertion, MPI_Win win)
{
    (void)assertion;
    open_pscw(CHECK_EVENT_FN_WIN_POST, ph, rc, RMA_EPOCHS_POST, group, win);
}
static void obs_Win_start(int ph, int rc, MPI_Group group, int assertion, MPI_Win win)
{
    (void)assertion;
    open_pscw(CHECK_EVENT_FN_WIN_START, ph, rc, RMA_EPOCHS_START, group, win);
}
static void obs_Win_complete(int ph, int rc, MPI_Win win)
{
    close_pscw(CHECK_EVENT_FN_WIN_COMPLETE, ph, rc, RMA_EPOCHS_COMPLETE, win);
}
static void obs_Win_wait(int ph, int rc, MPI_Win win)
{
    close_pscw(CHECK_EVENT_FN_WIN_WAIT, ph, rc, RMA_EPOCHS_WAIT, win);
}
/* The lock type goes in the count: the detector models who waits for whom (rma_locks.h). */
static void obs_Win_lock(int ph, int rc, int lock_type, int rank, int assertion, MPI_Win win)
{
    (void)assertion;
    on_window(window_for(CHECK_EVENT_FN_WIN_LOCK, ph, win), CHECK_EVENT_FN_WIN_LOCK, ph, rc,
              RMA_EPOCHS_LOCK, rank,
              lock_type == MPI_LOCK_EXCLUSIVE ? RMA_LOCKS_EXCLUSIVE : RMA_LOCKS_SHARED, NULL, NULL);
}
static void obs_Win_unlock(int ph, int rc, int rank, MPI_Win win)
{
    on_window(window_for(CHECK_EVENT_FN_WIN_UNLOCK, ph, win), CHECK_EVENT_FN_WIN_UNLOCK, ph, rc,
              RMA_EPOCHS_UNLOCK, rank, 0, NULL, NULL);
}
static void obs_Win_lock_all(int ph, int rc, int assertion, MPI_Win win)
{
    (void)assertion;
    sync_call(CHECK_EVENT_FN_WIN_LOCK_ALL, ph, rc, win, RMA_EPOCHS_LOCK_ALL);
}
static void obs_Win_unlock_all(int ph, int rc, MPI_Win win)
{
    sync_call(CHECK_EVENT_FN_WIN_UNLOCK_ALL, ph, rc, win, RMA_EPOCHS_UNLOCK_ALL);
}

/* A flush needs a passive-target epoch (rma_epochs.h); its record orders the accesses of two
 * origins (rma_conflicts.h). */
static void flush_call(uint16_t fn, int phase, int rc, int target, MPI_Win win)
{
    on_window(window_for(fn, phase, win), fn, phase, rc, RMA_EPOCHS_FLUSH, target, 0, NULL, NULL);
}
static void obs_Win_flush(int ph, int rc, int rank, MPI_Win win)
{
    flush_call(CHECK_EVENT_FN_WIN_FLUSH, ph, rc, rank, win);
}
static void obs_Win_flush_all(int ph, int rc, MPI_Win win)
{
    sync_call(CHECK_EVENT_FN_WIN_FLUSH_ALL, ph, rc, win, RMA_EPOCHS_FLUSH_ALL);
}
static void obs_Win_flush_local(int ph, int rc, int rank, MPI_Win win)
{
    flush_call(CHECK_EVENT_FN_WIN_FLUSH_LOCAL, ph, rc, rank, win);
}
static void obs_Win_flush_local_all(int ph, int rc, MPI_Win win)
{
    sync_call(CHECK_EVENT_FN_WIN_FLUSH_LOCAL_ALL, ph, rc, win, RMA_EPOCHS_FLUSH_ALL);
}
/* Win_sync steps no epoch and is never reported: it synchronizes the window's copies, in an epoch
 * or outside all (MPICH 4.0 refuses it outside a passive-target one, Open MPI 4.1 does not). */
static void obs_Win_sync(int ph, int rc, MPI_Win win)
{
    const rma_window *w = window_for(CHECK_EVENT_FN_WIN_SYNC, ph, win);
    if (w)
        emit_on(w, CHECK_EVENT_FN_WIN_SYNC, ph, rc, NO_TARGET, 0, NULL, NULL);
}

/* One datatype argument: count elements of type. */
static capture_args_typed one(const int *count, const MPI_Datatype *type)
{
    return (capture_args_typed){count, sizeof *count, type, 1, 0};
}

/* An access with origin count `count` to target's block `to`, its other datatype arguments
 * typed[0..n) (origin, result), and request the handle of a request-based one (NULL for the
 * others), which the detector follows like any request: MPI completes it on its own, within the
 * passive-target epoch it must be made in (MPI 3.1 §11.3.5). One with a bad datatype argument is
 * one MPI refuses before anything: its flagged record alone, no epoch stepped, no access, and its
 * types not read; its request, like one on a window not captured, is not tracked. */
static void access_call(uint16_t fn, int phase, int rc, int target, int64_t count, MPI_Win win,
                        rma_target to, const capture_args_typed *typed, int n, MPI_Request *request)
{
    rma_window *w = window_for(fn, phase, win);
    capture_args_typed target_type = one(&to.count, &to.type);
    usage_args_problem p = capture_args_typed_check(typed, n);
    if (p == USAGE_ARGS_OK)
        p = capture_args_typed_check(&target_type, 1);
    if (!w || capture_args_reject(fn, phase, &w->group, p, target, 0, count)) {
        if (request)
            capture_call_untracked(phase, rc, request);
        return;
    }
    rma_region region = region_of(to);
    if (request)
        region.request = capture_call_request(phase, rc, request, NULL, 0);
    on_window(w, fn, phase, rc, request ? RMA_EPOCHS_REQUEST_ACCESS : RMA_EPOCHS_ACCESS, target,
              count, NULL, &region);
}

/* Whether an access takes a request (REQUEST) or not (NONE): its last parameter, and what it
 * passes to access_call. */
#define REQ_PARAM_NONE
#define REQ_ARG_NONE NULL
#define REQ_PARAM_REQUEST , MPI_Request *request
#define REQ_ARG_REQUEST request

/* The accesses with an origin buffer and a target block (Put, Get and their request forms). */
#define TRANSFER(name, fn, BUF, REQ)                                                               \
    static void obs_##name(int ph, int rc, BUF *o, int on, MPI_Datatype ot, int target,            \
                           MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win win REQ_PARAM_##REQ)    \
    {                                                                                              \
        (void)o;                                                                                   \
        capture_args_typed origin = one(&on, &ot);                                                 \
        access_call(fn, ph, rc, target, on, win, (rma_target){disp, tn, tt, MPI_OP_NULL}, &origin, \
                    1, REQ_ARG_##REQ);                                                             \
    }
TRANSFER(Put, CHECK_EVENT_FN_PUT, const void, NONE)
TRANSFER(Get, CHECK_EVENT_FN_GET, void, NONE)
TRANSFER(Rput, CHECK_EVENT_FN_RPUT, const void, REQUEST)
TRANSFER(Rget, CHECK_EVENT_FN_RGET, void, REQUEST)

/* Accumulate and Raccumulate. */
#define ACCUMULATE(name, fn, REQ)                                                                  \
    static void obs_##name(int ph, int rc, const void *o, int on, MPI_Datatype ot, int target,     \
                           MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Op op,                      \
                           MPI_Win win REQ_PARAM_##REQ)                                            \
    {                                                                                              \
        (void)o;                                                                                   \
        capture_args_typed origin = one(&on, &ot);                                                 \
        access_call(fn, ph, rc, target, on, win, (rma_target){disp, tn, tt, op}, &origin, 1,       \
                    REQ_ARG_##REQ);                                                                \
    }
ACCUMULATE(Accumulate, CHECK_EVENT_FN_ACCUMULATE, NONE)
ACCUMULATE(Raccumulate, CHECK_EVENT_FN_RACCUMULATE, REQUEST)

/* Get_accumulate and Rget_accumulate: MPI_NO_OP reads no origin (MPI 3.1 §11.3.4). */
#define GET_ACCUMULATE(name, fn, REQ)                                                              \
    static void obs_##name(int ph, int rc, const void *o, int on, MPI_Datatype ot, void *r,        \
                           int rn, MPI_Datatype rt, int target, MPI_Aint disp, int tn,             \
                           MPI_Datatype tt, MPI_Op op, MPI_Win win REQ_PARAM_##REQ)                \
    {                                                                                              \
        (void)o, (void)r;                                                                          \
        capture_args_typed typed[2] = {one(&on, &ot), one(&rn, &rt)};                              \
        typed[0].n = op != MPI_NO_OP;                                                              \
        access_call(fn, ph, rc, target, on, win, (rma_target){disp, tn, tt, op}, typed, 2,         \
                    REQ_ARG_##REQ);                                                                \
    }
GET_ACCUMULATE(Get_accumulate, CHECK_EVENT_FN_GET_ACCUMULATE, NONE)
GET_ACCUMULATE(Rget_accumulate, CHECK_EVENT_FN_RGET_ACCUMULATE, REQUEST)

static void obs_Fetch_and_op(int ph, int rc, const void *o, void *r, MPI_Datatype t, int target,
                             MPI_Aint disp, MPI_Op op, MPI_Win win)
{
    (void)o, (void)r;
    /* one datatype for the origin, the result and the target: the target's check covers it */
    access_call(CHECK_EVENT_FN_FETCH_AND_OP, ph, rc, target, 1, win, (rma_target){disp, 1, t, op},
                NULL, 0, NULL);
}
static void obs_Compare_and_swap(int ph, int rc, const void *o, const void *cmp, void *r,
                                 MPI_Datatype t, int target, MPI_Aint disp, MPI_Win win)
{
    (void)o, (void)cmp, (void)r;
    /* an atomic replacement: legal beside another of its kind, not beside other atomic ops */
    access_call(CHECK_EVENT_FN_COMPARE_AND_SWAP, ph, rc, target, 1, win,
                (rma_target){disp, 1, t, MPI_REPLACE}, NULL, 0, NULL);
}

void capture_rma_install(void)
{
    CAPTURE_CALL_OBSERVE(Win_create)
    CAPTURE_CALL_OBSERVE(Win_allocate)
    CAPTURE_CALL_OBSERVE(Win_create_dynamic)
    CAPTURE_CALL_OBSERVE(Win_free)
    CAPTURE_CALL_OBSERVE(Win_fence)
    CAPTURE_CALL_OBSERVE(Win_post)
    CAPTURE_CALL_OBSERVE(Win_start)
    CAPTURE_CALL_OBSERVE(Win_complete)
    CAPTURE_CALL_OBSERVE(Win_wait)
    CAPTURE_CALL_OBSERVE(Win_lock)
    CAPTURE_CALL_OBSERVE(Win_unlock)
    CAPTURE_CALL_OBSERVE(Win_lock_all)
    CAPTURE_CALL_OBSERVE(Win_unlock_all)
    CAPTURE_CALL_OBSERVE(Win_flush)
    CAPTURE_CALL_OBSERVE(Win_flush_all)
    CAPTURE_CALL_OBSERVE(Win_flush_local)
    CAPTURE_CALL_OBSERVE(Win_flush_local_all)
    CAPTURE_CALL_OBSERVE(Win_sync)
    CAPTURE_CALL_OBSERVE(Put)
    CAPTURE_CALL_OBSERVE(Get)
    CAPTURE_CALL_OBSERVE(Rput)
    CAPTURE_CALL_OBSERVE(Rget)
    CAPTURE_CALL_OBSERVE(Accumulate)
    CAPTURE_CALL_OBSERVE(Get_accumulate)
    CAPTURE_CALL_OBSERVE(Raccumulate)
    CAPTURE_CALL_OBSERVE(Rget_accumulate)
    CAPTURE_CALL_OBSERVE(Fetch_and_op)
    CAPTURE_CALL_OBSERVE(Compare_and_swap)
}
