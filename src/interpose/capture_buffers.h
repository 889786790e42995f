/* The capture module's send buffers in flight (capture_buffers.c, issue 28 item 4). Needs mpi.h.
 * One MPI thread at a time. */
#ifndef MG_CAPTURE_BUFFERS_H
#define MG_CAPTURE_BUFFERS_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_comm.h"

/* Sizes the table of watched sends; with MPIGUARD_CHECK_BUFFERS=0 nothing is ever watched.
 * Errors: MG_ENOMEM. */
int capture_buffers_init(void);
/* Takes the checksum of a nonblocking send just posted (request id, its function fn, comm c, the
 * destination as passed, count x type in buf) when the message is contiguous bytes; a send of a
 * type with gaps, or past the table's room, is not watched. */
void capture_buffers_watch(uint64_t id, uint16_t fn, const capture_comm *c, int dest,
                           const void *buf, int64_t count, MPI_Datatype type);
/* The send `id` completed: when its buffer's checksum changed since the post, writes the flagged
 * record of the send (its function, communicator and call site); stops watching it either way. */
void capture_buffers_completed(uint64_t id);
/* Stops watching `id` (a request freed before its completion was seen). */
void capture_buffers_forget(uint64_t id);

#endif
