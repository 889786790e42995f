/* The capture module's writer state (capture_emit.h). */
#include "capture_emit.h"
#include "handle_bits.h"

#include "capture_table.h"
#include "event_ring.h"
#include "interpose_hooks.h"
#include "mg_error.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Live requests and messages a rank can hold at once; past that a request goes untracked (its
 * completion is then unknown to the detector, which ignores it). */
enum { MAX_REQUESTS = 1 << 16, MAX_MESSAGES = 1024, MAX_OPS = 256 };

capture_emit_scratch capture_emit_tmp;

static event_ring_writer ring;
static int my_rank;
static uint64_t seq, next_request, next_message;
static uint32_t next_user_op = CHECK_EVENT_OP_USER;
static uint8_t *encbuf;
/* The stream's last record is written (closed), or its Finalize record only (finalized: calls
 * after it may still come, until the process ends). */
static int finalized, closed;
static size_t enccap;
static capture_table requests, messages, ops;
/* Handles of requests freed and not handed out again since: a copy of one passed to a call is
 * reported (request_freed). */
static capture_table freed_requests;
static capture_emit_request *pool;
static uint32_t *free_slots, nfree;
static MPI_Op builtin_ops[CHECK_EVENT_OP_NO_OP]; /* [id - 1]: the handle of builtin op id */
/* The process has the MPI's C++ bindings, so a call site may lie in one of their functions and
 * each record carries its caller's site (caller_site); a C or Fortran process never walks. */
static int walk_callers;

static uint64_t key_of(const void *handle, size_t size)
{
    return mg_handle_bits(handle, size);
}

/* Whether the MPI's C++ bindings are in the process: MPI::COMM_WORLD is defined by their library
 * (Open MPI's libmpi_cxx, MPICH's libmpichcxx), which every program using them links, and a
 * program's binary that names it holds a copy of its own; a C or Fortran program has neither. */
static int has_cxx_bindings(void)
{
    return dlsym(RTLD_DEFAULT, "_ZN3MPI10COMM_WORLDE") != NULL;
}

int capture_emit_init(const char *token, int rank, int size, size_t ring_bytes)
{
    my_rank = rank;
    int rc = event_ring_create(&ring, token, rank, size, ring_bytes);
    if (rc)
        return rc;
    enccap = CHECK_EVENT_HEADER_SIZE + CHECK_EVENT_CALLER_SIZE +
             (size_t)CAPTURE_EMIT_MAX_ARRAY * (CHECK_EVENT_REQUEST_SIZE + CHECK_EVENT_STATUS_SIZE) +
             (size_t)size * 2 * CHECK_EVENT_RANK_SIZE;
    encbuf = malloc(enccap);
    capture_emit_tmp.ids = calloc(CAPTURE_EMIT_MAX_ARRAY, sizeof *capture_emit_tmp.ids);
    capture_emit_tmp.reqs = calloc(CAPTURE_EMIT_MAX_ARRAY, sizeof *capture_emit_tmp.reqs);
    capture_emit_tmp.statuses = calloc(CAPTURE_EMIT_MAX_ARRAY, sizeof *capture_emit_tmp.statuses);
    capture_emit_tmp.mpi_statuses = calloc(CAPTURE_EMIT_MAX_ARRAY,
                                           sizeof *capture_emit_tmp.mpi_statuses);
    capture_emit_tmp.handles = calloc(CAPTURE_EMIT_MAX_ARRAY, sizeof *capture_emit_tmp.handles);
    capture_emit_tmp.ranks = calloc(2 * (size_t)size + 2, sizeof *capture_emit_tmp.ranks);
    pool = calloc(MAX_REQUESTS, sizeof *pool);
    free_slots = malloc(MAX_REQUESTS * sizeof *free_slots);
    if (!encbuf || !capture_emit_tmp.ids || !capture_emit_tmp.reqs || !capture_emit_tmp.statuses ||
        !capture_emit_tmp.mpi_statuses || !capture_emit_tmp.handles || !capture_emit_tmp.ranks ||
        !pool || !free_slots || capture_table_init(&requests, MAX_REQUESTS) ||
        capture_table_init(&freed_requests, MAX_REQUESTS) ||
        capture_table_init(&messages, MAX_MESSAGES) || capture_table_init(&ops, MAX_OPS))
        return MG_ERROR_ENOMEM;
    for (nfree = 0; nfree < MAX_REQUESTS; nfree++)
        free_slots[nfree] = MAX_REQUESTS - 1 - nfree;
    /* In check_event_op order. */
    const MPI_Op builtin[CHECK_EVENT_OP_NO_OP] = {
        MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
        MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    memcpy(builtin_ops, builtin, sizeof builtin_ops);
    walk_callers = has_cxx_bindings();
    return MG_ERROR_OK;
}

static void emit_end(uint16_t last_fn)
{
    check_event ev = capture_emit_event(last_fn, CHECK_EVENT_EV_ENTER, NULL);
    ev.comm = CHECK_EVENT_COMM_WORLD;
    capture_emit(&ev);
}

void capture_emit_finalize(void)
{
    if (finalized || closed)
        return;
    finalized = 1;
    emit_end(CHECK_EVENT_FN_FINALIZE);
}

void capture_emit_close(uint16_t last_fn)
{
    if (closed)
        return;
    closed = 1;
    if (!finalized)
        emit_end(last_fn);
    event_ring_close(&ring, last_fn == CHECK_EVENT_FN_ABORT && !finalized ? EVENT_RING_ABORTED
                                                                          : EVENT_RING_FINALIZED);
}

void capture_emit_wait_read(void)
{
    event_ring_header *h = ring.hdr;
    struct timespec step = {0, 1000000};
    long long waited = 0;
    for (; h && waited < EVENT_RING_FINALIZE_WAIT_NS &&
           (atomic_load_explicit(&h->reader_pid, memory_order_acquire) == 0 ||
            atomic_load_explicit(&h->tail, memory_order_acquire) !=
                atomic_load_explicit(&h->head, memory_order_acquire));
         waited += step.tv_nsec)
        nanosleep(&step, NULL);
}

check_event capture_emit_event(uint16_t fn, uint8_t kind, const capture_comm *comm)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.func = fn;
    ev.comm = comm ? comm->id : CHECK_EVENT_COMM_WORLD;
    ev.root = CHECK_EVENT_NO_ROOT;
    return ev;
}

