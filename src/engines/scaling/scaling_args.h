/* One collective call as one rank sees it (the input of the detectors and planners), and the
 * instructions a plan hands back: MPI calls on buffer references and copies between buffers
 * (docs/collectives-engine.md §4.1). */
#ifndef SCALING_ARGS_H
#define SCALING_ARGS_H

#include <stdint.h>

#include "scaling_coll.h"

/* The arguments of a collective call on one rank. The engine assumes one datatype of size type_size
 * for both sides (same type, or types of equal size and count); the caller passes calls whose send
 * and receive types differ in size straight through.
 *
 * count: Bcast/Reduce/Allreduce n; Scatter/Gather/Allgather/Alltoall the per-process count n
 * (sendcount == recvcount); Gatherv and Allgatherv this rank's sendcount; Scatterv this rank's
 * recvcount; unused for Alltoallv and Reduce_scatter.
 * Vector A (see scaling_coll.h): counts_a/displs_a; vector B (Alltoallv receive side):
 * counts_b/displs_b. For Gatherv/Scatterv they are read at the root only (NULL elsewhere).
 * Reduce_scatter has counts_a (recvcounts) and no displacements. An in-place Alltoallv needs only
 * vector B (MPI ignores the send vector).
 * in_place: this rank passed MPI_IN_PLACE (sendbuf; recvbuf for Scatter(v) at the root). */
typedef struct scaling_args {
    scaling_coll coll;
    uint32_t nprocs, rank, root;
    uint64_t type_size;
    int in_place;
    int64_t count;
    const int *counts_a, *displs_a;
    const int *counts_b, *displs_b;
} scaling_args;

/* Whether this rank holds the argument vectors of its collective (non-rooted irregular
 * collectives everywhere, Gatherv/Scatterv at the root only). */
int scaling_args_has_vectors(const scaling_args *a);

/* Checks the shape of a: known collective, P > 0, rank and root < P, type_size > 0, count >= 0 when
 * used, the vectors present where the collective has them on this rank, in_place only where
 * allowed. Returns 0 or MG_EINVAL. */
int scaling_args_validate(const scaling_args *a);

/* Buffers a plan refers to. USER_SEND/USER_RECV are the application's buffers (Bcast's single
 * buffer is USER_RECV); STAGE_SEND/STAGE_RECV are staging buffers the caller allocates with the
 * sizes the plan gives; IN_PLACE stands for MPI_IN_PLACE; NONE for an argument that does not
 * matter. */
typedef enum scaling_buf {
    SCALING_BUF_NONE,
    SCALING_BUF_USER_SEND,
    SCALING_BUF_USER_RECV,
    SCALING_BUF_STAGE_SEND,
    SCALING_BUF_STAGE_RECV,
    SCALING_BUF_IN_PLACE,
} scaling_buf;

typedef struct scaling_ref {
    scaling_buf buf;
    int64_t off; /* bytes from the start of buf */
} scaling_ref;

/* One MPI call of a plan on one rank: the collective of the original call (the paper's rule: a
 * workaround uses the collective itself) with datatype size elem_size (a contiguous type of
 * elem_size / type_size original elements when they differ, W2), on the communicator the plan
 * names. The vectors point to caller-provided arrays of nprocs ints and are filled only where the
 * collective has them on this rank; for Alltoallv vector A is the send side and B the receive side.
 */
typedef struct scaling_call {
    uint64_t elem_size;
    scaling_ref send, recv;
    int send_count,
        recv_count; /* regular collectives, and the scalar side of Gatherv/Scatterv/Allgatherv */
    uint32_t root;  /* rank of the root in the call's communicator */
    int *counts_a, *displs_a;
    int *counts_b, *displs_b;
} scaling_call;

/* A copy of bytes between two buffers, done by the caller (memcpy) around a call. */
typedef struct scaling_copy {
    scaling_ref from, to;
    int64_t bytes;
} scaling_copy;

#endif
