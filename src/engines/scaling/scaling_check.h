/* The per-call trigger check: Detectors D, G and X on one rank's view of a collective call
 * (docs/collectives-engine.md §3, Table 4.8). */
#ifndef SCALING_CHECK_H
#define SCALING_CHECK_H

#include <stdint.h>

#include "scaling_args.h"
#include "scaling_bounds.h"
#include "scaling_displ.h"

enum scaling_check_fired {
    SCALING_CHECK_FIRED_D = 1u << 0, /* a displacement array overflowed (recovered) */
    SCALING_CHECK_FIRED_G = 1u << 1, /* n over a Class G bound (table or artificial) */
    SCALING_CHECK_FIRED_X = 1u << 2, /* n over the Class X bound for this (s, P) */
};

typedef struct scaling_check_trigger {
    unsigned fired; /* enum scaling_check_fired bits; 0: call the collective unchanged */
    int user_error; /* Detector D saw a user error (see d_a/d_b): pass the call through */
    scaling_displ_result d_a, d_b;
    int64_t n; /* the count the G/X detectors compared: n for regular collectives, the
                  largest count of this rank's vectors for irregular ones (the total for
                  Reduce_scatter, whose global buffer is G_b = s n) */
    scaling_bounds_limit limit; /* the safe count at (s, P) */
    const int64_t *true_a,
        *true_b; /* recovered displacements (in scratch) when D fired, else NULL */
} scaling_check_trigger;

/* Evaluates the detectors for a. scratch is caller memory of P int64 (2P for Alltoallv), written
 * only when Detector D fires; it may be NULL for regular collectives and large-count calls (whose
 * 64-bit displacements cannot wrap: D does not run on them). No allocation. Cost:
 * O(entries of the collective in b) for regular collectives, plus one pass over this rank's vectors
 * for irregular ones. For Gatherv/Scatterv only the root sees the vectors and for Alltoallv each
 * rank sees its own: a verdict holds for this rank's side only, unless the caller makes the ranks
 * agree on it (a small control message). Returns 0 with *out filled, MG_ERROR_EINVAL for bad
 * arguments (see scaling_args_validate) or a NULL scratch where it is needed. Thread-safe. */
int scaling_check(const scaling_bounds *b, const scaling_args *a, int64_t *scratch,
                  scaling_check_trigger *out);

/* The bitwise OR of n ints (0 for NULL): negative exactly when one of them is. */
static inline int scaling_ints_or(const int *v, uint32_t n)
{
    int acc = 0;
    if (v)
        for (uint32_t i = 0; i < n; i++)
            acc |= v[i];
    return acc;
}

/* Whether Detector D cannot fire on a call of the int binding of irregular collective coll over
 * nprocs ranks, whatever the element size: its significant vectors (A: counts_a, displs_a; B, for
 * Alltoallv: counts_b, displs_b; NULL where the rank has none) hold no negative count or
 * displacement (D recovers only negative displacements; a negative count is a user error). Where no
 * bound covers the collective such a call is untriggered, and the caller may pass it without
 * scaling_check, the element size or, on a Gatherv/Scatterv root, anything else. in_place: MPI
 * ignores an in-place Alltoallv's send vectors. One branch-free pass over the vectors; inline,
 * since it runs on most calls of a correct program, where its caller knows coll at compile time. */
static inline int scaling_check_plain(scaling_coll coll, uint32_t nprocs, int in_place,
                                      const int *counts_a, const int *displs_a, const int *counts_b,
                                      const int *displs_b)
{
    int alltoallv = coll == SCALING_COLL_ALLTOALLV;
    int acc = alltoallv && in_place
                  ? 0
                  : scaling_ints_or(counts_a, nprocs) | scaling_ints_or(displs_a, nprocs);
    if (alltoallv)
        acc |= scaling_ints_or(counts_b, nprocs) | scaling_ints_or(displs_b, nprocs);
    return acc >= 0;
}

#endif
