/* The capture module's buffers in flight (capture_buffers.h): a table, sized at MPI_Init, from the
 * request id of each nonblocking or persistent point-to-point call to its buffer, length, call
 * site and, for a send, its checksum (buffer_watch.h; a type with gaps is packed first); the
 * requests in flight are also listed densely, so a new one is compared with each of them for shared
 * bytes. The completion compares the checksum. docs/design/check-classes.md "Buffers in flight". */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_buffers.h"

#include "buffer_watch.h"
#include "capture_args.h"
#include "capture_table.h"
#include "interpose_hooks.h"
#include "mg_env.h"
#include "mg_error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#pragma weak PMPI_Type_size
#pragma weak PMPI_Type_get_extent
#pragma weak PMPI_Type_get_true_extent
#pragma weak PMPI_Type_dup
#pragma weak PMPI_Type_free
#pragma weak PMPI_Pack
#pragma weak PMPI_Pack_size

/* Requests watched at once; more are not watched. A send of a type with gaps is packed to be
 * summed: one of more than MAX_PACKED bytes is not watched. */
enum { MAX_WATCHED = 16384, MAX_PACKED = 64 << 20 };
/* `at` of a request not in flight (a persistent one between its completion and its Start). */
enum { IDLE = UINT32_MAX };

typedef struct watched_request {
    const unsigned char *buf;
    size_t bytes; /* the span of a contiguous message; the packed size of one with gaps */
    /* A send of a type with gaps: its own duplicate of the type (the program may free its
     * handle while the send is pending), count elements, summed packed; MPI_DATATYPE_NULL for
     * a contiguous message, whose span is summed and compared with the others in flight. */
    MPI_Datatype gaps;
    int count;
    uint64_t sum; /* a send's, taken when it went in flight */
    void *site;   /* the call that put it in flight: the post, or the Start */
    const capture_comm *comm;
    uint16_t fn;
    int peer;
    uint8_t receive;    /* MPI may write its bytes until the completion */
    uint8_t persistent; /* kept from its completion to the next Start, until Request_free */
    uint8_t summed;     /* a send whose sum was taken when it went in flight */
    uint32_t at;        /* its index in `in_flight`, or IDLE */
} watched_request;

static watched_request watched[MAX_WATCHED];
static uint32_t free_slots[MAX_WATCHED];
static uint32_t n_free;
static uint32_t in_flight[MAX_WATCHED]; /* slots of the requests posted or started, not completed */
static uint32_t n_in_flight;
static capture_table by_id;   /* request id -> slot */
static int watching;          /* 0 with MPIGUARD_CHECK_BUFFERS=0 */
static unsigned char *packed; /* room for the largest message with gaps summed so far */
static size_t packed_room;

int capture_buffers_init(void)
{
    const char *on = getenv(MG_ENV_CHECK_BUFFERS);
    if (on && strcmp(on, "0") == 0)
        return MG_ERROR_OK;
    if (capture_table_init(&by_id, MAX_WATCHED))
        return MG_ERROR_ENOMEM;
    for (n_free = 0; n_free < MAX_WATCHED; n_free++)
        free_slots[n_free] = MAX_WATCHED - 1 - n_free;
    watching = 1;
    return MG_ERROR_OK;
}

/* The bytes count x type spans when it has no gaps (size, extent and true extent agree, lower
 * bounds 0); 0 otherwise. */
static size_t contiguous_bytes(MPI_Datatype type, int64_t count)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return 0;
    if (lb != 0 || true_lb != 0 || extent != size || true_extent != size)
        return 0;
    return (size_t)count * (size_t)size;
}

/* The packed size of count x type (a type with gaps), or 0 when it cannot be watched. */
static size_t packed_bytes(MPI_Datatype type, int64_t count)
{
    int size;
    if (count > INT_MAX || PMPI_Pack_size((int)count, type, MPI_COMM_SELF, &size) != MPI_SUCCESS ||
        size > MAX_PACKED)
        return 0;
    return (size_t)size;
}

/* The checksum of w's message: its span, or its packed bytes (the type map's blocks in order,
 * without the gaps, which the program may write); 0 with the sum unchanged when packing fails. */
static int sum_of(const watched_request *w, uint64_t *sum)
{
    if (w->gaps == MPI_DATATYPE_NULL) {
        *sum = buffer_watch_sum(w->buf, w->bytes);
        return 1;
    }
    if (packed_room < w->bytes) {
        unsigned char *more = realloc(packed, w->bytes);
        if (!more)
            return 0;
        packed = more;
        packed_room = w->bytes;
    }
    int position = 0;
    if (PMPI_Pack(w->buf, w->count, w->gaps, packed, (int)packed_room, &position, MPI_COMM_SELF) !=
        MPI_SUCCESS)
        return 0;
    *sum = buffer_watch_sum(packed, (size_t)position);
    return 1;
}

