/* W2 big datatype; see scaling_w2.h and docs/collectives-engine.md §4.4. */
#include "scaling_w2.h"

#include <limits.h>

#include "mg_error.h"

static uint64_t gcd(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

typedef struct shape {
    uint64_t m;        /* k must divide m */
    int64_t max_count; /* largest count (original elements) */
    int64_t max_displ; /* largest displacement of a non-zero count */
} shape;

static int64_t vec_displ(const scaling_args *a, const int64_t *t, int which, uint32_t i)
{
    return t ? t[i] : scaling_args_displ(a, which, i);
}

static void add_vector(const scaling_args *a, const int64_t *t, int which, shape *sh)
{
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t c = scaling_args_count(a, which, i);
        if (c == 0)
            continue;
        int64_t d = vec_displ(a, t, which, i);
        /* A negative displacement (legal in a large-count call) has no divisor to share. */
        sh->m = d < 0 ? 1 : gcd(gcd(sh->m, (uint64_t)c), (uint64_t)d);
        sh->max_count = c > sh->max_count ? c : sh->max_count;
        sh->max_displ = d > sh->max_displ ? d : sh->max_displ;
    }
}

static int k_fits(const scaling_bounds *b, const scaling_args *a, const shape *sh, uint64_t k)
{
    if (k < 2 || a->type_size > (uint64_t)INT_MAX / k || sh->max_displ / (int64_t)k > INT_MAX)
        return 0;
    scaling_limit lim;
    if (scaling_bounds_nmax(b, a->coll, a->type_size * k, a->nprocs, &lim) != 0)
        return 0;
    return (uint64_t)sh->max_count / k <= lim.n_max;
}

/* The smallest divisor k >= 2 of sh->m that fits, or 0: divisors up to sqrt(m) in increasing order,
 * then their cofactors. */
static uint64_t smallest_k(const scaling_bounds *b, const scaling_args *a, const shape *sh)
{
    uint64_t r = 1;
    while ((r + 1) * (r + 1) <= sh->m)
        r++;
    for (uint64_t i = 2; i <= r; i++)
        if (sh->m % i == 0 && k_fits(b, a, sh, i))
            return i;
    for (uint64_t i = r; i >= 1; i--)
        if (sh->m % i == 0 && k_fits(b, a, sh, sh->m / i))
            return sh->m / i;
    return 0;
}

int scaling_w2_plan_make(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                         const int64_t *true_b, scaling_w2_plan *out)
{
    if (!b || !out || scaling_args_validate(a) != 0)
        return MG_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info->w2)
        return MG_EUNSUPPORTED;
    shape sh = {0, 0, 0};
    /* A count past INT_MAX (a `_c` call) is left to W3 and W1-B; it also bounds the divisor
     * search to sqrt(INT_MAX). */
    if (a->count > INT_MAX)
        return MG_EUNSUPPORTED;
    if (!info->irregular || !scaling_args_has_vectors(a)) {
        sh.m = (uint64_t)a->count;
        sh.max_count = a->count;
    } else if (a->coll == SCALING_ALLTOALLV && a->in_place) {
        add_vector(a, true_b, 1, &sh);
    } else {
        add_vector(a, true_a, 0, &sh);
        if (info->vectors & SCALING_VEC_B)
            add_vector(a, true_b, 1, &sh);
    }
    if (sh.max_count > INT_MAX) /* a large-count call's vector */
        return MG_EUNSUPPORTED;
    uint64_t k = sh.m < 2 ? 0 : smallest_k(b, a, &sh);
    if (k == 0)
        return MG_EUNSUPPORTED;
    out->k = k;
    out->elem_size = a->type_size * k;
    return 0;
}

static scaling_ref ref(scaling_buf buf)
{
    scaling_ref x = {buf, 0};
    return x;
}

/* Divides one vector by k into the call's arrays; MG_ERANGE when k does not divide it. */
static int divide_vector(const scaling_args *a, const int64_t *t, int which, uint64_t k,
                         int *counts, int *displs)
{
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t c = scaling_args_count(a, which, i);
        int64_t d = c == 0 ? 0 : vec_displ(a, t, which, i);
        if (c < 0 || d < 0 || (uint64_t)c % k != 0 || (uint64_t)d % k != 0 ||
            c / (int64_t)k > INT_MAX || d / (int64_t)k > INT_MAX)
            return MG_ERANGE;
        counts[i] = (int)((uint64_t)c / k);
        displs[i] = (int)(d / (int64_t)k);
    }
    return 0;
}

int scaling_w2_call(const scaling_w2_plan *plan, const scaling_args *a, const int64_t *true_a,
                    const int64_t *true_b, scaling_call *call)
{
    if (!plan || !call || plan->k < 2 || scaling_args_validate(a) != 0)
        return MG_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info->w2)
        return MG_EUNSUPPORTED;
    int vec = scaling_args_has_vectors(a);
    if (vec && (!call->counts_a || !call->displs_a ||
                ((info->vectors & SCALING_VEC_B) && (!call->counts_b || !call->displs_b))))
        return MG_EINVAL;
    uint64_t k = plan->k;
    int64_t own =
        vec && a->coll != SCALING_ALLTOALLV ? scaling_args_count(a, 0, a->rank) : a->count;
    if (a->coll != SCALING_ALLTOALLV && ((uint64_t)own % k != 0 || own / (int64_t)k > INT_MAX))
        return MG_ERANGE;
    call->elem_size = plan->elem_size;
    call->root = a->root;
    call->send_count = call->recv_count = (int)((uint64_t)own / k);
    call->send = ref(SCALING_BUF_USER_SEND);
    call->recv = ref(SCALING_BUF_USER_RECV);
    if (a->in_place && (a->coll == SCALING_SCATTER || a->coll == SCALING_SCATTERV))
        call->recv = ref(SCALING_BUF_IN_PLACE);
    else if (a->in_place)
        call->send = ref(SCALING_BUF_IN_PLACE);
    if (a->coll == SCALING_BCAST)
        call->send = call->recv;
    if (!vec)
        return 0;
    if (a->coll == SCALING_ALLTOALLV) {
        int rc = divide_vector(a, true_b, 1, k, call->counts_b, call->displs_b);
        if (rc || a->in_place)
            return rc;
    }
    return divide_vector(a, true_a, 0, k, call->counts_a, call->displs_a);
}
