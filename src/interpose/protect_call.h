/* One intercepted collective as the protection module holds it: the engine's view (scaling_args)
 * plus the MPI handles and buffers, and the issue of one plan call through PMPI
 * (docs/collectives.md, "The protection module"). Needs mpi.h. */
#ifndef MG_PROTECT_CALL_H
#define MG_PROTECT_CALL_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include "mpi_function_ids.h"
#include "scaling_args.h"

typedef struct protect_call {
    scaling_args a;
    int root_count;  /* Gather/Scatter(v): a.count at the root (its global-buffer side's count) */
    int send_count, recv_count; /* the application's scalar counts as passed (0 where the call has
                                   none; Bcast and the reductions: the count in both) */
    mg_fn fn;        /* MG_FN_Gatherv, MG_FN_Igatherv, ... */
    int nonblocking; /* the I form: request is set */
    const void *sendbuf;
    void *recvbuf;                   /* Bcast's buffer */
    MPI_Datatype sendtype, recvtype; /* the reductions' datatype in both */
    MPI_Op op;
    MPI_Comm comm;
    MPI_Request *request;
} protect_call;

/* The buffers and datatypes one plan call uses: the user's, the staging ones, and the datatypes of
 * its element size (the user's, or W2's contiguous ones). */
typedef struct protect_bufs {
    char *stage_send, *stage_recv;
    MPI_Datatype send_type, recv_type;
} protect_bufs;

/* Issues sc (one call of a plan) on comm with PMPI: the blocking collective, or the nonblocking one
 * into *request when request is not NULL. Returns the MPI return code. Thread-safe as MPI is. */
int protect_call_issue(const protect_call *pc, const scaling_call *sc, const protect_bufs *bufs,
                       MPI_Comm comm, MPI_Request *request);

/* The address a plan's buffer reference stands for (NULL for SCALING_BUF_NONE). */
void *protect_call_addr(const protect_call *pc, const protect_bufs *bufs, scaling_ref r);

#endif
