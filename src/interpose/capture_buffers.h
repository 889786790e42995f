/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's buffers in flight (capture_buffers.c, issue 28 item 4). Needs mpi.h.
 * One MPI thread at a time. */
#ifndef MG_CAPTURE_BUFFERS_H
#define MG_CAPTURE_BUFFERS_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_comm.h"

/* Sizes the table of watched requests; with MPIGUARD_CHECK_BUFFERS=0 nothing is ever watched.
 * Errors: MG_ERROR_ENOMEM. */
int capture_buffers_init(void);
/* A point-to-point request just made (id, its function fn, comm c, the peer as passed, count x
 * type in buf; receive: a receive, persistent: a Send_init/Recv_init): watched when its message
 * is contiguous bytes. A nonblocking one goes in flight at once: a buffer that shares bytes with
 * one in flight, either of them a receive, is written as a flagged record (pending_buffers_
 * overlap) of this call, and a send's checksum is taken. A persistent one goes in flight at each
 * Start. A send of a type with gaps is summed packed (over its own duplicate of the type) and not
 * compared for shared bytes; a receive of one, MPI_PROC_NULL, or a request past the table's room
 * is not watched. */
void capture_buffers_post(uint64_t id, uint16_t fn, const capture_comm *c, int peer,
                          const void *buf, int64_t count, MPI_Datatype type, int receive,
                          int persistent);
/* A blocking point-to-point call (fn on c, the peer as passed, count x type in buf; receive: the
 * receive side) is entered: a contiguous buffer that shares bytes with a request in flight, either
 * of them a receive, is written as a flagged record (pending_buffers_overlap) of this call. Does
 * nothing while no request is in flight. */
void capture_buffers_used(uint16_t fn, const capture_comm *c, int peer, const void *buf,
                          int64_t count, MPI_Datatype type, int receive);
/* The persistent request `id` was started: it goes in flight, as a nonblocking one at its post. */
void capture_buffers_started(uint64_t id);
/* The request `id` completed: a send whose buffer's checksum changed since it went in flight gets
 * the flagged record of send_buffer_modified, on the call that put it in flight. A nonblocking
 * request is forgotten; a persistent one waits for its next Start. */
void capture_buffers_completed(uint64_t id);
/* Stops watching `id` (a request freed). */
void capture_buffers_forget(uint64_t id);

#endif
