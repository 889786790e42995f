/* Workaround W1-B, message partitioning: the collective is run in rounds, each message cut to at
 * most the safe count (docs/collectives-engine.md §4.2; dissertation §4.4.1). A round addresses
 * the user's buffers directly wherever its counts and displacements can say where the slices are:
 *  - Bcast, Reduce, Allreduce: one contiguous slice;
 *  - Gather, Scatter, Allgather, Alltoall: the global-buffer side takes slice [o, o + k) of every
 *    block: the round is the collective's V-form (scaling_args_call's v_form) with counts k and
 *    displacements i n when P n fits in int, else (and for Allgather where scaling_params'
 *    allgather_block_stride says so) the collective with a block stride
 *    (send_stride/recv_stride). MPI libraries may pack a derived datatype through a buffer of
 *    their own, which is the copy direct addressing avoids; displacements need none. An
 *    Alltoall's V-form round copies the rank's slice to itself (a pack copy from the user's send
 *    buffer to its receive buffer) and sends itself nothing;
 *  - Gatherv, Scatterv, Allgatherv, Alltoallv: displacements d + o, when every segment of the
 *    vector, as passed, lies in [0, INT_MAX] elements.
 * Staged (the round's slices laid out contiguously in a staging buffer, so that every displacement
 * is a prefix sum of the round's counts and fits in int, and memcpy'd to and from the user's
 * segments) are only: a vector whose displacements are not ints MPI can take (wrapped ones,
 * Detector D's, whose true values pass INT_MAX; a segment ending past INT_MAX; a `_c` call's
 * negative ones), the send side of an in-place Alltoall(v) (its slices are the bytes the round
 * receives into: MPI forbids the overlap, and an in-place round would need every rank to stage
 * alike), and Reduce_scatter's input (its blocks follow from the counts, no displacement can say
 * where a slice lies). Whether a side is staged follows from this rank's arguments alone: it
 * concerns only this rank's buffers, the other ranks see the same counts either way. */
#ifndef SCALING_W1B_H
#define SCALING_W1B_H

#include <stdint.h>

#include "scaling_args.h"
#include "scaling_bounds.h"
#include "scaling_params.h"

/* What every rank must agree on (chunk, rounds, the Allgather form), plus this rank's staging
 * sizes (0 for a side this rank does not stage: then it makes no copies on that side). */
typedef struct scaling_w1b_plan {
    int64_t chunk;              /* c: most elements of one message in one round */
    uint32_t rounds;            /* R >= 1 */
    int allgather_block_stride; /* scaling_params' choice, the same on every rank */
    int64_t stage_send_bytes;   /* STAGE_SEND this rank provides (0: none) */
    int64_t stage_recv_bytes;   /* STAGE_RECV this rank provides (0: none) */
} scaling_w1b_plan;

/* Plans the rounds for a. n_global is the largest per-message count over all ranks (the agreed
 * trigger.n: regular n, the root's for Gatherv/Scatterv, the maximum over ranks for Alltoallv); it
 * is not used for Reduce_scatter, whose counts every rank has. Every rank given the same
 * (b, p, coll, s, P, n_global) gets the same chunk and rounds. The chunk keeps a round under the
 * safe count of b at (s, P) (for Reduce_scatter the round's total) and, for the collectives with a
 * global buffer, P*c under INT_MAX and a staging buffer under p->max_stage_bytes, whether or not
 * this rank stages (a Gatherv non-root cannot know whether the root does, and the ranks must agree
 * on the chunk).
 * Returns 0, MG_ERROR_EINVAL for bad arguments or n_global < 0, MG_ERROR_ERANGE when not even one
 * element per message fits the bound or the staging limit (the report says so; nothing is planned).
 * Thread-safe; no allocation. */
int scaling_w1b_plan_make(const scaling_bounds *b, const scaling_params *p, const scaling_args *a,
                          int64_t n_global, scaling_w1b_plan *out);

/* This rank's part of round r: the call (its vectors, where the collective it issues has them on
 * this rank, are written to the caller's arrays of P ints in call->counts_a/displs_a/counts_b/
 * displs_b, which a regular collective needs too: its rounds may be its V-form), the copies to do
 * before the call (pack) and after it (unpack), at most P each, into caller arrays of P; a side
 * this rank does not stage has none (see above). true_a/true_b are the displacements recovered by
 * Detector D (NULL: the application's are valid). A round is in place where the call is, except
 * Alltoall(v) and Reduce_scatter, whose staged send side makes their rounds in place on no rank.
 * Executing rounds 0..R-1 in order on every rank delivers exactly the bytes of the unbroken call,
 * in-place forms included. Returns 0, MG_ERROR_EINVAL for bad arguments or r >= rounds. No
 * allocation. */
int scaling_w1b_round(const scaling_w1b_plan *plan, const scaling_args *a, const int64_t *true_a,
                      const int64_t *true_b, uint32_t r, scaling_args_call *call,
                      scaling_args_copy *pack, uint32_t *npack, scaling_args_copy *unpack,
                      uint32_t *nunpack);

#endif