/* The most frames walked from the record's writer up to the function the wrapper tail-called (a
 * replacement or an observer calls capture_emit a few frames down). */
enum { CALLER_WALK_DEPTH = 8 };

/* The top of this thread's stack (its highest address), read once per thread: every address from
 * a live frame up to it is mapped. 0 when unknown. */
static uintptr_t stack_top(void)
{
    static _Thread_local uintptr_t top INTERPOSE_HOOKS_TLS_FAST, known INTERPOSE_HOOKS_TLS_FAST;
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (!known && pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &low, &size) == 0)
            top = (uintptr_t)low + size;
        pthread_attr_destroy(&attr);
    }
    known = 1;
    return top;
}

/* Whether next, read from frame as the frame pointer its caller saved, is a frame further up this
 * live stack, where reading two words never faults. */
static int frame_above(uintptr_t next, void **frame, uintptr_t top)
{
    return next > (uintptr_t)frame && next % sizeof(void *) == 0 && top >= 2 * sizeof(void *) &&
           next <= top - 2 * sizeof(void *);
}

/* The return address one frame above the call site's, or 0: the program's line when the site lies
 * in a C++ binding's own function (-O0), which the agent alone can tell (check_agent.c). The
 * function the wrapper entered by its tail call (the hooked route or a replacement) is the frame
 * whose return address is the call site, and the frame pointer it saved is the caller's. The
 * module's code and the hooked route keep frame pointers, so the walk reaches it in a few steps;
 * the caller keeps one at -O0 only, so elsewhere it may hold anything: it is followed only into the
 * live stack above, and never faults. */
static uint64_t caller_site(void)
{
    uintptr_t top = stack_top();
    void **frame = __builtin_frame_address(0);
    for (int depth = 0; depth < CALLER_WALK_DEPTH && interpose_call_site; depth++) {
        uintptr_t next = (uintptr_t)frame[0];
        if (!frame_above(next, frame, top))
            return 0;
        if (frame[1] == interpose_call_site)
            return (uint64_t)(uintptr_t)((void **)next)[1];
        frame = (void **)next;
    }
    return 0;
}

