/* The capture module's send buffers in flight (capture_buffers.h): a table, sized at MPI_Init,
 * from the request id of each nonblocking send in flight to its buffer, length, checksum
 * (buffer_watch.h) and call site; the completion compares. docs/check.md "Buffers in flight". */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_buffers.h"

#include "buffer_watch.h"
#include "capture_args.h"
#include "capture_table.h"
#include "interpose_hooks.h"
#include "mg_env.h"
#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

#pragma weak PMPI_Type_size
#pragma weak PMPI_Type_get_extent
#pragma weak PMPI_Type_get_true_extent

/* Sends watched at once; more in flight are not watched. */
enum { MAX_WATCHED = 16384 };

typedef struct watched_send {
    const void *buf;
    size_t bytes;
    uint64_t sum;
    void *site;
    const capture_comm *comm;
    uint16_t fn;
    int dest;
} watched_send;

static watched_send sends[MAX_WATCHED];
static uint32_t free_slots[MAX_WATCHED];
static uint32_t n_free;
static capture_table by_id; /* request id -> index in sends */
static int watching;        /* 0 with MPIGUARD_CHECK_BUFFERS=0 */

int capture_buffers_init(void)
{
    const char *on = getenv(MG_ENV_CHECK_BUFFERS);
    if (on && strcmp(on, "0") == 0)
        return MG_OK;
    if (capture_table_init(&by_id, MAX_WATCHED))
        return MG_ENOMEM;
    for (n_free = 0; n_free < MAX_WATCHED; n_free++)
        free_slots[n_free] = MAX_WATCHED - 1 - n_free;
    watching = 1;
    return MG_OK;
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

void capture_buffers_watch(uint64_t id, uint16_t fn, const capture_comm *c, int dest,
                           const void *buf, int64_t count, MPI_Datatype type)
{
    if (!watching || !id || !buf || count <= 0 || n_free == 0)
        return;
    size_t bytes = contiguous_bytes(type, count);
    if (!bytes)
        return;
    uint32_t slot = free_slots[n_free - 1];
    if (capture_table_put(&by_id, id, slot))
        return;
    n_free--;
    sends[slot] = (watched_send){.buf = buf,
                                 .bytes = bytes,
                                 .sum = buffer_watch_sum(buf, bytes),
                                 .site = mg_call_site,
                                 .comm = c,
                                 .fn = fn,
                                 .dest = dest};
}

/* Removes id's entry; NULL when it is not watched. */
static watched_send *take(uint64_t id)
{
    uint64_t slot;
    if (!watching || !id || !capture_table_get(&by_id, id, &slot))
        return NULL;
    capture_table_remove(&by_id, id);
    free_slots[n_free++] = (uint32_t)slot;
    return &sends[slot];
}

void capture_buffers_completed(uint64_t id)
{
    const watched_send *s = take(id);
    if (!s || buffer_watch_sum(s->buf, s->bytes) == s->sum)
        return;
    /* the finding names the send, where the buffer was handed to MPI */
    void *completion_site = mg_call_site;
    mg_call_site = s->site;
    capture_args_reject(s->fn, MG_CALL_ENTER, s->comm, USAGE_SEND_BUFFER_CHANGED, s->dest, 0,
                        (int64_t)s->bytes);
    mg_call_site = completion_site;
}

void capture_buffers_forget(uint64_t id)
{
    take(id);
}
