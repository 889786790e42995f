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

/* Past 2^40 elements (a large-count call's), no divisor is looked for. */
#define W2_MAX_DIVIDEND (UINT64_C(1) << 40)

typedef struct shape {
    uint64_t m;           /* k must divide m */
    int64_t max_count;    /* largest count (original elements) */
    int64_t lo[2], hi[2]; /* per vector: smallest and largest displacement of a non-zero count */
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
        sh->lo[which] = d < sh->lo[which] ? d : sh->lo[which];
        sh->hi[which] = d > sh->hi[which] ? d : sh->hi[which];
    }
}

/* The shift of vector v's buffer (elements, a multiple of k) that brings its displacements at k
 * into int: 0 when they fit; else the smallest that brings the largest down to INT_MAX, if the
 * smallest then stays at or above INT_MIN (the call's displacements go negative, relative to the
 * moved buffer: MPI adds them to the buffer's address); -1 when none does. k divides every
 * displacement (it divides m). */
static int64_t shift_for(const shape *sh, int v, uint64_t k)
{
    int64_t kk = (int64_t)k;
    if (sh->hi[v] < sh->lo[v] || sh->hi[v] / kk <= INT_MAX)
        return 0;
    int64_t shift = (sh->hi[v] / kk - INT_MAX) * kk;
    return (sh->lo[v] - shift) / kk >= INT_MIN ? shift : -1;
}

/* Whether k serves: every count and displacement fits in int (moving the buffers only where
 * shifted allows it), d = s k fits in int (MPI_Type_size), and the new count is within the safe
 * count of b at (d, P). k = 1 serves only with a shift (otherwise it changes nothing). */
static int k_fits(const scaling_bounds *b, const scaling_args *a, const shape *sh, uint64_t k,
                  int shifted)
{
    if (k < 1 || a->type_size > (uint64_t)INT_MAX / k || (uint64_t)sh->max_count / k > INT_MAX)
        return 0;
    int64_t moved = 0;
    for (int v = 0; v < 2; v++) {
        int64_t shift = shift_for(sh, v, k);
        if (shift < 0 || (shift && !shifted))
            return 0;
        moved |= shift;
    }
    if (k == 1 && !moved)
        return 0;
    scaling_bounds_limit lim;
    if (scaling_bounds_nmax(b, a->coll, a->type_size * k, a->nprocs, &lim) != 0)
        return 0;
    return (uint64_t)sh->max_count / k <= lim.n_max;
}

/* Newton's iteration from above. */
static uint64_t floor_sqrt(uint64_t m)
{
    uint64_t x = m, y = (m + 1) / 2;
    while (y < x) {
        x = y;
        y = (x + m / x) / 2;
    }
    return x;
}

/* The smallest divisor k of sh->m that fits, or 0: divisors up to sqrt(m) in increasing order,
 * then their cofactors. Without shifted from 2 (the paper's W2), with it from 1. */
static uint64_t smallest_k(const scaling_bounds *b, const scaling_args *a, const shape *sh,
                           int shifted)
{
    uint64_t r = floor_sqrt(sh->m);
    for (uint64_t i = shifted ? 1 : 2; i <= r; i++)
        if (sh->m % i == 0 && k_fits(b, a, sh, i, shifted))
            return i;
    for (uint64_t i = r; i >= 1; i--)
        if (sh->m % i == 0 && k_fits(b, a, sh, sh->m / i, shifted))
            return sh->m / i;
    return 0;
}

int scaling_w2_plan_make(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                         const int64_t *true_b, scaling_w2_plan *out)
{
    if (!b || !out || scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info->w2)
        return MG_ERROR_EUNSUPPORTED;
    shape sh = {0, 0, {INT64_MAX, INT64_MAX}, {INT64_MIN, INT64_MIN}};
    if (!info->irregular || !scaling_args_has_vectors(a)) {
        sh.m = (uint64_t)a->count;
        sh.max_count = a->count;
    } else if (a->coll == SCALING_COLL_ALLTOALLV && a->in_place) {
        add_vector(a, true_b, 1, &sh);
    } else {
        add_vector(a, true_a, 0, &sh);
        if (info->vectors & SCALING_COLL_VEC_B)
            add_vector(a, true_b, 1, &sh);
    }
    /* Bounds the divisor search to 2^20 trials (a few ms, against the seconds of a call moving
     * that many elements); a larger count is W1-B's. */
    if (sh.m >= W2_MAX_DIVIDEND)
        return MG_ERROR_EUNSUPPORTED;
    /* A buffer is moved only where no k serves without: the paper's W2 first. */
    uint64_t k = sh.m < 2 ? 0 : smallest_k(b, a, &sh, 0);
    int shifted = k == 0 && sh.m >= 1 && sh.lo[0] >= 0 && sh.lo[1] >= 0;
    if (shifted)
        k = smallest_k(b, a, &sh, 1);
    if (k == 0)
        return MG_ERROR_EUNSUPPORTED;
    out->k = k;
    out->elem_size = a->type_size * k;
    for (int v = 0; v < 2; v++)
        out->shift[v] = shifted ? shift_for(&sh, v, k) : 0;
    return 0;
}