void capture_emit(check_event *ev)
{
    ev->rank = my_rank;
    ev->seq = ++seq;
    ev->callsite = (uint64_t)(uintptr_t)interpose_call_site;
    if (walk_callers && (ev->caller_site = caller_site()))
        ev->flags |= CHECK_EVENT_FLAG_CALLER_SITE;
    size_t n;
    if (check_event_encode(ev, encbuf, enccap, &n) != MG_ERROR_OK) {
        atomic_fetch_add_explicit(&ring.hdr->lost, 1, memory_order_relaxed);
        return;
    }
    event_ring_write(&ring, encbuf, (uint32_t)n);
    atomic_store_explicit(&ring.hdr->in_call_seq, ev->kind == CHECK_EVENT_EV_ENTER ? ev->seq : 0,
                          memory_order_release);
}

uint64_t capture_emit_request_new(void)
{
    return ++next_request;
}

void capture_emit_request_bind(MPI_Request handle, uint64_t id, const capture_comm *comm,
                               int persistent)
{
    capture_emit_request_untracked(handle);
    if (handle == MPI_REQUEST_NULL || nfree == 0)
        return;
    uint32_t slot = free_slots[nfree - 1];
    capture_emit_request *older = capture_emit_request_find(handle);
    if (capture_table_put(&requests, key_of(&handle, sizeof handle), slot) != MG_ERROR_OK)
        return;
    nfree--;
    pool[slot] = (capture_emit_request){
        .id = id, .comm = comm, .persistent = persistent, .shadowed = older};
}

capture_emit_request *capture_emit_request_find(MPI_Request handle)
{
    uint64_t slot;
    if (handle == MPI_REQUEST_NULL ||
        !capture_table_get(&requests, key_of(&handle, sizeof handle), &slot))
        return NULL;
    return &pool[slot];
}

void capture_emit_request_drop(MPI_Request handle, const capture_emit_request *r)
{
    uint64_t key = key_of(&handle, sizeof handle);
    capture_emit_request *newest = capture_emit_request_find(handle);
    if (!newest)
        return;
    if (!r || r == newest) {
        if (newest->shadowed) {
            capture_table_put(&requests, key, (uint64_t)(newest->shadowed - pool));
        } else {
            capture_table_remove(&requests, key);
            /* past the table's room a freed handle is simply not reported */
            (void)capture_table_put(&freed_requests, key, 0);
        }
        free_slots[nfree++] = (uint32_t)(newest - pool);
        return;
    }
    for (capture_emit_request *p = newest; p->shadowed; p = p->shadowed)
        if (p->shadowed == r) {
            p->shadowed = r->shadowed;
            free_slots[nfree++] = (uint32_t)(r - pool);
            return;
        }
}

void capture_emit_request_untracked(MPI_Request handle)
{
    capture_table_remove(&freed_requests, key_of(&handle, sizeof handle));
}

int capture_emit_request_freed(MPI_Request handle)
{
    uint64_t unused;
    return handle != MPI_REQUEST_NULL && !capture_emit_request_find(handle) &&
           capture_table_get(&freed_requests, key_of(&handle, sizeof handle), &unused);
}

void capture_emit_unmodelled(mpi_function_ids_fn fn)
{
    static uint8_t said[MG_FN_COUNT];
    if (said[fn])
        return;
    said[fn] = 1;
    /* an exit's kind: the call has returned, the rank is in no call */
    check_event ev = capture_emit_event(CHECK_EVENT_FN_UNMODELLED, CHECK_EVENT_EV_EXIT, NULL);
    ev.result = (int32_t)fn;
    capture_emit(&ev);
}

uint64_t capture_emit_message_bind(MPI_Message handle)
{
    uint64_t id = ++next_message;
    capture_table_put(&messages, key_of(&handle, sizeof handle), id);
    return id;
}

uint64_t capture_emit_message_take(MPI_Message handle)
{
    uint64_t id = 0, key = key_of(&handle, sizeof handle);
    if (capture_table_get(&messages, key, &id))
        capture_table_remove(&messages, key);
    return id;
}

uint32_t capture_emit_op_id(MPI_Op op)
{
    for (uint32_t i = 0; i < sizeof builtin_ops / sizeof *builtin_ops; i++)
        if (builtin_ops[i] == op)
            return i + 1;
    uint64_t id = 0;
    capture_table_get(&ops, key_of(&op, sizeof op), &id);
    return (uint32_t)id;
}

void capture_emit_op_bind(MPI_Op op)
{
    capture_table_put(&ops, key_of(&op, sizeof op), next_user_op++);
}

void capture_emit_op_release(MPI_Op op)
{
    uint64_t id, key = key_of(&op, sizeof op);
    if (capture_table_get(&ops, key, &id))
        capture_table_put(&ops, key, id | CAPTURE_EMIT_OP_FREED);
}
