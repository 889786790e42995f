/* W3: the arguments of the large-count `_c` collective; see scaling_w3.h. */
#include "scaling_w3.h"

#include <stddef.h>

#include "mg_error.h"

static void widen(const scaling_args *a, int which, const int64_t *truth, int64_t *c_out,
                  int64_t *d_out)
{
    for (uint32_t i = 0; i < a->nprocs; i++) {
        c_out[i] = scaling_args_count(a, which, i);
        if (d_out)
            d_out[i] = truth ? truth[i] : scaling_args_displ(a, which, i);
    }
}

int scaling_w3_vectors(const scaling_args *a, const int64_t *true_a, const int64_t *true_b,
                       int64_t *counts_a, int64_t *displs_a, int64_t *counts_b, int64_t *displs_b)
{
    if (scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    if (!scaling_args_has_vectors(a))
        return 0;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    int has_a = scaling_args_has_counts(a, 0),
        has_displs = (info->vectors & SCALING_COLL_VEC_A_DISPLS) != 0;
    int has_b = (info->vectors & SCALING_COLL_VEC_B) != 0;
    if ((has_a && (!counts_a || (has_displs && !displs_a))) || (has_b && (!counts_b || !displs_b)))
        return MG_ERROR_EINVAL;
    if (has_a)
        widen(a, 0, true_a, counts_a, has_displs ? displs_a : NULL);
    if (has_b)
        widen(a, 1, true_b, counts_b, displs_b);
    return 0;
}
