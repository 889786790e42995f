/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's writer state: the rank's ring, its sequence numbers, the encoding buffer,
 * the request and message ids it hands out, and the scratch arrays a Wait/Test call needs, all
 * sized at MPI_Init (docs/design/check.md "How it is built"). Needs mpi.h. One MPI thread at a
 * time. */
#ifndef MG_CAPTURE_EMIT_H
#define MG_CAPTURE_EMIT_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_comm.h"
#include "check_event.h"
#include "mpi_function_ids.h"

/* Requests, statuses and indices captured in full per Wait/Test call; a longer array is captured
 * up to this many (the rest count as lost). */
#define CAPTURE_EMIT_MAX_ARRAY 16384

/* A live request the module handed an id to. */
typedef struct capture_emit_request {
    uint64_t id;
    const capture_comm *comm; /* for translating the status source to a world rank */
    int persistent;
    /* The request the same handle named before: MPICH hands the one handle of a builtin complete
     * request to every send it completes at once, and the program waits on each copy. */
    struct capture_emit_request *shadowed;
} capture_emit_request;

/* Scratch for one call (one MPI thread at a time). */
typedef struct capture_emit_scratch {
    uint64_t *ids;               /* request ids of the call's array, 0 for null/unknown */
    capture_emit_request **reqs; /* their entries, NULL for null/unknown */
    check_event_status *statuses;
    MPI_Status *mpi_statuses; /* stands in for MPI_STATUSES_IGNORE so wildcard decisions are seen */
    MPI_Request *handles;     /* the handles before the call (MPI nulls completed ones) */
    int32_t *ranks;           /* members of a new communicator: 2 * world size */
} capture_emit_scratch;

extern capture_emit_scratch capture_emit_tmp;

/* Opens the ring and allocates everything. Errors: MG_ERROR_ESYS, MG_ERROR_ENOMEM (logged by the
 * caller). */
int capture_emit_init(const char *token, int rank, int size, size_t ring_bytes);
/* Writes the Finalize record and leaves the ring open: the calls a rank makes after MPI_Finalize
 * are recorded after it, until capture_emit_close at the process's end. Later calls do nothing. */
void capture_emit_finalize(void);
/* Writes the end of the stream, a record of last_fn (CHECK_EVENT_FN_FINALIZE, _ABORT or _EXIT)
 * unless capture_emit_finalize wrote the Finalize record already, and closes the ring; later calls
 * do nothing. */
void capture_emit_close(uint16_t last_fn);
/* Waits until a reader has attached (it has then read the rank's module map: event_ring_claim)
 * and read every record written, at most EVENT_RING_FINALIZE_WAIT_NS in all: before a rank ends
 * on an error, so that the records are seen before the job is torn down and their call sites
 * resolve. */
void capture_emit_wait_read(void);

/* A record for fn with the defaults (world ranks filled by the caller). */
check_event capture_emit_event(uint16_t fn, uint8_t kind, const capture_comm *comm);
/* Numbers, encodes and appends ev; an entry marks the rank as in that call until its exit. */
void capture_emit(check_event *ev);

/* Request ids: capture_emit_request_new gives the next id (never 0, never reused); _bind maps the
 * handle MPI returned to it (a handle bound already then names both: the newer first, the older
 * through its `shadowed`); _find looks a handle up (its newest request); _drop forgets request r
 * of the handle (NULL: its newest). */
uint64_t capture_emit_request_new(void);
void capture_emit_request_bind(MPI_Request handle, uint64_t id, const capture_comm *comm,
                               int persistent);
capture_emit_request *capture_emit_request_find(MPI_Request handle);
void capture_emit_request_drop(MPI_Request handle, const capture_emit_request *r);
/* MPI handed out handle for a request the module does not track (Rput, Rget, Comm_idup): a freed
 * request's handle that MPI reuses so no longer reads as freed. */
void capture_emit_request_untracked(MPI_Request handle);
/* 1 when handle names no live request but one that was freed since (by MPI_Request_free, or by
 * the completion that nulled the program's own handle), and MPI has not handed it out again:
 * a copy the program kept. */
int capture_emit_request_freed(MPI_Request handle);
/* After a successful call of fn whose effect the detector does not model: its
 * CHECK_EVENT_FN_UNMODELLED record, the rank's first time only. */
void capture_emit_unmodelled(mpi_function_ids_fn fn);
/* Message ids of Mprobe/Improbe -> Mrecv/Imrecv. */
uint64_t capture_emit_message_bind(MPI_Message handle);
uint64_t capture_emit_message_take(MPI_Message handle);
/* Op ids: builtin ops 1..14, user ops 64 + creation order (identical on every rank that creates
 * its ops in the same order); the id of an op freed since (not handed out again by MPI) has
 * CAPTURE_EMIT_OP_FREED set. */
#define CAPTURE_EMIT_OP_FREED (UINT32_C(1) << 31)
uint32_t capture_emit_op_id(MPI_Op op);
void capture_emit_op_bind(MPI_Op op);
/* Marks a user op freed: MPI_Op_free succeeded on it. */
void capture_emit_op_release(MPI_Op op);

#endif
