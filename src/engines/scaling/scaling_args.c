/* Shape checks of a collective call description; see scaling_args.h. */
#include "scaling_args.h"

#include <stddef.h>

#include "mg_error.h"

int scaling_args_has_vectors(const scaling_args *a)
{
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info || !info->vectors)
        return 0;
    return !info->vectors_at_root_only || a->rank == a->root;
}

int scaling_args_validate(const scaling_args *a)
{
    const scaling_coll_info *info = a ? scaling_coll_get(a->coll) : NULL;
    if (!info || a->nprocs == 0 || a->rank >= a->nprocs || a->type_size == 0)
        return MG_ERROR_EINVAL;
    if (info->rooted && a->root >= a->nprocs)
        return MG_ERROR_EINVAL;
    if (a->in_place && (!info->in_place || (info->rooted && a->rank != a->root)))
        return MG_ERROR_EINVAL;
    int uses_count = a->coll != SCALING_COLL_ALLTOALLV && a->coll != SCALING_COLL_REDUCE_SCATTER;
    if (uses_count && a->count < 0)
        return MG_ERROR_EINVAL;
    if (!scaling_args_has_vectors(a))
        return 0;
    /* MPI ignores the send vector of an in-place Alltoallv. */
    int need_a = !(a->coll == SCALING_COLL_ALLTOALLV && a->in_place);
    if (need_a && (info->vectors & SCALING_COLL_VEC_A_COUNTS) && !scaling_args_has_counts(a, 0))
        return MG_ERROR_EINVAL;
    if (need_a && (info->vectors & SCALING_COLL_VEC_A_DISPLS) && !scaling_args_has_displs(a, 0))
        return MG_ERROR_EINVAL;
    if ((info->vectors & SCALING_COLL_VEC_B) &&
        (!scaling_args_has_counts(a, 1) || !scaling_args_has_displs(a, 1)))
        return MG_ERROR_EINVAL;
    return 0;
}
