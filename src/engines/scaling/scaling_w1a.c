/* W1-A process partitioning; see scaling_w1a.h and docs/collectives-engine.md §4.3. */
#include "scaling_w1a.h"

#include <limits.h>

#include "mg_error.h"

static int64_t displ(const scaling_args *a, const int64_t *true_a, uint32_t i)
{
    return true_a ? true_a[i] : scaling_args_displ(a, 0, i);
}

/* Whether ranks [s0, s1) form a valid group. */
static int group_fits(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                      uint32_t s0, uint32_t s1)
{
    int64_t n = 0, lo = INT64_MAX, hi = INT64_MIN;
    int irregular = scaling_coll_get(a->coll)->irregular;
    for (uint32_t i = s0; i < s1 && irregular; i++) {
        int64_t d = displ(a, true_a, i);
        n = scaling_args_count(a, 0, i) > n ? scaling_args_count(a, 0, i) : n;
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    if (!irregular)
        n = a->count;
    else if (hi - lo > INT_MAX || n > INT_MAX) /* a group call's counts are ints (large calls) */
        return 0;
    /* The group's call has the root among its processes even where, outside the range, it moves
     * nothing (Gather(v)/Scatter(v)): the library sizes the call by its communicator. The paper
     * counts only the processes that move data (Figure 4.4), but MPICH 4.0.2's Scatter fails once
     * s n P reaches 2^31 with P the communicator's size, root included: W1-A counted that way
     * crashed at P = 2, n = 2^30 (docs/collectives-measurements.md). Allgatherv's groups are the
     * whole communicator, each with only its range contributing: its bound follows the range. */
    uint64_t m = s1 - s0;
    if (scaling_coll_get(a->coll)->rooted && (a->root < s0 || a->root >= s1))
        m++;
    scaling_bounds_limit lim;
    if (scaling_bounds_nmax(b, a->coll, a->type_size, m, &lim) != 0)
        return 0;
    return (uint64_t)n <= lim.n_max;
}

int scaling_w1a_plan_make(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                          uint32_t *starts, scaling_w1a_plan *out)
{
    if (!b || !starts || !out || scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (!info->w1a || a->count > INT_MAX) /* a group call's count is an int */
        return MG_ERROR_EUNSUPPORTED;
    if (info->irregular && !scaling_args_has_vectors(a))
        return MG_ERROR_EINVAL;
    uint32_t g = 0, s0 = 0;
    while (s0 < a->nprocs) {
        uint32_t s1 = s0 + 1;
        if (!group_fits(b, a, true_a, s0, s1))
            return MG_ERROR_EUNSUPPORTED;
        /* Bounds tighten with the group size, so the first size that fails ends the group. */
        while (s1 < a->nprocs && group_fits(b, a, true_a, s0, s1 + 1))
            s1++;
        starts[g++] = s0;
        s0 = s1;
    }
    starts[g] = a->nprocs;
    out->ngroups = g;
    out->starts = starts;
    return 0;
}

static scaling_args_ref ref(scaling_args_buf buf, int64_t off)
{
    scaling_args_ref r = {buf, off};
    return r;
}

/* Members of a rooted group: the range, with the root in front when it lies below the range and at
 * the back when above, so that its (untouched) slot stays inside the user's buffer. */
static void rooted_members(const scaling_args *a, uint32_t s0, uint32_t s1, uint32_t *members,
                           uint32_t *n, uint32_t *root_pos)
{
    uint32_t k = 0;
    if (a->root < s0) {
        *root_pos = 0;
        members[k++] = a->root;
    }
    for (uint32_t i = s0; i < s1; i++) {
        if (i == a->root)
            *root_pos = k;
        members[k++] = i;
    }
    if (a->root >= s1) {
        *root_pos = k;
        members[k++] = a->root;
    }
    *n = k;
}

/* The group's vector at its root (or everywhere for Allgatherv): counts and displacements relative
 * to the group's base, zero for ranks outside the range (Eq. 4.24). Returns the base. */
static int64_t group_vector(const scaling_args *a, const int64_t *true_a, uint32_t s0, uint32_t s1,
                            const uint32_t *members, uint32_t n, scaling_args_call *call)
{
    int64_t base = INT64_MAX;
    for (uint32_t i = s0; i < s1; i++)
        base = displ(a, true_a, i) < base ? displ(a, true_a, i) : base;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t w = members[k];
        int in = w >= s0 && w < s1;
        call->counts_a[k] = in ? (int)scaling_args_count(a, 0, w) : 0;
        call->displs_a[k] = in ? (int)(displ(a, true_a, w) - base) : 0;
    }
    return base;
}

/* The root's call in a group of Gather/Scatter: the group's blocks start at the range, or one block
 * earlier when the root sits in front; a root outside the range passes MPI_IN_PLACE. */
static void regular_root(const scaling_args *a, uint32_t s0, int natural, scaling_args_call *call)
{
    int64_t n = a->count, s = (int64_t)a->type_size;
    int64_t base = (int64_t)(a->root < s0 ? s0 - 1 : s0) * n * s;
    scaling_args_ref own = ref(
        a->in_place || !natural ? SCALING_ARGS_BUF_IN_PLACE : SCALING_ARGS_BUF_USER_SEND, 0);
    call->send_count = call->recv_count = (int)n;
    if (a->coll == SCALING_COLL_GATHER) {
        call->send = own;
        call->recv = ref(SCALING_ARGS_BUF_USER_RECV, base);
    } else {
        call->send = ref(SCALING_ARGS_BUF_USER_SEND, base);
        call->recv = own.buf == SCALING_ARGS_BUF_IN_PLACE ? own
                                                          : ref(SCALING_ARGS_BUF_USER_RECV, 0);
    }
}

/* The root's call in a group of Gatherv/Scatterv: the group's vector relative to its base; outside
 * its range the root moves nothing (count 0, or in place when the application was). */
static void vector_root(const scaling_args *a, const int64_t *true_a, uint32_t s0, uint32_t s1,
                        const uint32_t *members, uint32_t n, int natural, scaling_args_call *call)
{
    int gather = a->coll == SCALING_COLL_GATHERV;
    int64_t base = group_vector(a, true_a, s0, s1, members, n, call) * (int64_t)a->type_size;
    call->send_count = call->recv_count = natural ? (int)scaling_args_count(a, 0, a->rank) : 0;
    scaling_args_ref own = ref(a->in_place ? SCALING_ARGS_BUF_IN_PLACE
                               : gather    ? SCALING_ARGS_BUF_USER_SEND
                                           : SCALING_ARGS_BUF_USER_RECV,
                               0);
    call->send = gather ? own : ref(SCALING_ARGS_BUF_USER_SEND, base);
    call->recv = gather ? ref(SCALING_ARGS_BUF_USER_RECV, base) : own;
}

int scaling_w1a_group(const scaling_w1a_plan *plan, const scaling_args *a, const int64_t *true_a,
                      uint32_t g, uint32_t *members, uint32_t *nmembers, int *member,
                      scaling_args_call *call)
{
    if (!plan || !members || !nmembers || !member || !call || g >= plan->ngroups ||
        scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    if (scaling_args_has_vectors(a) && (!call->counts_a || !call->displs_a))
        return MG_ERROR_EINVAL;
    uint32_t s0 = plan->starts[g], s1 = plan->starts[g + 1], root_pos = 0;
    if (a->coll == SCALING_COLL_ALLGATHERV) {
        for (uint32_t i = 0; i < a->nprocs; i++)
            members[i] = i;
        *nmembers = a->nprocs;
    } else {
        rooted_members(a, s0, s1, members, nmembers, &root_pos);
    }
    int is_root = a->rank == a->root, natural = a->rank >= s0 && a->rank < s1;
    *member = natural || is_root || a->coll == SCALING_COLL_ALLGATHERV;
    call->elem_size = a->type_size;
    call->root = root_pos;
    call->send = ref(SCALING_ARGS_BUF_USER_SEND, 0);
    call->recv = ref(SCALING_ARGS_BUF_USER_RECV, 0);
    call->send_count = call->recv_count = natural || a->coll == SCALING_COLL_BCAST ? (int)a->count
                                                                                   : 0;
    if (a->coll == SCALING_COLL_ALLGATHERV) {
        int64_t base = group_vector(a, true_a, s0, s1, members, *nmembers, call);
        call->send_count = call->recv_count = call->counts_a[a->rank];
        call->send = ref(a->in_place ? SCALING_ARGS_BUF_IN_PLACE : SCALING_ARGS_BUF_USER_SEND, 0);
        call->recv = ref(SCALING_ARGS_BUF_USER_RECV, base * (int64_t)a->type_size);
    } else if (is_root && (a->coll == SCALING_COLL_GATHER || a->coll == SCALING_COLL_SCATTER)) {
        regular_root(a, s0, natural, call);
    } else if (is_root && a->coll != SCALING_COLL_BCAST) {
        vector_root(a, true_a, s0, s1, members, *nmembers, natural, call);
    }
    return 0;
}
