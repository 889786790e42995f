/* W1-B message partitioning; see scaling_w1b.h and docs/collectives-engine.md §4.2. */
#include "scaling_w1b.h"

#include <limits.h>
#include <string.h>

#include "mg_error.h"

/* The slice of a message of total elements in the round starting at element o. */
static int cut(int64_t total, int64_t o, int64_t c)
{
    int64_t left = total - o;
    return (int)(left <= 0 ? 0 : left < c ? left : c);
}

/* A collective with a global buffer: a round's messages may be staged on some rank. */
static int has_global_buffer(scaling_coll c)
{
    return scaling_coll_get(c)->gbuf == SCALING_COLL_GBUF_SNP || c == SCALING_COLL_REDUCE_SCATTER;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

/* Whether every round can address vector v's segments in the user's buffer: no displacement as
 * passed is negative (a negative int one has wrapped, its true value, Detector D's, is past
 * INT_MAX; a `_c` call's is left to staging too), so each is the true one, and every segment ends
 * within INT_MAX, so that the round's d + o and d + o + k are ints. It reads only a, so that
 * plan_make, which sizes the staging (and is all the cost model sees), and every round decide
 * alike. */
static int direct_vector(const scaling_args *a, int v)
{
    if (!scaling_args_has_displs(a, v))
        return 0; /* Reduce_scatter: its blocks are the prefix sums of the counts */
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t d = scaling_args_displ(a, v, i);
        if (d < 0 || d > INT_MAX - scaling_args_count(a, v, i))
            return 0;
    }
    return 1;
}

/* Which of this rank's sides go through staging (scaling_w1b.h says which and why). */
static void staged_sides(const scaling_args *a, int *send, int *recv)
{
    int root = a->rank == a->root;
    *send = *recv = 0;
    switch (a->coll) {
    case SCALING_COLL_GATHERV:
        *recv = root && !direct_vector(a, 0);
        break;
    case SCALING_COLL_SCATTERV:
        *send = root && !direct_vector(a, 0);
        break;
    case SCALING_COLL_ALLGATHERV:
        *recv = !direct_vector(a, 0);
        break;
    case SCALING_COLL_ALLTOALL:
        *send = a->in_place;
        break;
    case SCALING_COLL_ALLTOALLV:
        *send = a->in_place || !direct_vector(a, 0);
        *recv = !direct_vector(a, 1);
        break;
    case SCALING_COLL_REDUCE_SCATTER:
        *send = 1;
        break;
    default:
        break;
    }
}

