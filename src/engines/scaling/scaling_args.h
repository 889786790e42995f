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
 * in_place: this rank passed MPI_IN_PLACE (sendbuf; recvbuf for Scatter(v) at the root).
 * large: the call is an MPI-4 large-count `_c` form, whose vectors are 64-bit (MPI_Count counts,
 * MPI_Aint displacements): counts64_a/displs64_a/counts64_b/displs64_b take the place of the int
 * vectors (which are then ignored), with the same rules. Nothing wraps in them, so Detector D does
 * not run; a negative count is a user error, a negative displacement is taken as it is. Read the
 * vectors of either form through scaling_args_count and scaling_args_displ. */
typedef struct scaling_args {
    scaling_coll coll;
    uint32_t nprocs, rank, root;
    uint64_t type_size;
    int in_place;
    int64_t count;
    const int *counts_a, *displs_a;
    const int *counts_b, *displs_b;
    int large;
    const int64_t *counts64_a, *displs64_a;
    const int64_t *counts64_b, *displs64_b;
} scaling_args;

/* Vector A (b = 0) or B (b = 1) of a: whether it has counts or displacements on this rank, and
 * entry i as passed (the int value, which may have wrapped, or the 64-bit one of a large call). */
static inline int scaling_args_has_counts(const scaling_args *a, int b)
{
    return a->large ? (b ? a->counts64_b : a->counts64_a) != NULL
                    : (b ? a->counts_b : a->counts_a) != NULL;
}

static inline int scaling_args_has_displs(const scaling_args *a, int b)
{
    return a->large ? (b ? a->displs64_b : a->displs64_a) != NULL
                    : (b ? a->displs_b : a->displs_a) != NULL;
}

static inline int64_t scaling_args_count(const scaling_args *a, int b, uint32_t i)
{
    return a->large ? (b ? a->counts64_b : a->counts64_a)[i] : (b ? a->counts_b : a->counts_a)[i];
}

static inline int64_t scaling_args_displ(const scaling_args *a, int b, uint32_t i)
{
    return a->large ? (b ? a->displs64_b : a->displs64_a)[i] : (b ? a->displs_b : a->displs_a)[i];
}

/* Whether this rank holds the argument vectors of its collective (non-rooted irregular
 * collectives everywhere, Gatherv/Scatterv at the root only). */
int scaling_args_has_vectors(const scaling_args *a);

/* Checks the shape of a: known collective, P > 0, rank and root < P, type_size > 0, count >= 0 when
 * used, the vectors present where the collective has them on this rank, in_place only where
 * allowed. Returns 0 or MG_ERROR_EINVAL. */
int scaling_args_validate(const scaling_args *a);

/* Buffers a plan refers to. USER_SEND/USER_RECV are the application's buffers (Bcast's single
 * buffer is USER_RECV); STAGE_SEND/STAGE_RECV are staging buffers the caller allocates with the
 * sizes the plan gives; IN_PLACE stands for MPI_IN_PLACE; NONE for an argument that does not
 * matter. */
typedef enum scaling_args_buf {
    SCALING_ARGS_BUF_NONE,
    SCALING_ARGS_BUF_USER_SEND,
    SCALING_ARGS_BUF_USER_RECV,
    SCALING_ARGS_BUF_STAGE_SEND,
    SCALING_ARGS_BUF_STAGE_RECV,
    SCALING_ARGS_BUF_IN_PLACE,
} scaling_args_buf;

typedef struct scaling_args_ref {
    scaling_args_buf buf;
    int64_t off; /* bytes from the start of buf */
} scaling_args_ref;

/* One MPI call of a plan on one rank: the collective of the original call (the paper's rule: a
 * workaround uses the collective itself), or, where v_form says so, its V-form (Gatherv for a
 * Gather, Scatterv, Allgatherv, Alltoallv): the same data movement, its blocks described by a
 * count and a displacement per rank instead of one count. elem_size is the datatype size (a
 * contiguous type of elem_size / type_size original elements when they differ, W2); the call runs
 * on the communicator the plan names. The vectors point to caller-provided arrays of nprocs ints
 * and are filled only where the collective the call issues has them on this rank; for Alltoallv
 * vector A is the send side and B the receive side.
 *
 * v_form: 0 (a zeroed call, and every plan but W1-B's) is the original collective, so that a plan
 * maker that knows nothing of V-forms issues the collective it was given; 1 (W1-B on Gather,
 * Scatter, Allgather, Alltoall) is its V-form. Every rank of a call must set it alike: MPI does not
 * match a Gather on one rank with a Gatherv on another. Read it through scaling_call_coll.
 *
 * send_stride/recv_stride (elements; W1-B on Gather, Scatter, Allgather, Alltoall whose V-form
 * displacements would not fit in int) let a side of a regular collective take a slice of every
 * block of the user's global buffer in place: 0 is the usual layout, the blocks of
 * send_count/recv_count elements back to back; s > 0 says block i starts i s elements after the
 * side's reference. The executor passes such a side as one element per rank of a type of
 * send_count/recv_count elements resized to an extent of s elements (MPI_Type_contiguous +
 * MPI_Type_create_resized): it has the type signature of that many elements, so it matches a
 * peer's plain side of the same count. Needs an element whose extent is its size (a contiguous
 * datatype), as every plan that addresses elements by byte offset does. */
typedef struct scaling_args_call {
    uint64_t elem_size;
    scaling_args_ref send, recv;
    int send_count,
        recv_count; /* regular collectives, and the scalar side of Gatherv/Scatterv/Allgatherv */
    int64_t send_stride, recv_stride;
    uint32_t root; /* rank of the root in the call's communicator */
    int v_form;
    int *counts_a, *displs_a;
    int *counts_b, *displs_b;
} scaling_args_call;

/* The collective that call issues for an original call of collective orig. */
static inline scaling_coll scaling_call_coll(const scaling_args_call *call, scaling_coll orig)
{
    return call->v_form ? scaling_coll_v_form(orig) : orig;
}

/* A copy of bytes between two buffers, done by the caller (memcpy) around a call. */
typedef struct scaling_args_copy {
    scaling_args_ref from, to;
    int64_t bytes;
} scaling_args_copy;

#endif