static scaling_args_ref ref(scaling_args_buf buf)
{
    scaling_args_ref x = {buf, 0};
    return x;
}

/* Divides one vector by k into the call's arrays, its displacements taken from the buffer moved by
 * shift elements; MG_ERROR_ERANGE when k does not divide it or a value does not fit. */
static int divide_vector(const scaling_args *a, const int64_t *t, int which, uint64_t k,
                         int64_t shift, int *counts, int *displs)
{
    int64_t kk = (int64_t)k;
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t c = scaling_args_count(a, which, i);
        int64_t d = c == 0 ? 0 : vec_displ(a, t, which, i);
        int64_t moved = c == 0 ? 0 : d - shift;
        if (c < 0 || d < 0 || (uint64_t)c % k != 0 || moved % kk != 0 || c / kk > INT_MAX ||
            moved / kk > INT_MAX || moved / kk < INT_MIN)
            return MG_ERROR_ERANGE;
        counts[i] = (int)((uint64_t)c / k);
        displs[i] = (int)(moved / kk);
    }
    return 0;
}

/* The buffer vector which describes: Scatterv's and Alltoallv's first vector is their send side. */
static scaling_args_ref *side_of(scaling_args_call *call, scaling_coll c, int which)
{
    return which == 0 && (c == SCALING_COLL_SCATTERV || c == SCALING_COLL_ALLTOALLV) ? &call->send
                                                                                     : &call->recv;
}

int scaling_w2_call(const scaling_w2_plan *plan, const scaling_args *a, const int64_t *true_a,
                    const int64_t *true_b, scaling_args_call *call)
{
    if (!plan || !call || plan->k < 1 || (plan->k == 1 && !plan->shift[0] && !plan->shift[1]) ||
        scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info->w2)
        return MG_ERROR_EUNSUPPORTED;
    int vec = scaling_args_has_vectors(a);
    if (vec && (!call->counts_a || !call->displs_a ||
                ((info->vectors & SCALING_COLL_VEC_B) && (!call->counts_b || !call->displs_b))))
        return MG_ERROR_EINVAL;
    uint64_t k = plan->k;
    int64_t own = vec && a->coll != SCALING_COLL_ALLTOALLV ? scaling_args_count(a, 0, a->rank)
                                                           : a->count;
    if (a->coll != SCALING_COLL_ALLTOALLV && ((uint64_t)own % k != 0 || own / (int64_t)k > INT_MAX))
        return MG_ERROR_ERANGE;
    call->elem_size = plan->elem_size;
    call->root = a->root;
    call->send_count = call->recv_count = (int)((uint64_t)own / k);
    call->send = ref(SCALING_ARGS_BUF_USER_SEND);
    call->recv = ref(SCALING_ARGS_BUF_USER_RECV);
    if (a->in_place && (a->coll == SCALING_COLL_SCATTER || a->coll == SCALING_COLL_SCATTERV))
        call->recv = ref(SCALING_ARGS_BUF_IN_PLACE);
    else if (a->in_place)
        call->send = ref(SCALING_ARGS_BUF_IN_PLACE);
    if (a->coll == SCALING_COLL_BCAST)
        call->send = call->recv;
    if (!vec)
        return 0;
    for (int v = 0; v < 2; v++)
        side_of(call, a->coll, v)->off += plan->shift[v] * (int64_t)a->type_size;
    if (a->coll == SCALING_COLL_ALLTOALLV) {
        int rc = divide_vector(a, true_b, 1, k, plan->shift[1], call->counts_b, call->displs_b);
        if (rc || a->in_place)
            return rc;
    }
    return divide_vector(a, true_a, 0, k, plan->shift[0], call->counts_a, call->displs_a);
}
