/* Detector D and the displacement recovery of Eq. 4.9-4.11; see scaling_displ.h and
 * docs/collectives-engine.md §2. */
#include "scaling_displ.h"

#include <limits.h>
#include <string.h>

#include "mg_error.h"

/* One 32-bit wrap: 2 INT_MAX + 2 (Eq. 4.8). */
#define WRAP ((int64_t)INT_MAX * 2 + 2)

static int user_error(scaling_displ_result *out, scaling_displ_reason reason, uint32_t index)
{
    out->verdict = SCALING_DISPL_USER_ERROR;
    out->reason = reason;
    out->index = index;
    return 0;
}

/* Eq. 4.9-4.11 with the checks that tell an overflow from a user error: a decrease between
 * consecutive raw values is a wrap only if it is larger than 2^32 - INT_MAX - 1 (a true step of at
 * most INT_MAX), and no non-wrapping step may exceed INT_MAX either. */
static int recover(const int *counts, const int *displs, uint32_t P, uint64_t extent,
                   unsigned flags, int64_t *c, scaling_displ_result *out)
{
    if (displs[0] < 0)
        return user_error(out, SCALING_DISPL_NEGATIVE_FIRST, 0);
    c[0] = displs[0];
    int64_t limit = extent > (uint64_t)INT64_MAX ? 0 : INT64_MAX / (int64_t)extent;
    int64_t extent_elems = c[0] + (counts ? counts[0] : 0);
    int seen_first = 0;
    for (uint32_t i = 1; i < P; i++) {
        int64_t step = (int64_t)displs[i] - displs[i - 1];
        if (step < 0) {
            step += WRAP;
            if (step > INT_MAX)
                return user_error(out, SCALING_DISPL_DESCENDING, i);
            out->wraps++;
            if (!seen_first && displs[i] < 0) {
                out->index = i;
                seen_first = 1;
            }
        } else if (step > INT_MAX) {
            return user_error(out, SCALING_DISPL_BIG_STEP, i);
        }
        c[i] = c[i - 1] + step;
        int64_t prev_count = counts ? counts[i - 1] : 0;
        if ((flags & SCALING_DISPL_DISJOINT) && prev_count > 0 && step < prev_count)
            return user_error(out, SCALING_DISPL_OVERLAP, i);
        int64_t end = c[i] + (counts ? counts[i] : 0);
        if (end > extent_elems)
            extent_elems = end;
    }
    if (extent_elems > limit)
        return user_error(out, SCALING_DISPL_TOO_FAR, P - 1);
    out->extent_elems = extent_elems;
    out->verdict = SCALING_DISPL_OVERFLOW;
    return 0;
}

int scaling_displ_check(const int *counts, const int *displs, uint32_t P, uint64_t extent,
                        unsigned flags, int64_t *true_displs, scaling_displ_result *out)
{
    if (!displs || !out || P == 0 || extent == 0)
        return MG_ERROR_EINVAL;
    memset(out, 0, sizeof *out);
    /* Plain reductions the compiler can vectorize; the index of a negative count is looked for
     * only on that (error) path. */
    int min_displ = INT_MAX, min_count = 0, max_count = 0;
    int64_t total = 0, extent_elems = 0;
    if (counts) {
        for (uint32_t i = 0; i < P; i++) {
            int cnt = counts[i];
            int64_t end = (int64_t)displs[i] + cnt;
            min_displ = displs[i] < min_displ ? displs[i] : min_displ;
            min_count = cnt < min_count ? cnt : min_count;
            max_count = cnt > max_count ? cnt : max_count;
            total += cnt;
            extent_elems = end > extent_elems ? end : extent_elems;
        }
    } else {
        for (uint32_t i = 0; i < P; i++) {
            min_displ = displs[i] < min_displ ? displs[i] : min_displ;
            extent_elems = displs[i] > extent_elems ? displs[i] : extent_elems;
        }
    }
    out->max_count = max_count;
    out->total_count = total;
    if (min_count < 0) {
        uint32_t i = 0;
        while (counts[i] >= 0)
            i++;
        return user_error(out, SCALING_DISPL_NEGATIVE_COUNT, i);
    }
    if (min_displ >= 0) {
        out->extent_elems = extent_elems;
        return 0;
    }
    if (!true_displs)
        return MG_ERROR_EINVAL;
    return recover(counts, displs, P, extent, flags, true_displs, out);
}