int scaling_w1b_plan_make(const scaling_bounds *b, const scaling_params *p, const scaling_args *a,
                          int64_t n_global, scaling_w1b_plan *out)
{
    if (!b || !p || !out || n_global < 0 || scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    scaling_bounds_limit lim;
    int rc = scaling_bounds_nmax(b, a->coll, a->type_size, a->nprocs, &lim);
    if (rc)
        return rc;
    int64_t P = a->nprocs, s = (int64_t)a->type_size;
    int64_t c = lim.n_max > INT_MAX ? INT_MAX : (int64_t)lim.n_max;
    /* The chunk is the same whether this rank stages or not: the ranks must agree on it, and a
     * Gatherv non-root cannot know whether the root stages. */
    if (has_global_buffer(a->coll)) {
        if (a->coll == SCALING_COLL_REDUCE_SCATTER)
            c /= P;
        c = min64(c, INT_MAX / P);
        uint64_t stage_elems = p->max_stage_bytes / (uint64_t)s;
        c = min64(c, (int64_t)(stage_elems > INT64_MAX ? INT64_MAX : stage_elems) / P);
    }
    if (c < 1)
        return MG_ERROR_ERANGE;
    memset(out, 0, sizeof *out);
    out->chunk = c;
    out->allgather_block_stride = p->allgather_block_stride;
    if (a->coll == SCALING_COLL_REDUCE_SCATTER) {
        /* Every rank has the counts; the rounds follow the largest block, not the total. */
        n_global = 0;
        for (uint32_t i = 0; i < a->nprocs; i++)
            if (scaling_args_count(a, 0, i) > n_global)
                n_global = scaling_args_count(a, 0, i);
    }
    int64_t rounds = n_global == 0 ? 1 : (n_global + c - 1) / c;
    if (rounds > UINT32_MAX)
        return MG_ERROR_ERANGE;
    out->rounds = (uint32_t)rounds;
    int send, recv;
    staged_sides(a, &send, &recv);
    out->stage_send_bytes = send ? P * c * s : 0;
    out->stage_recv_bytes = recv ? P * c * s : 0;
    return 0;
}

typedef struct round_ctx {
    const scaling_w1b_plan *plan;
    const scaling_args *a;
    int64_t o, c, s;
    scaling_args_copy *pack, *unpack;
    uint32_t npack, nunpack;
} round_ctx;

static scaling_args_ref ref(scaling_args_buf buf, int64_t off)
{
    scaling_args_ref r = {buf, off};
    return r;
}

static void add_copy(scaling_args_copy *list, uint32_t *n, scaling_args_ref from,
                     scaling_args_ref to, int64_t bytes)
{
    if (bytes == 0)
        return;
    list[*n].from = from;
    list[*n].to = to;
    list[*n].bytes = bytes;
    (*n)++;
}

/* Whether a regular blocked collective's rounds are its V-form (scaling_args.h): when the round
 * cuts the blocks (k < n; a round of whole blocks is the plain collective, blocks back to back)
 * and every displacement i n, and the end P n of the last slice, is an int. It reads only n, P and
 * k (and the plan), the same on every rank (n is every rank's count in these collectives, k follows
 * from the agreed chunk), so that every rank issues the same collective: MPI does not match a
 * Gather with a Gatherv. Past INT_MAX the sides keep their block stride, and so does Allgather
 * where the plan says so (scaling_params.h). */
static int regular_v_form(const round_ctx *x, int k)
{
    const scaling_args *a = x->a;
    if (a->coll == SCALING_COLL_ALLGATHER && x->plan->allgather_block_stride)
        return 0;
    return k < a->count && a->count <= INT_MAX / a->nprocs; /* P n <= INT_MAX, without overflow */
}

/* A global-buffer side of a regular round whose block i starts i step elements after the side's
 * reference and whose slices are k elements: in a V-form round counts k and displacements i step
 * (step <= n, so they fit: regular_v_form), otherwise the block stride (0 when the slices lie back
 * to back). */
static void blocked_side(const scaling_args_call *call, uint32_t P, int k, int64_t step,
                         int *counts, int *displs, int64_t *stride)
{
    if (!call->v_form) {
        *stride = step == k ? 0 : step;
        return;
    }
    for (uint32_t i = 0; i < P; i++) {
        counts[i] = k;
        displs[i] = (int)((int64_t)i * step);
    }
}

/* An Alltoall V-form round's slice from this rank to itself is copied here, before the call, and
 * the round sends it nothing: MPICH moves an Alltoallv's block to itself through its messaging,
 * which made W1-B's rounds cost 1.6-1.7 times the Alltoall they replace (2 ranks, 1 MiB; with
 * the slice copied, 1.0), where its Alltoall copies that block with memcpy. */
static void own_slice_copied(round_ctx *x, scaling_args_call *call, int64_t n)
{
    uint32_t me = x->a->rank;
    int64_t at = ((int64_t)me * n + x->o) * x->s;
    add_copy(x->pack, &x->npack, ref(SCALING_ARGS_BUF_USER_SEND, at),
             ref(SCALING_ARGS_BUF_USER_RECV, at), (int64_t)call->counts_a[me] * x->s);
    call->counts_a[me] = call->counts_b[me] = 0;
}

/* Regular blocked collectives: block i of the user's global buffer is elements [i n, (i+1) n) and
 * the round moves slice [o, o + k) of every block. The global-buffer side takes the slices where
 * they are, from o, block i at i n (blocked_side), except an in-place Alltoall's send side: its
 * slices are the very bytes the round receives into, so they are packed into staging first. */
static void regular_blocks(round_ctx *x, scaling_args_call *call)
{
    const scaling_args *a = x->a;
    int64_t n = a->count, s = x->s;
    uint32_t P = a->nprocs;
    int k = cut(n, x->o, x->c);
    int root = a->rank == a->root;
    call->v_form = regular_v_form(x, k);
    call->send_count = call->recv_count = k;
    call->send = ref(SCALING_ARGS_BUF_USER_SEND, x->o * s);
    call->recv = ref(SCALING_ARGS_BUF_USER_RECV, x->o * s);
    switch (a->coll) {
    case SCALING_COLL_SCATTER:
        if (root)
            blocked_side(call, P, k, n, call->counts_a, call->displs_a, &call->send_stride);
        else
            call->send = ref(SCALING_ARGS_BUF_NONE, 0);
        if (a->in_place)
            call->recv = ref(SCALING_ARGS_BUF_IN_PLACE, 0);
        return;
    case SCALING_COLL_GATHER:
    case SCALING_COLL_ALLGATHER:
        /* In place (a Gather's root, every rank of an Allgather), so is the round: this rank's
         * slice is already at its place in the round's layout. */
        if (a->in_place)
            call->send = ref(SCALING_ARGS_BUF_IN_PLACE, 0);
        if (a->coll == SCALING_COLL_GATHER && !root)
            call->recv = ref(SCALING_ARGS_BUF_NONE, 0);
        else
            blocked_side(call, P, k, n, call->counts_a, call->displs_a, &call->recv_stride);
        return;
    default: /* Alltoall: vector A is the send side, B the receive side */
        blocked_side(call, P, k, n, call->counts_b, call->displs_b, &call->recv_stride);
        if (!a->in_place) {
            blocked_side(call, P, k, n, call->counts_a, call->displs_a, &call->send_stride);
            if (call->v_form)
                own_slice_copied(x, call, n);
            return;
        }
        for (uint32_t i = 0; i < P; i++)
            add_copy(x->pack, &x->npack,
                     ref(SCALING_ARGS_BUF_USER_RECV, ((int64_t)i * n + x->o) * s),
                     ref(SCALING_ARGS_BUF_STAGE_SEND, (int64_t)i * k * s), (int64_t)k * s);
        call->send = ref(SCALING_ARGS_BUF_STAGE_SEND, 0);
        blocked_side(call, P, k, k, call->counts_a, call->displs_a, &call->send_stride);
    }
}

/* Side `sends` (1: the call's send side, 0: its receive side) of an irregular collective's round,
 * described by vector v (0: A, 1: B) over the user's buffer `user`: the round's count of every
 * segment into rcounts and, direct, the user's buffer itself with displacements d + o (d + count
 * once the segment is done: any displacement serves a count of 0, and this one is an int); staged,
 * the slices laid out contiguously in staging (displacements their prefix sums, rdispls may be
 * NULL) and the copies between them and the user's segments. d is the true displacement: true_d,
 * else the vector's own, else, for Reduce_scatter, the prefix sum of the counts. Returns the
 * reference the call passes for the side. */
static scaling_args_ref vector_side(round_ctx *x, int v, const int64_t *true_d, int *rcounts,
                                    int *rdispls, scaling_args_buf user, int sends, int staged)
{
    int64_t prefix = 0, user_prefix = 0;
    int displs = scaling_args_has_displs(x->a, v);
    scaling_args_buf stage = sends ? SCALING_ARGS_BUF_STAGE_SEND : SCALING_ARGS_BUF_STAGE_RECV;
    scaling_args_copy *list = sends ? x->pack : x->unpack;
    uint32_t *nlist = sends ? &x->npack : &x->nunpack;
    for (uint32_t i = 0; i < x->a->nprocs; i++) {
        int64_t count = scaling_args_count(x->a, v, i);
        int k = cut(count, x->o, x->c);
        int64_t d = true_d ? true_d[i] : displs ? scaling_args_displ(x->a, v, i) : user_prefix;
        rcounts[i] = k;
        if (!staged) {
            rdispls[i] = (int)(d + min64(x->o, count));
        } else {
            if (rdispls)
                rdispls[i] = (int)prefix;
            scaling_args_ref u = ref(user, (d + x->o) * x->s), st = ref(stage, prefix * x->s);
            add_copy(list, nlist, sends ? u : st, sends ? st : u, (int64_t)k * x->s);
        }
        prefix += k;
        user_prefix += count;
    }
    return ref(staged ? stage : user, 0);
}

static void irregular(round_ctx *x, const int64_t *true_a, const int64_t *true_b,
                      scaling_args_call *call)
{
    const scaling_args *a = x->a;
    int64_t s = x->s;
    int vec = scaling_args_has_vectors(a), st_send, st_recv;
    staged_sides(a, &st_send, &st_recv);
    int64_t own = vec && a->coll != SCALING_COLL_ALLTOALLV && a->coll != SCALING_COLL_REDUCE_SCATTER
                      ? scaling_args_count(a, 0, a->rank)
                      : a->count;
    int64_t own_d = !vec || !scaling_args_has_displs(a, 0) ? 0
                    : true_a                               ? true_a[a->rank]
                                                           : scaling_args_displ(a, 0, a->rank);
    call->send_count = call->recv_count = cut(own, x->o, x->c);
    call->send = ref(SCALING_ARGS_BUF_USER_SEND, x->o * s);
    call->recv = ref(SCALING_ARGS_BUF_USER_RECV, x->o * s);
    switch (a->coll) {
    case SCALING_COLL_GATHERV:
    case SCALING_COLL_ALLGATHERV:
        call->recv = ref(SCALING_ARGS_BUF_NONE, 0);
        if (vec)
            call->recv = vector_side(x, 0, true_a, call->counts_a, call->displs_a,
                                     SCALING_ARGS_BUF_USER_RECV, 0, st_recv);
        /* In place, so is the round: MPI wants an in-place Allgatherv in place on every rank, and
         * a rank's vector (its displacements are its own) may stage where another's does not.
         * Staged, this rank's slice goes to its slot in staging first. */
        if (a->in_place) {
            call->send = ref(SCALING_ARGS_BUF_IN_PLACE, 0);
            if (st_recv)
                add_copy(x->pack, &x->npack, ref(SCALING_ARGS_BUF_USER_RECV, (own_d + x->o) * s),
                         ref(SCALING_ARGS_BUF_STAGE_RECV, (int64_t)call->displs_a[a->rank] * s),
                         (int64_t)call->send_count * s);
        }
        break;
    case SCALING_COLL_SCATTERV:
        call->send = ref(SCALING_ARGS_BUF_NONE, 0);
        if (vec) {
            call->send = vector_side(x, 0, true_a, call->counts_a, call->displs_a,
                                     SCALING_ARGS_BUF_USER_SEND, 1, st_send);
            if (a->in_place)
                call->recv = ref(SCALING_ARGS_BUF_IN_PLACE, 0);
        }
        break;
    case SCALING_COLL_ALLTOALLV:
        /* In place, the send side is the receive vector over the receive buffer, staged (its
         * slices are the bytes the round receives into). */
        call->send = vector_side(
            x, a->in_place, a->in_place ? true_b : true_a, call->counts_a, call->displs_a,
            a->in_place ? SCALING_ARGS_BUF_USER_RECV : SCALING_ARGS_BUF_USER_SEND, 1, st_send);
        call->recv = vector_side(x, 1, true_b, call->counts_b, call->displs_b,
                                 SCALING_ARGS_BUF_USER_RECV, 0, st_recv);
        break;
    default: /* Reduce_scatter: block i of the input starts at the prefix sum of the counts */
        call->send = vector_side(
            x, 0, NULL, call->counts_a, NULL,
            a->in_place ? SCALING_ARGS_BUF_USER_RECV : SCALING_ARGS_BUF_USER_SEND, 1, st_send);
        call->recv_count = call->send_count = cut(scaling_args_count(a, 0, a->rank), x->o, x->c);
        break;
    }
}

/* Whether call has the arrays the rounds may write on this rank: those of the collective's V-form
 * (the collective itself when irregular), which a regular collective's round may issue. */
static int has_arrays(const scaling_args *a, const scaling_args_call *call)
{
    scaling_args v = *a;
    v.coll = scaling_coll_v_form(a->coll);
    unsigned vectors = scaling_coll_get(v.coll)->vectors;
    return !scaling_args_has_vectors(&v) ||
           (call->counts_a && (!(vectors & SCALING_COLL_VEC_A_DISPLS) || call->displs_a) &&
            (!(vectors & SCALING_COLL_VEC_B) || (call->counts_b && call->displs_b)));
}

int scaling_w1b_round(const scaling_w1b_plan *plan, const scaling_args *a, const int64_t *true_a,
                      const int64_t *true_b, uint32_t r, scaling_args_call *call,
                      scaling_args_copy *pack, uint32_t *npack, scaling_args_copy *unpack,
                      uint32_t *nunpack)
{
    if (!plan || !call || !pack || !npack || !unpack || !nunpack || r >= plan->rounds ||
        scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    if (!has_arrays(a, call))
        return MG_ERROR_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    round_ctx x = {.plan = plan,
                   .a = a,
                   .o = (int64_t)r * plan->chunk,
                   .c = plan->chunk,
                   .s = (int64_t)a->type_size,
                   .pack = pack,
                   .unpack = unpack};
    call->elem_size = a->type_size;
    call->root = a->root;
    call->send_stride = call->recv_stride = 0;
    call->v_form = 0;
    if (!info->irregular && info->gbuf == SCALING_COLL_GBUF_SNP) {
        regular_blocks(&x, call);
    } else if (info->irregular) {
        irregular(&x, true_a, true_b, call);
    } else { /* Bcast, Reduce, Allreduce: one contiguous slice */
        call->send_count = call->recv_count = cut(a->count, x.o, x.c);
        call->send = a->in_place ? ref(SCALING_ARGS_BUF_IN_PLACE, 0)
                                 : ref(SCALING_ARGS_BUF_USER_SEND, x.o * x.s);
        call->recv = ref(SCALING_ARGS_BUF_USER_RECV, x.o * x.s);
        if (a->coll == SCALING_COLL_BCAST)
            call->send = call->recv;
    }
    *npack = x.npack;
    *nunpack = x.nunpack;
    return 0;
}
