/* Detector D: a displacement array corrupted by 32-bit overflow, and the recovery of the true
 * 64-bit displacements (docs/collectives-engine.md §2; dissertation §4.3.1, Eq. 4.9-4.11). */
#ifndef SCALING_DISPL_H
#define SCALING_DISPL_H

#include <stdint.h>

typedef enum scaling_displ_verdict {
    SCALING_DISPL_CLEAN = 0, /* no negative displacement: Detector D does not fire */
    SCALING_DISPL_OVERFLOW =
        1, /* negative values that 32-bit wraps explain; true values recovered */
    SCALING_DISPL_USER_ERROR = 2, /* a negative count, or negative displacements no wrap explains */
} scaling_displ_verdict;

/* Why a layout is a user error rather than an overflow. */
typedef enum scaling_displ_reason {
    SCALING_DISPL_NO_REASON = 0,
    SCALING_DISPL_NEGATIVE_COUNT, /* counts[index] < 0 */
    SCALING_DISPL_NEGATIVE_FIRST, /* displs[0] < 0: no earlier entry shows how many wraps happened
                                   */
    SCALING_DISPL_BIG_STEP,       /* displs[index] - displs[index-1] would be a step > INT_MAX */
    SCALING_DISPL_DESCENDING,     /* displs[index] < displs[index-1] by less than a wrap */
    SCALING_DISPL_OVERLAP,        /* segment index starts inside segment index-1 (receive side) */
    SCALING_DISPL_TOO_FAR,        /* a byte offset of the recovered layout does not fit in int64 */
} scaling_displ_reason;

typedef struct scaling_displ_result {
    scaling_displ_verdict verdict;
    scaling_displ_reason reason; /* set for SCALING_DISPL_USER_ERROR */
    uint32_t index;       /* first corrupted entry (OVERFLOW) or the offending one (USER_ERROR) */
    uint32_t wraps;       /* number of 2^32 wraps recovered (OVERFLOW) */
    int64_t max_count;    /* largest count seen */
    int64_t total_count;  /* sum of the counts */
    int64_t extent_elems; /* max over i of true displs[i] + counts[i] (elements) */
} scaling_displ_result;

/* Option bits for scaling_displ_check(). */
enum scaling_displ_flags {
    /* The segments are a receive buffer, so they must not overlap (MPI forbids overlapping receive
     * regions): a recovered layout where segment i starts inside segment i-1 is a user error. */
    SCALING_DISPL_DISJOINT = 1u << 0,
};

/* Checks counts[0..P) and displs[0..P) (as the application passed them) in one pass. When no
 * displacement is negative the verdict is CLEAN and true_displs is not touched (no allocation, no
 * writes: the no-trigger path). Otherwise recovers the true displacements into true_displs (caller
 * scratch of P entries, written only in that case) under the paper's assumptions (true
 * displacements non-descending, each step at most INT_MAX, two's complement) and returns OVERFLOW,
 * or USER_ERROR with the reason when the values contradict those assumptions (never a guess).
 * counts may be NULL (every count taken as 0, e.g. a displacement-only check). extent is the
 * element extent in bytes, used to verify that every recovered byte offset fits in int64. Returns 0
 * with *out filled, or MG_ERROR_EINVAL (NULL displs/out, P == 0, extent == 0). Thread-safe. */
int scaling_displ_check(const int *counts, const int *displs, uint32_t P, uint64_t extent,
                        unsigned flags, int64_t *true_displs, scaling_displ_result *out);

#endif
