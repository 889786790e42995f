/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* One intercepted collective as the protection module holds it: the engine's view (scaling_args)
 * plus the MPI handles and buffers, and the issue of one plan call through PMPI
 * (docs/design/collectives.md, "The protection module"). Needs mpi.h. */
#ifndef MG_PROTECT_CALL_H
#define MG_PROTECT_CALL_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include "mpi_function_ids.h"
#include "scaling_args.h"

typedef struct protect_call {
    scaling_args a;
    int64_t root_count; /* Gather/Scatter(v): a.count at the root (its global buffer's count) */
    int64_t send_count, recv_count; /* the application's scalar counts as passed (0 where the call
                                       has none; Bcast and the reductions: the count in both) */
    mpi_function_ids_fn fn;         /* MG_FN_Gatherv, MG_FN_Igatherv, MG_FN_Igatherv_c, ... */
    int nonblocking;                /* the I form: request is set */
    int large; /* the MPI-4 large-count `_c` form: MPI_Count counts, and the application's
                  vectors are these (a.counts_a... unused; protect_run widens them into
                  a.counts64_a... where this rank has them) */
    const MPI_Count *lcounts_a, *lcounts_b;
    const MPI_Aint *ldispls_a, *ldispls_b;
    const void *sendbuf;
    void *recvbuf;                   /* Bcast's buffer */
    MPI_Datatype sendtype, recvtype; /* the reductions' datatype in both */
    MPI_Op op;
    MPI_Comm comm;
    MPI_Request *request;
} protect_call;

/* The buffers and datatypes one plan call uses: the user's, the staging ones, and the datatypes of
 * its element size (the user's, or W2's contiguous ones); for a large-count call, room for the plan
 * call's vectors in the `_c` binding's types (2P each: vector A, then B). */
typedef struct protect_call_bufs {
    char *stage_send, *stage_recv;
    MPI_Datatype send_type, recv_type;
    MPI_Count *lcounts;
    MPI_Aint *ldispls;
} protect_call_bufs;

/* Issues sc (one call of a plan) on comm with PMPI in the int form: the blocking collective, or the
 * nonblocking one into *request when request is not NULL (a large-count pc goes to
 * protect_large_issue_call instead). Returns the MPI return code. Thread-safe as MPI is. */
int protect_call_issue(const protect_call *pc, const scaling_args_call *sc,
                       const protect_call_bufs *bufs, MPI_Comm comm, MPI_Request *request);

/* The address a plan's buffer reference stands for (NULL for SCALING_ARGS_BUF_NONE). */
void *protect_call_addr(const protect_call *pc, const protect_call_bufs *bufs, scaling_args_ref r);

#endif
