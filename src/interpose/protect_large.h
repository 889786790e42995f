/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Workaround W3: the MPI-4 large-count `_c` form of the intercepted collective (MPI_Gatherv_c,
 * MPI_Igatherv_c, ...) with MPI_Count counts and MPI_Aint displacements, the true ones where
 * Detector D recovered them (docs/design/collectives.md, "W3"); and the plan calls of a workaround
 * for the application's own `_c` calls, made in the `_c` form too. The `_c` functions are resolved
 * at MPI_Init in the MPI library the process loaded (dlsym: MPICH 4.0.2 has all 24, Open MPI 4.1.4
 * none), so the interposition library keeps no reference to them and loads with any MPI.
 * Needs mpi.h. */
#ifndef MG_PROTECT_LARGE_H
#define MG_PROTECT_LARGE_H

#include "protect_call.h"

/* Looks up the `_c` forms of the 24 entry points. Returns how many were found (0 on Open MPI 4.1).
 * Called once at init. */
int protect_large_setup(void);

/* Whether the library has the `_c` form of coll (blocking or nonblocking). Thread-safe. */
int protect_large_has(scaling_coll coll, int nonblocking);

/* The vectors of one W3 call, typed for the `_c` binding; NULL where the collective or this rank
 * has none (a Gatherv non-root, Reduce_scatter's displacements, an in-place Alltoallv's send
 * side). */
typedef struct protect_large_vectors {
    MPI_Count *counts_a, *counts_b;
    MPI_Aint *displs_a, *displs_b;
} protect_large_vectors;

/* Allocates (one block, *block, for free() or protect_pending_keep) and fills the vectors of pc's
 * W3 call: the application's counts widened, its displacements or true_a/true_b where given.
 * Returns 0, or -1 when out of memory (nothing allocated) or the engine refused the arguments. */
int protect_large_vectors_make(const protect_call *pc, const int64_t *true_a, const int64_t *true_b,
                               protect_large_vectors *v, void **block);

/* Issues the `_c` form of pc's collective with PMPI: the application's buffers, datatypes, root,
 * operation and scalar counts, the vectors v; nonblocking into *request when request is not NULL.
 * Returns the MPI return code, or MPI_ERR_INTERN when the library has no such function. */
int protect_large_issue(const protect_call *pc, const protect_large_vectors *v, MPI_Comm comm,
                        MPI_Request *request);

/* Issues one plan call sc of a workaround for the application's own `_c` call pc in the `_c` form:
 * the plan's buffers and datatypes (bufs), its counts, root and int vectors widened into
 * bufs->lcounts/ldispls (2P entries each, written here). Same returns as protect_large_issue. */
int protect_large_issue_call(const protect_call *pc, const scaling_args_call *sc,
                             const protect_call_bufs *bufs, MPI_Comm comm, MPI_Request *request);

#endif
