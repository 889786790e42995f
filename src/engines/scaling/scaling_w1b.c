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

static int staged(scaling_coll c)
{
    return scaling_coll_get(c)->gbuf == SCALING_GBUF_SNP || c == SCALING_REDUCE_SCATTER;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

/* Which staging buffers this rank provides; each holds one round's global buffer of bytes. */
static void stage_sizes(const scaling_args *a, int64_t bytes, scaling_w1b_plan *out)
{
    int root = a->rank == a->root;
    int send = 0, recv = 0;
    switch (a->coll) {
    case SCALING_GATHER:
    case SCALING_GATHERV:
        recv = root;
        break;
    case SCALING_SCATTER:
    case SCALING_SCATTERV:
        send = root;
        break;
    case SCALING_ALLGATHER:
    case SCALING_ALLGATHERV:
        recv = 1;
        break;
    case SCALING_ALLTOALL:
    case SCALING_ALLTOALLV:
        send = recv = 1;
        break;
    case SCALING_REDUCE_SCATTER:
        send = 1;
        break;
    default:
        break;
    }
    out->stage_send_bytes = send ? bytes : 0;
    out->stage_recv_bytes = recv ? bytes : 0;
}

int scaling_w1b_plan_make(const scaling_bounds *b, const scaling_params *p, const scaling_args *a,
                          int64_t n_global, scaling_w1b_plan *out)
{
    if (!b || !p || !out || n_global < 0 || scaling_args_validate(a) != 0)
        return MG_EINVAL;
    scaling_limit lim;
    int rc = scaling_bounds_nmax(b, a->coll, a->type_size, a->nprocs, &lim);
    if (rc)
        return rc;
    int64_t P = a->nprocs, s = (int64_t)a->type_size;
    int64_t c = lim.n_max > INT_MAX ? INT_MAX : (int64_t)lim.n_max;
    if (staged(a->coll)) {
        if (a->coll == SCALING_REDUCE_SCATTER)
            c /= P;
        c = min64(c, INT_MAX / P);
        uint64_t stage_elems = p->max_stage_bytes / (uint64_t)s;
        c = min64(c, (int64_t)(stage_elems > INT64_MAX ? INT64_MAX : stage_elems) / P);
    }
    if (c < 1)
        return MG_ERANGE;
    memset(out, 0, sizeof *out);
    out->chunk = c;
    if (a->coll == SCALING_REDUCE_SCATTER) {
        /* Every rank has the counts; the rounds follow the largest block, not the total. */
        n_global = 0;
        for (uint32_t i = 0; i < a->nprocs; i++)
            if (scaling_args_count(a, 0, i) > n_global)
                n_global = scaling_args_count(a, 0, i);
    }
    int64_t rounds = n_global == 0 ? 1 : (n_global + c - 1) / c;
    if (rounds > UINT32_MAX)
        return MG_ERANGE;
    out->rounds = (uint32_t)rounds;
    if (staged(a->coll))
        stage_sizes(a, P * c * s, out);
    return 0;
}

typedef struct round_ctx {
    const scaling_args *a;
    int64_t o, c, s;
    scaling_copy *pack, *unpack;
    uint32_t npack, nunpack;
} round_ctx;

static scaling_ref ref(scaling_buf buf, int64_t off)
{
    scaling_ref r = {buf, off};
    return r;
}

static void add_copy(scaling_copy *list, uint32_t *n, scaling_ref from, scaling_ref to,
                     int64_t bytes)
{
    if (bytes == 0)
        return;
    list[*n].from = from;
    list[*n].to = to;
    list[*n].bytes = bytes;
    (*n)++;
}

/* Regular blocked collectives: block i of the user's global buffer is elements [i n, (i+1) n); the
 * round stages slice [o, o + k) of every block contiguously. */
static void regular_blocks(round_ctx *x, scaling_call *call)
{
    const scaling_args *a = x->a;
    int64_t n = a->count, s = x->s;
    int k = cut(n, x->o, x->c);
    int root = a->rank == a->root;
    call->send_count = call->recv_count = k;
    call->send = ref(SCALING_BUF_USER_SEND, x->o * s);
    call->recv = ref(SCALING_BUF_USER_RECV, x->o * s);
    int gathers = a->coll == SCALING_GATHER || a->coll == SCALING_ALLGATHER;
    if (gathers && a->in_place)
        call->send = ref(SCALING_BUF_USER_RECV, ((int64_t)a->rank * n + x->o) * s);
    int packs = (a->coll == SCALING_SCATTER && root) || a->coll == SCALING_ALLTOALL;
    int unpacks = (a->coll == SCALING_GATHER && root) || a->coll == SCALING_ALLGATHER ||
                  a->coll == SCALING_ALLTOALL;
    /* In place, Alltoall's data is in the receive buffer; Scatter's stays in the send buffer. */
    scaling_buf pack_from =
        a->in_place && a->coll == SCALING_ALLTOALL ? SCALING_BUF_USER_RECV : SCALING_BUF_USER_SEND;
    for (uint32_t i = 0; i < a->nprocs; i++) {
        int64_t user = ((int64_t)i * n + x->o) * s, stage = (int64_t)i * k * s;
        if (packs)
            add_copy(x->pack, &x->npack, ref(pack_from, user), ref(SCALING_BUF_STAGE_SEND, stage),
                     (int64_t)k * s);
        if (unpacks)
            add_copy(x->unpack, &x->nunpack, ref(SCALING_BUF_STAGE_RECV, stage),
                     ref(SCALING_BUF_USER_RECV, user), (int64_t)k * s);
    }
    if (packs)
        call->send = ref(SCALING_BUF_STAGE_SEND, 0);
    if (unpacks)
        call->recv = ref(SCALING_BUF_STAGE_RECV, 0);
    if (a->coll == SCALING_SCATTER && root && a->in_place)
        call->recv = ref(SCALING_BUF_IN_PLACE, 0);
    if (a->coll == SCALING_GATHER && !root)
        call->recv = ref(SCALING_BUF_NONE, 0);
    if (a->coll == SCALING_SCATTER && !root)
        call->send = ref(SCALING_BUF_NONE, 0);
}

/* Vector v (0: A, 1: B) of an irregular collective: the round's slice of every segment, laid out
 * contiguously in staging (counts/displs written to the call's arrays), and the copies between the
 * user's segments (at the true displacements: true_d, else the vector's own, else, for
 * Reduce_scatter, the prefix sums of the counts) and staging. */
static void vector_round(round_ctx *x, int v, const int64_t *true_d, int *rcounts, int *rdispls,
                         scaling_copy *list, uint32_t *nlist, scaling_buf user, int to_stage)
{
    int64_t prefix = 0, user_prefix = 0;
    int displs = scaling_args_has_displs(x->a, v);
    scaling_buf stage = to_stage ? SCALING_BUF_STAGE_SEND : SCALING_BUF_STAGE_RECV;
    for (uint32_t i = 0; i < x->a->nprocs; i++) {
        int64_t count = scaling_args_count(x->a, v, i);
        int k = cut(count, x->o, x->c);
        int64_t d = true_d ? true_d[i] : displs ? scaling_args_displ(x->a, v, i) : user_prefix;
        rcounts[i] = k;
        if (rdispls)
            rdispls[i] = (int)prefix;
        scaling_ref u = ref(user, (d + x->o) * x->s), st = ref(stage, prefix * x->s);
        add_copy(list, nlist, to_stage ? u : st, to_stage ? st : u, (int64_t)k * x->s);
        prefix += k;
        user_prefix += count;
    }
}

static void irregular(round_ctx *x, const int64_t *true_a, const int64_t *true_b,
                      scaling_call *call)
{
    const scaling_args *a = x->a;
    int64_t s = x->s;
    int vec = scaling_args_has_vectors(a);
    int64_t own = vec && a->coll != SCALING_ALLTOALLV && a->coll != SCALING_REDUCE_SCATTER
                      ? scaling_args_count(a, 0, a->rank)
                      : a->count;
    int64_t own_d = !vec || !scaling_args_has_displs(a, 0) ? 0
                    : true_a                               ? true_a[a->rank]
                                                           : scaling_args_displ(a, 0, a->rank);
    call->send_count = call->recv_count = cut(own, x->o, x->c);
    call->send = ref(SCALING_BUF_USER_SEND, x->o * s);
    call->recv = ref(SCALING_BUF_USER_RECV, x->o * s);
    switch (a->coll) {
    case SCALING_GATHERV:
    case SCALING_ALLGATHERV:
        if (a->in_place)
            call->send = ref(SCALING_BUF_USER_RECV, (own_d + x->o) * s);
        if (vec) {
            vector_round(x, 0, true_a, call->counts_a, call->displs_a, x->unpack, &x->nunpack,
                         SCALING_BUF_USER_RECV, 0);
            call->recv = ref(SCALING_BUF_STAGE_RECV, 0);
        } else {
            call->recv = ref(SCALING_BUF_NONE, 0);
        }
        break;
    case SCALING_SCATTERV:
        call->send = ref(SCALING_BUF_NONE, 0);
        if (vec) {
            vector_round(x, 0, true_a, call->counts_a, call->displs_a, x->pack, &x->npack,
                         SCALING_BUF_USER_SEND, 1);
            call->send = ref(SCALING_BUF_STAGE_SEND, 0);
            if (a->in_place)
                call->recv = ref(SCALING_BUF_IN_PLACE, 0);
        }
        break;
    case SCALING_ALLTOALLV: {
        /* In place, the send side is the receive vector over the receive buffer. */
        vector_round(x, a->in_place, a->in_place ? true_b : true_a, call->counts_a, call->displs_a,
                     x->pack, &x->npack,
                     a->in_place ? SCALING_BUF_USER_RECV : SCALING_BUF_USER_SEND, 1);
        vector_round(x, 1, true_b, call->counts_b, call->displs_b, x->unpack, &x->nunpack,
                     SCALING_BUF_USER_RECV, 0);
        call->send = ref(SCALING_BUF_STAGE_SEND, 0);
        call->recv = ref(SCALING_BUF_STAGE_RECV, 0);
        break;
    }
    default: /* Reduce_scatter: block i of the input starts at the prefix sum of the counts */
        vector_round(x, 0, NULL, call->counts_a, NULL, x->pack, &x->npack,
                     a->in_place ? SCALING_BUF_USER_RECV : SCALING_BUF_USER_SEND, 1);
        call->send = ref(SCALING_BUF_STAGE_SEND, 0);
        call->recv_count = call->send_count = cut(scaling_args_count(a, 0, a->rank), x->o, x->c);
        break;
    }
}

int scaling_w1b_round(const scaling_w1b_plan *plan, const scaling_args *a, const int64_t *true_a,
                      const int64_t *true_b, uint32_t r, scaling_call *call, scaling_copy *pack,
                      uint32_t *npack, scaling_copy *unpack, uint32_t *nunpack)
{
    if (!plan || !call || !pack || !npack || !unpack || !nunpack || r >= plan->rounds ||
        scaling_args_validate(a) != 0)
        return MG_EINVAL;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    if (scaling_args_has_vectors(a) &&
        (!call->counts_a || ((info->vectors & SCALING_VEC_A_DISPLS) && !call->displs_a) ||
         ((info->vectors & SCALING_VEC_B) && (!call->counts_b || !call->displs_b))))
        return MG_EINVAL;
    round_ctx x = {a, (int64_t)r * plan->chunk, plan->chunk, (int64_t)a->type_size, pack, unpack, 0,
                   0};
    call->elem_size = a->type_size;
    call->root = a->root;
    if (!info->irregular && info->gbuf == SCALING_GBUF_SNP) {
        regular_blocks(&x, call);
    } else if (info->irregular) {
        irregular(&x, true_a, true_b, call);
    } else { /* Bcast, Reduce, Allreduce: one contiguous slice */
        call->send_count = call->recv_count = cut(a->count, x.o, x.c);
        call->send =
            a->in_place ? ref(SCALING_BUF_IN_PLACE, 0) : ref(SCALING_BUF_USER_SEND, x.o * x.s);
        call->recv = ref(SCALING_BUF_USER_RECV, x.o * x.s);
        if (a->coll == SCALING_BCAST)
            call->send = call->recv;
    }
    *npack = x.npack;
    *nunpack = x.nunpack;
    return 0;
}