/* Writes the flagged record of problem for request w, on the call site it was put in flight at. */
static void report(const watched_request *w, usage_args_problem problem)
{
    void *current_site = interpose_call_site;
    interpose_call_site = w->site;
    capture_args_reject(w->fn, INTERPOSE_HOOKS_CALL_ENTER, w->comm, problem, w->peer, 0,
                        (int64_t)w->bytes);
    interpose_call_site = current_site;
}

/* 1 when w and a request already in flight share a byte and one of them is a receive (MPI 3.1
 * §3.7.2: a receive buffer is MPI's until the completion; two sends may share bytes). */
static int overlaps_in_flight(const watched_request *w)
{
    for (uint32_t i = 0; i < n_in_flight; i++) {
        const watched_request *o = &watched[in_flight[i]];
        if (o->gaps == MPI_DATATYPE_NULL && (w->receive || o->receive) &&
            w->buf < o->buf + o->bytes && o->buf < w->buf + w->bytes)
            return 1;
    }
    return 0;
}

/* Puts slot's request in flight from the current call: compared with the others, summed. */
static void go_in_flight(uint32_t slot)
{
    watched_request *w = &watched[slot];
    w->site = interpose_call_site;
    if (w->gaps == MPI_DATATYPE_NULL && overlaps_in_flight(w))
        report(w, USAGE_ARGS_BUFFERS_OVERLAP);
    w->summed = !w->receive && sum_of(w, &w->sum);
    w->at = n_in_flight;
    in_flight[n_in_flight++] = slot;
}

static void land(watched_request *w)
{
    uint32_t last = in_flight[--n_in_flight];
    in_flight[w->at] = last;
    watched[last].at = w->at;
    w->at = IDLE;
}

void capture_buffers_post(uint64_t id, uint16_t fn, const capture_comm *c, int peer,
                          const void *buf, int64_t count, MPI_Datatype type, int receive,
                          int persistent)
{
    if (!watching || !id || !buf || count <= 0 || peer == MPI_PROC_NULL || n_free == 0)
        return;
    MPI_Datatype gaps = MPI_DATATYPE_NULL;
    size_t bytes = contiguous_bytes(type, count);
    if (!bytes && !receive) {
        bytes = packed_bytes(type, count);
        if (bytes && PMPI_Type_dup(type, &gaps) != MPI_SUCCESS)
            return;
    }
    uint32_t slot = free_slots[n_free - 1];
    if (!bytes || capture_table_put(&by_id, id, slot)) {
        if (gaps != MPI_DATATYPE_NULL)
            PMPI_Type_free(&gaps);
        return;
    }
    n_free--;
    watched[slot] = (watched_request){.buf = buf,
                                      .bytes = bytes,
                                      .gaps = gaps,
                                      .count = (int)count,
                                      .comm = c,
                                      .fn = fn,
                                      .peer = peer,
                                      .receive = (uint8_t) !!receive,
                                      .persistent = (uint8_t) !!persistent,
                                      .at = IDLE};
    if (!persistent)
        go_in_flight(slot);
}

void capture_buffers_used(uint16_t fn, const capture_comm *c, int peer, const void *buf,
                          int64_t count, MPI_Datatype type, int receive)
{
    if (!watching || n_in_flight == 0 || !buf || count <= 0 || peer == MPI_PROC_NULL)
        return;
    watched_request w = {.buf = buf,
                         .bytes = contiguous_bytes(type, count),
                         .gaps = MPI_DATATYPE_NULL,
                         .site = interpose_call_site,
                         .comm = c,
                         .fn = fn,
                         .peer = peer,
                         .receive = (uint8_t) !!receive};
    if (w.bytes && overlaps_in_flight(&w))
        report(&w, USAGE_ARGS_BUFFERS_OVERLAP);
}

static watched_request *find(uint64_t id, uint64_t *slot)
{
    if (!watching || !id || !capture_table_get(&by_id, id, slot))
        return NULL;
    return &watched[*slot];
}

void capture_buffers_started(uint64_t id)
{
    uint64_t slot;
    const watched_request *w = find(id, &slot);
    if (w && w->at == IDLE)
        go_in_flight((uint32_t)slot);
}

void capture_buffers_completed(uint64_t id)
{
    uint64_t slot;
    watched_request *w = find(id, &slot);
    if (!w || w->at == IDLE)
        return;
    land(w);
    uint64_t sum;
    if (w->summed && sum_of(w, &sum) && sum != w->sum)
        report(w, USAGE_ARGS_SEND_BUFFER_CHANGED);
    if (!w->persistent)
        capture_buffers_forget(id);
}

void capture_buffers_forget(uint64_t id)
{
    uint64_t slot;
    watched_request *w = find(id, &slot);
    if (!w)
        return;
    if (w->at != IDLE)
        land(w);
    if (w->gaps != MPI_DATATYPE_NULL)
        PMPI_Type_free(&w->gaps);
    capture_table_remove(&by_id, id);
    free_slots[n_free++] = (uint32_t)slot;
}
