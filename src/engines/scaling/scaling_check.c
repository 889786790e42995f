/* Detectors D, G and X on one call; see scaling_check.h and docs/collectives-engine.md §3. */
#include "scaling_check.h"

#include <string.h>

#include "mg_error.h"

/* Runs Detector D on one vector; sets *true_out when it recovered. */
static int check_vector(const int *counts, const int *displs, const scaling_args *a, unsigned flags,
                        int64_t *scratch, scaling_displ_result *res, const int64_t **true_out,
                        scaling_check_trigger *t)
{
    int rc = scaling_displ_check(counts, displs, a->nprocs, a->type_size, flags, scratch, res);
    if (rc)
        return rc;
    if (res->verdict == SCALING_DISPL_OVERFLOW) {
        t->fired |= SCALING_CHECK_FIRED_D;
        *true_out = scratch;
    } else if (res->verdict == SCALING_DISPL_USER_ERROR) {
        t->user_error = 1;
    }
    return 0;
}

/* The count the G/X detectors compare on this rank. */
static int64_t detector_n(const scaling_args *a, const scaling_check_trigger *t)
{
    if (!scaling_args_has_vectors(a))
        return a->count;
    if (a->coll == SCALING_COLL_REDUCE_SCATTER)
        return t->d_a.total_count;
    return t->d_a.max_count > t->d_b.max_count ? t->d_a.max_count : t->d_b.max_count;
}

/* The counts of vector b: the largest and the total (saturating) into res; a negative count is a
 * user error. */
static void count_vector(const scaling_args *a, int b, scaling_displ_result *res,
                         scaling_check_trigger *t)
{
    int64_t total = 0, max = 0;
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t c = scaling_args_count(a, b, i);
        if (c < 0) {
            t->user_error = 1;
            res->verdict = SCALING_DISPL_USER_ERROR;
            res->reason = SCALING_DISPL_NEGATIVE_COUNT;
            res->index = i;
            return;
        }
        total = c > INT64_MAX - total ? INT64_MAX : total + c;
        max = c > max ? c : max;
    }
    res->total_count = total;
    res->max_count = max;
}

/* Reduce_scatter (counts, no displacements) and the large-count forms (64-bit displacements:
 * nothing wraps): Detector D has nothing to check but the counts' signs. */
static void check_counts(const scaling_args *a, scaling_check_trigger *t)
{
    if (a->coll == SCALING_COLL_ALLTOALLV && a->in_place) {
        count_vector(a, 1, &t->d_b, t);
        t->d_a = t->d_b;
        return;
    }
    count_vector(a, 0, &t->d_a, t);
    if (!t->user_error && (scaling_coll_get(a->coll)->vectors & SCALING_COLL_VEC_B))
        count_vector(a, 1, &t->d_b, t);
}

static int check_vectors(const scaling_args *a, int64_t *scratch, scaling_check_trigger *t)
{
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (a->large || !(info->vectors & SCALING_COLL_VEC_A_DISPLS)) {
        check_counts(a, t);
        return 0;
    }
    if (!scratch)
        return MG_ERROR_EINVAL;
    if (a->coll == SCALING_COLL_ALLTOALLV && a->in_place) {
        /* MPI ignores the send vector of an in-place Alltoallv: the receive vector is both. */
        int rc = check_vector(a->counts_b, a->displs_b, a, SCALING_DISPL_DISJOINT,
                              scratch + a->nprocs, &t->d_b, &t->true_b, t);
        t->d_a = t->d_b;
        t->true_a = t->true_b;
        return rc;
    }
    /* The receive side of Gatherv, Allgatherv and Alltoallv must not overlap; Scatterv's and
     * Alltoallv's send sides may. */
    unsigned flags_a = (a->coll == SCALING_COLL_GATHERV || a->coll == SCALING_COLL_ALLGATHERV)
                           ? SCALING_DISPL_DISJOINT
                           : 0;
    int rc = check_vector(a->counts_a, a->displs_a, a, flags_a, scratch, &t->d_a, &t->true_a, t);
    if (rc || !(info->vectors & SCALING_COLL_VEC_B))
        return rc;
    return check_vector(a->counts_b, a->displs_b, a, SCALING_DISPL_DISJOINT, scratch + a->nprocs,
                        &t->d_b, &t->true_b, t);
}

int scaling_check(const scaling_bounds *b, const scaling_args *a, int64_t *scratch,
                  scaling_check_trigger *out)
{
    if (!b || !out || scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    memset(out, 0, sizeof *out);
    if (scaling_args_has_vectors(a)) {
        int rc = check_vectors(a, scratch, out);
        if (rc)
            return rc;
        if (out->user_error)
            return 0;
    }
    out->n = detector_n(a, out);
    int rc = scaling_bounds_nmax(b, a->coll, a->type_size, a->nprocs, &out->limit);
    if (rc)
        return rc;
    if ((uint64_t)out->n > out->limit.n_max) {
        if (out->limit.by & (SCALING_BOUNDS_LIMIT_G | SCALING_BOUNDS_LIMIT_ARTIFICIAL))
            out->fired |= SCALING_CHECK_FIRED_G;
        if (out->limit.by & SCALING_BOUNDS_LIMIT_X)
            out->fired |= SCALING_CHECK_FIRED_X;
    }
    return 0;
}
