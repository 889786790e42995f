/* Workaround W2, a big contiguous datatype: k original elements become one element of size d = s k,
 * so counts and displacements shrink by k (docs/collectives-engine.md §4.4; dissertation §4.4.2).
 * k divides n (regular) or the gcd of every non-zero count and its displacement (irregular). */
#ifndef SCALING_W2_H
#define SCALING_W2_H

#include <stdint.h>

#include "scaling_args.h"
#include "scaling_bounds.h"

typedef struct scaling_w2_plan {
    uint64_t k;         /* original elements per big element (>= 2, or 1 with a shift) */
    uint64_t elem_size; /* d = s k bytes: MPI_Type_contiguous(k, type) */
    int64_t shift[2];   /* per vector (A, B): the buffer it describes moved by this many original
                           elements, its displacements taken from there (negative ones too) */
} scaling_w2_plan;

/* Chooses the smallest k (a divisor of n, or of the gcd of this rank's non-zero counts and their
 * displacements) with which every count and displacement fits in int, d fits in int
 * (MPI_Type_size) and the new count is within the safe count of b at (d, P). Where no k >= 2 does,
 * a shifted plan is tried (smallest k >= 1): each vector's buffer moved so that its displacements,
 * divided by k, span [INT_MIN, INT_MAX], which serves an irregular call with no common divisor
 * whose layout spans less than 2^32 k elements (the root of a Gatherv/Scatterv past INT_MAX,
 * alone). The forms with s (G_b) and Class X points the table does not cover at d never admit one:
 * W2 helps only s-independent problems. Each rank that plans may use its own k: the sides of a
 * collective match by type signature, which k does not change (the root of Gatherv/Scatterv alone,
 * or every rank with the root's k when the ranks agree; each Alltoallv rank its own;
 * scaling_w2_call checks k against the rank's vectors). A large-count call's count past INT_MAX is
 * served by a k that brings it into int (MPI-4's `_c` collective with the big type: BigMPI's way).
 * Returns 0; MG_ERROR_EUNSUPPORTED for reductions, a count or a common divisor of 2^40 elements or
 * more (W1-B's case), no usable k (gcd 1 and a span too wide to shift, all counts zero, a negative
 * displacement of a large-count call); MG_ERROR_EINVAL for bad arguments. No allocation; at most
 * 2^20 divisor trials (sqrt(INT_MAX) for an int call). */
int scaling_w2_plan_make(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                         const int64_t *true_b, scaling_w2_plan *out);

/* This rank's call with the big type of plan (vectors into the caller's arrays of P ints; a rank
 * with a zero count gets displacement 0). Returns 0; MG_ERROR_ERANGE when plan->k does not divide
 * one of this rank's counts or displacements (a type size that does not divide the message:
 * reported, never rounded) or a value does not fit; MG_ERROR_EINVAL for bad arguments. No
 * allocation. */
int scaling_w2_call(const scaling_w2_plan *plan, const scaling_args *a, const int64_t *true_a,
                    const int64_t *true_b, scaling_args_call *call);

#endif
