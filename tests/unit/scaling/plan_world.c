/* Simulated ranks for the plan tests; see plan_world.h. */
#include "plan_world.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "scaling_check.h"
#include "scaling_w1a.h"
#include "scaling_w1b.h"
#include "scaling_w2.h"
#include "scaling_w3.h"

static int64_t draw_count(mg_rng *rng, const world_spec *s)
{
    int64_t units = s->max_count / s->factor;
    if (mg_rng_below(rng, 5) == 0)
        return 0;
    return (int64_t)mg_rng_below(rng, (uint64_t)units + 1) * s->factor;
}

/* Displacements for counts[0..P): non-descending, each step at most INT_MAX. */
static void draw_displs(mg_rng *rng, const world_spec *s, const int64_t *counts, int64_t *displs)
{
    int64_t at = s->layout == WORLD_PACKED ? 0 : (int64_t)mg_rng_below(rng, 4) * s->factor;
    for (uint32_t i = 0; i < s->P; i++) {
        displs[i] = at;
        int64_t gap = 0;
        if (s->layout == WORLD_GAPPED)
            gap = (int64_t)mg_rng_below(rng, 3) * s->factor;
        else if (s->layout == WORLD_HUGE)
            gap = (INT_MAX - counts[i] - (int64_t)mg_rng_below(rng, 1u << 20)) / s->factor *
                  s->factor;
        at += counts[i] + gap;
    }
}

static int alloc_vectors(world *w)
{
    size_t n = (size_t)w->spec.P * w->spec.P;
    w->tc_a = calloc(n, sizeof(int64_t));
    w->td_a = calloc(n, sizeof(int64_t));
    w->tc_b = calloc(n, sizeof(int64_t));
    w->td_b = calloc(n, sizeof(int64_t));
    w->c_a = calloc(n, sizeof(int));
    w->d_a = calloc(n, sizeof(int));
    w->c_b = calloc(n, sizeof(int));
    w->d_b = calloc(n, sizeof(int));
    w->send = calloc(w->spec.P, sizeof(ref_buf));
    w->recv = calloc(w->spec.P, sizeof(ref_buf));
    return w->tc_a && w->td_a && w->tc_b && w->td_b && w->c_a && w->d_a && w->c_b && w->d_b &&
                   w->send && w->recv
               ? 0
               : -1;
}

/* The int a 64-bit value becomes when the application stores it (two's complement truncation). */
static int truncate32(int64_t v)
{
    return (int)(int32_t)(uint32_t)(uint64_t)v;
}

static void draw_vectors(world *w, mg_rng *rng)
{
    const world_spec *s = &w->spec;
    uint32_t P = s->P;
    if (s->coll == SCALING_COLL_ALLTOALLV) {
        /* Matrix M[i][j]: rank i sends to j; symmetric in place (a rank sends what it receives). */
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                w->tc_a[i * P + j] = (s->in_place && j < i) ? w->tc_a[j * P + i]
                                                            : draw_count(rng, s);
        for (uint32_t i = 0; i < P; i++) {
            for (uint32_t j = 0; j < P; j++)
                w->tc_b[i * P + j] = w->tc_a[j * P + i];
            draw_displs(rng, s, &w->tc_a[i * P], &w->td_a[i * P]);
            draw_displs(rng, s, &w->tc_b[i * P], &w->td_b[i * P]);
        }
    } else {
        for (uint32_t j = 0; j < P; j++)
            w->tc_a[j] = draw_count(rng, s);
        draw_displs(rng, s, w->tc_a, w->td_a);
        for (uint32_t i = 1; i < P; i++) {
            memcpy(&w->tc_a[i * P], w->tc_a, P * sizeof(int64_t));
            memcpy(&w->td_a[i * P], w->td_a, P * sizeof(int64_t));
        }
    }
    for (size_t i = 0; i < (size_t)P * P; i++) {
        w->c_a[i] = (int)w->tc_a[i];
        w->d_a[i] = truncate32(w->td_a[i]);
        w->c_b[i] = (int)w->tc_b[i];
        w->d_b[i] = truncate32(w->td_b[i]);
    }
}

/* Windows for the segments of one vector, in displacement order (the generator keeps it). */
static int add_segments(ref_buf *b, const int64_t *counts, const int64_t *displs, uint32_t P,
                        uint64_t s, uint64_t seed)
{
    for (uint32_t i = 0; i < P; i++)
        if (ref_buf_add(b, displs[i] * (int64_t)s, counts[i] * (int64_t)s, seed + i) != 0)
            return -1;
    return 0;
}

static int add_dense(ref_buf *b, int64_t elems, uint64_t s, uint64_t seed)
{
    return ref_buf_add(b, 0, elems * (int64_t)s, seed);
}

static int rank_in_place(const world *w, uint32_t r)
{
    return w->spec.in_place && (!scaling_coll_get(w->spec.coll)->rooted || r == w->spec.root);
}

static int make_buffers(world *w)
{
    const world_spec *s = &w->spec;
    uint32_t P = s->P;
    int64_t n = w->n, total = 0;
    for (uint32_t i = 0; i < P; i++)
        total += w->tc_a[i];
    int rc = 0;
    for (uint32_t r = 0; r < P && rc == 0; r++) {
        uint64_t seed = s->seed * 1000003u + r * 7919u;
        int ip = rank_in_place(w, r), root = r == s->root;
        const int64_t *ca = &w->tc_a[r * P], *da = &w->td_a[r * P];
        ref_buf *snd = &w->send[r], *rcv = &w->recv[r];
        switch (s->coll) {
        case SCALING_COLL_BCAST:
            rc = add_dense(rcv, n, s->s, seed);
            break;
        case SCALING_COLL_REDUCE:
        case SCALING_COLL_ALLREDUCE:
            rc = ip ? 0 : add_dense(snd, n, s->s, seed);
            if (rc == 0 && (root || s->coll == SCALING_COLL_ALLREDUCE))
                rc = add_dense(rcv, n, s->s, seed + 1);
            break;
        case SCALING_COLL_GATHER:
            rc = ip ? 0 : add_dense(snd, n, s->s, seed);
            if (rc == 0 && root)
                rc = add_dense(rcv, n * P, s->s, seed + 1);
            break;
        case SCALING_COLL_SCATTER:
            rc = root ? add_dense(snd, n * P, s->s, seed) : 0;
            if (rc == 0 && !ip)
                rc = add_dense(rcv, n, s->s, seed + 1);
            break;
        case SCALING_COLL_ALLGATHER:
        case SCALING_COLL_ALLTOALL:
            rc = ip ? 0 : add_dense(snd, s->coll == SCALING_COLL_ALLGATHER ? n : n * P, s->s, seed);
            if (rc == 0)
                rc = add_dense(rcv, n * P, s->s, seed + 1);
            break;
        case SCALING_COLL_GATHERV:
        case SCALING_COLL_ALLGATHERV:
            rc = ip ? 0 : add_dense(snd, ca[r], s->s, seed);
            if (rc == 0 && (root || s->coll == SCALING_COLL_ALLGATHERV))
                rc = add_segments(rcv, ca, da, P, s->s, seed + 1);
            break;
        case SCALING_COLL_SCATTERV:
            rc = root ? add_segments(snd, ca, da, P, s->s, seed) : 0;
            if (rc == 0 && !ip)
                rc = add_dense(rcv, ca[r], s->s, seed + 1);
            break;
        case SCALING_COLL_ALLTOALLV:
            rc = ip ? 0 : add_segments(snd, ca, da, P, s->s, seed);
            if (rc == 0)
                rc = add_segments(rcv, &w->tc_b[r * P], &w->td_b[r * P], P, s->s, seed + 1);
            break;
        default: /* Reduce_scatter */
            rc = ip ? 0 : add_dense(snd, total, s->s, seed);
            if (rc == 0)
                rc = add_dense(rcv, ip ? total : ca[r], s->s, seed + 1);
            break;
        }
    }
    return rc;
}

int world_make(world *w, const world_spec *spec)
{
    memset(w, 0, sizeof *w);
    w->spec = *spec;
    if (w->spec.factor < 1)
        w->spec.factor = 1;
    if (alloc_vectors(w) != 0)
        return -1;
    mg_rng rng;
    mg_rng_seed(&rng, spec->seed);
    w->n = draw_count(&rng, &w->spec);
    draw_vectors(w, &rng);
    return make_buffers(w);
}

int world_clone_buffers(world *dst, const world *src)
{
    *dst = *src;
    dst->send = calloc(src->spec.P, sizeof(ref_buf));
    dst->recv = calloc(src->spec.P, sizeof(ref_buf));
    if (!dst->send || !dst->recv)
        return -1;
    for (uint32_t r = 0; r < src->spec.P; r++)
        if (ref_buf_copy(&dst->send[r], &src->send[r]) != 0 ||
            ref_buf_copy(&dst->recv[r], &src->recv[r]) != 0)
            return -1;
    return 0;
}

void world_free_buffers(world *w)
{
    for (uint32_t r = 0; r < w->spec.P && w->send && w->recv; r++) {
        ref_buf_free(&w->send[r]);
        ref_buf_free(&w->recv[r]);
    }
    free(w->send);
    free(w->recv);
    w->send = w->recv = NULL;
}

void world_free(world *w)
{
    world_free_buffers(w);
    free(w->tc_a);
    free(w->td_a);
    free(w->tc_b);
    free(w->td_b);
    free(w->c_a);
    free(w->d_a);
    free(w->c_b);
    free(w->d_b);
}

void world_args(const world *w, uint32_t r, scaling_args *a)
{
    const world_spec *s = &w->spec;
    uint32_t P = s->P;
    memset(a, 0, sizeof *a);
    a->coll = s->coll;
    a->nprocs = P;
    a->rank = r;
    a->root = s->root;
    a->type_size = s->s;
    a->in_place = rank_in_place(w, r);
    const scaling_coll_info *info = scaling_coll_get(s->coll);
    a->count = info->irregular ? w->tc_a[r * P + r] : w->n;
    if (s->coll == SCALING_COLL_ALLTOALLV || s->coll == SCALING_COLL_REDUCE_SCATTER)
        a->count = 0;
    a->large = s->large;
    if (!scaling_args_has_vectors(a))
        return;
    /* MPI ignores the send vector of an in-place Alltoallv. */
    int has_a = !(s->coll == SCALING_COLL_ALLTOALLV && a->in_place);
    int has_d = has_a && (info->vectors & SCALING_COLL_VEC_A_DISPLS);
    int has_b = (info->vectors & SCALING_COLL_VEC_B) != 0;
    size_t at = (size_t)r * P;
    if (s->large) {
        a->counts64_a = has_a ? &w->tc_a[at] : NULL, a->displs64_a = has_d ? &w->td_a[at] : NULL;
        a->counts64_b = has_b ? &w->tc_b[at] : NULL, a->displs64_b = has_b ? &w->td_b[at] : NULL;
    } else {
        a->counts_a = has_a ? &w->c_a[at] : NULL, a->displs_a = has_d ? &w->d_a[at] : NULL;
        a->counts_b = has_b ? &w->c_b[at] : NULL, a->displs_b = has_b ? &w->d_b[at] : NULL;
    }
}

int world_same(const world *a, const world *b)
{
    for (uint32_t r = 0; r < a->spec.P; r++)
        if (!ref_buf_equal(&a->send[r], &b->send[r]) || !ref_buf_equal(&a->recv[r], &b->recv[r]))
            return 0;
    return 1;
}

int world_run_original(world *w)
{
    const world_spec *s = &w->spec;
    uint32_t P = s->P;
    ref_call *calls = calloc(P, sizeof *calls);
    if (!calls)
        return -1;
    for (uint32_t r = 0; r < P; r++) {
        scaling_args a;
        world_args(w, r, &a);
        ref_call *c = &calls[r];
        c->elem = s->s;
        c->root = s->root;
        c->send = (ref_arg){REF_BUF, &w->send[r], 0};
        c->recv = (ref_arg){REF_BUF, &w->recv[r], 0};
        if (a.in_place && (s->coll == SCALING_COLL_SCATTER || s->coll == SCALING_COLL_SCATTERV))
            c->recv.kind = REF_IN_PLACE;
        else if (a.in_place)
            c->send.kind = REF_IN_PLACE;
        c->send_count = c->recv_count = a.count;
        c->counts_a = &w->tc_a[r * P];
        c->displs_a = &w->td_a[r * P];
        c->counts_b = &w->tc_b[r * P];
        c->displs_b = &w->td_b[r * P];
    }
    int rc = ref_collective(s->coll, P, calls, s->s);
    free(calls);
    return rc;
}

/* Per-rank scratch of a plan run. */
typedef struct rank_state {
    scaling_args a;
    int64_t *scratch; /* 2P: Detector D's recovered displacements */
    scaling_check_trigger t;
    int *counts_a, *displs_a, *counts_b, *displs_b; /* the plan's int vectors */
    int64_t *c64_a, *d64_a, *c64_b, *d64_b;         /* the same widened for the reference model */
    scaling_args_call call;
    scaling_args_copy *pack, *unpack;
    uint32_t npack, nunpack;
    ref_buf stage_send, stage_recv;
    int member;
} rank_state;

typedef struct run {
    world *w;
    uint32_t P;
    rank_state *rs;
    ref_call *calls;
    uint32_t *members;
} run;

static int run_begin(run *x, world *w, const scaling_bounds *b)
{
    uint32_t P = w->spec.P;
    x->w = w;
    x->P = P;
    x->rs = calloc(P, sizeof *x->rs);
    x->calls = calloc(P, sizeof *x->calls);
    x->members = calloc(P, sizeof *x->members);
    if (!x->rs || !x->calls || !x->members)
        return -1;
    for (uint32_t r = 0; r < P; r++) {
        rank_state *s = &x->rs[r];
        world_args(w, r, &s->a);
        s->scratch = calloc(2 * (size_t)P, sizeof(int64_t));
        s->counts_a = calloc(P, sizeof(int));
        s->displs_a = calloc(P, sizeof(int));
        s->counts_b = calloc(P, sizeof(int));
        s->displs_b = calloc(P, sizeof(int));
        s->c64_a = calloc(P, sizeof(int64_t));
        s->d64_a = calloc(P, sizeof(int64_t));
        s->c64_b = calloc(P, sizeof(int64_t));
        s->d64_b = calloc(P, sizeof(int64_t));
        s->pack = calloc(P, sizeof(scaling_args_copy));
        s->unpack = calloc(P, sizeof(scaling_args_copy));
        if (!s->scratch || !s->counts_a || !s->displs_a || !s->counts_b || !s->displs_b ||
            !s->c64_a || !s->d64_a || !s->c64_b || !s->d64_b || !s->pack || !s->unpack)
            return -1;
        s->call.counts_a = s->counts_a;
        s->call.displs_a = s->displs_a;
        s->call.counts_b = s->counts_b;
        s->call.displs_b = s->displs_b;
        int rc = scaling_check(b, &s->a, s->scratch, &s->t);
        if (rc)
            return rc;
        if (s->t.user_error)
            return WORLD_EXEC_FAILED;
    }
    return 0;
}

static void run_end(run *x)
{
    for (uint32_t r = 0; x->rs && r < x->P; r++) {
        rank_state *s = &x->rs[r];
        free(s->scratch);
        free(s->counts_a);
        free(s->displs_a);
        free(s->counts_b);
        free(s->displs_b);
        free(s->c64_a);
        free(s->d64_a);
        free(s->c64_b);
        free(s->d64_b);
        free(s->pack);
        free(s->unpack);
        ref_buf_free(&s->stage_send);
        ref_buf_free(&s->stage_recv);
    }
    free(x->rs);
    free(x->calls);
    free(x->members);
}

/* The count all ranks agree on (the interposition layer's small control message). */
static int64_t agreed_n(const run *x)
{
    int64_t n = 0;
    for (uint32_t r = 0; r < x->P; r++)
        n = x->rs[r].t.n > n ? x->rs[r].t.n : n;
    return n;
}

static ref_arg resolve(const run *x, uint32_t r, scaling_args_ref ref)
{
    rank_state *s = &x->rs[r];
    ref_arg out = {REF_BUF, NULL, ref.off};
    switch (ref.buf) {
    case SCALING_ARGS_BUF_USER_SEND:
        out.buf = &x->w->send[r];
        break;
    case SCALING_ARGS_BUF_USER_RECV:
        out.buf = &x->w->recv[r];
        break;
    case SCALING_ARGS_BUF_STAGE_SEND:
        out.buf = &s->stage_send;
        break;
    case SCALING_ARGS_BUF_STAGE_RECV:
        out.buf = &s->stage_recv;
        break;
    case SCALING_ARGS_BUF_IN_PLACE:
        out.kind = REF_IN_PLACE;
        break;
    default:
        out.kind = REF_NONE;
        break;
    }
    return out;
}

static void widen(const int *v, int64_t *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = v[i];
}

/* The reference call of rank r's plan call; n is the size of its communicator. */
static void to_ref(const run *x, uint32_t r, uint32_t n, ref_call *c)
{
    rank_state *s = &x->rs[r];
    widen(s->counts_a, s->c64_a, n);
    widen(s->displs_a, s->d64_a, n);
    widen(s->counts_b, s->c64_b, n);
    widen(s->displs_b, s->d64_b, n);
    c->elem = s->call.elem_size;
    c->send = resolve(x, r, s->call.send);
    c->recv = resolve(x, r, s->call.recv);
    c->send_count = s->call.send_count;
    c->recv_count = s->call.recv_count;
    c->send_stride = s->call.send_stride;
    c->recv_stride = s->call.recv_stride;
    c->counts_a = s->c64_a;
    c->displs_a = s->d64_a;
    c->counts_b = s->c64_b;
    c->displs_b = s->d64_b;
    c->root = s->call.root;
}

static int do_copies(const run *x, uint32_t r, const scaling_args_copy *list, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ref_arg from = resolve(x, r, list[i].from), to = resolve(x, r, list[i].to);
        uint8_t *src = from.kind == REF_BUF ? ref_buf_at(from.buf, from.off, list[i].bytes) : NULL;
        uint8_t *dst = to.kind == REF_BUF ? ref_buf_at(to.buf, to.off, list[i].bytes) : NULL;
        if (!src || !dst)
            return WORLD_EXEC_FAILED;
        memmove(dst, src, (size_t)list[i].bytes);
    }
    return 0;
}

/* The collective the ranks' round calls issue into *out; -1 when they differ (MPI matches no
 * Gather on one rank with a Gatherv on another). */
static int issued_coll(const run *x, scaling_coll *out)
{
    for (uint32_t r = 1; r < x->P; r++)
        if (x->rs[r].call.v_form != x->rs[0].call.v_form)
            return -1;
    *out = scaling_call_coll(&x->rs[0].call, x->w->spec.coll);
    return 0;
}

static int exec_w1b(run *x, const scaling_bounds *b, const scaling_params *p, uint32_t *rounds,
                    int64_t *staged, uint32_t *v_form_rounds)
{
    int64_t n = agreed_n(x);
    scaling_w1b_plan plan0;
    *staged = 0;
    for (uint32_t r = 0; r < x->P; r++) {
        scaling_w1b_plan plan;
        int rc = scaling_w1b_plan_make(b, p, &x->rs[r].a, n, &plan);
        if (rc)
            return rc;
        if (r == 0)
            plan0 = plan;
        if (plan.chunk != plan0.chunk || plan.rounds != plan0.rounds)
            return WORLD_EXEC_FAILED;
        if (ref_buf_add(&x->rs[r].stage_send, 0, plan.stage_send_bytes, r) != 0 ||
            ref_buf_add(&x->rs[r].stage_recv, 0, plan.stage_recv_bytes, r + 1) != 0)
            return -1;
        *staged += plan.stage_send_bytes + plan.stage_recv_bytes;
    }
    *rounds = plan0.rounds;
    *v_form_rounds = 0;
    for (uint32_t round = 0; round < plan0.rounds; round++) {
        for (uint32_t r = 0; r < x->P; r++) {
            rank_state *s = &x->rs[r];
            int rc = scaling_w1b_round(&plan0, &s->a, s->t.true_a, s->t.true_b, round, &s->call,
                                       s->pack, &s->npack, s->unpack, &s->nunpack);
            if (rc)
                return rc;
            /* A rank that stages nothing copies nothing, but an Alltoall's slice to itself. */
            if (!s->stage_send.n && !s->stage_recv.n &&
                (s->nunpack || s->npack > (x->w->spec.coll == SCALING_COLL_ALLTOALL)))
                return WORLD_EXEC_FAILED;
            if (do_copies(x, r, s->pack, s->npack) != 0)
                return WORLD_EXEC_FAILED;
            to_ref(x, r, x->P, &x->calls[r]);
        }
        scaling_coll issued;
        if (issued_coll(x, &issued) != 0 ||
            ref_collective(issued, x->P, x->calls, x->w->spec.s) != 0)
            return WORLD_EXEC_FAILED;
        *v_form_rounds += issued != x->w->spec.coll;
        for (uint32_t r = 0; r < x->P; r++)
            if (do_copies(x, r, x->rs[r].unpack, x->rs[r].nunpack) != 0)
                return WORLD_EXEC_FAILED;
    }
    return 0;
}

int world_run_w1b(world *w, const scaling_bounds *b, const scaling_params *p, uint32_t *rounds,
                  int64_t *staged, uint32_t *v_form_rounds)
{
    run x;
    memset(&x, 0, sizeof x);
    int rc = run_begin(&x, w, b);
    if (rc == 0)
        rc = exec_w1b(&x, b, p, rounds, staged, v_form_rounds);
    run_end(&x);
    return rc;
}

/* The rank with the full view of the call (the root of a rooted collective, else rank 0). */
static uint32_t planner(const world *w)
{
    return scaling_coll_get(w->spec.coll)->rooted ? w->spec.root : 0;
}

static int exec_w1a(run *x, const scaling_bounds *b, uint32_t *groups)
{
    uint32_t P = x->P, pr = planner(x->w);
    uint32_t *starts = calloc(P + 1, sizeof *starts), *mine = calloc(P, sizeof *mine);
    int rc = starts && mine ? 0 : -1;
    scaling_w1a_plan plan;
    if (rc == 0)
        rc = scaling_w1a_plan_make(b, &x->rs[pr].a, x->rs[pr].t.true_a, starts, &plan);
    /* The other ranks receive starts (a control message) and plan nothing themselves. */
    for (uint32_t g = 0; rc == 0 && g < plan.ngroups; g++) {
        uint32_t nm = 0;
        for (uint32_t r = 0; rc == 0 && r < P; r++) {
            rank_state *s = &x->rs[r];
            uint32_t nmine = 0;
            rc = scaling_w1a_group(&plan, &s->a, s->t.true_a, g, r == 0 ? x->members : mine,
                                   r == 0 ? &nm : &nmine, &s->member, &s->call);
            if (rc == 0 && r > 0 &&
                (nmine != nm || memcmp(mine, x->members, nm * sizeof *mine) != 0))
                rc = WORLD_EXEC_FAILED;
        }
        for (uint32_t k = 0; rc == 0 && k < nm; k++) {
            if (!x->rs[x->members[k]].member)
                rc = WORLD_EXEC_FAILED;
            else
                to_ref(x, x->members[k], nm, &x->calls[k]);
        }
        if (rc == 0 && ref_collective(x->w->spec.coll, nm, x->calls, x->w->spec.s) != 0)
            rc = WORLD_EXEC_FAILED;
    }
    if (rc == 0)
        *groups = plan.ngroups;
    free(starts);
    free(mine);
    return rc;
}

int world_run_w1a(world *w, const scaling_bounds *b, uint32_t *groups)
{
    run x;
    memset(&x, 0, sizeof x);
    int rc = run_begin(&x, w, b);
    if (rc == 0)
        rc = exec_w1a(&x, b, groups);
    run_end(&x);
    return rc;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int exec_w2(run *x, const scaling_bounds *b, uint64_t *k)
{
    /* Rooted: the root plans and sends k; otherwise every rank plans and they agree on the gcd. */
    scaling_w2_plan plan = {0, 0, {0, 0}};
    int rooted = scaling_coll_get(x->w->spec.coll)->rooted;
    for (uint32_t r = 0; r < x->P; r++) {
        if (rooted && r != x->w->spec.root)
            continue;
        scaling_w2_plan mine;
        int rc = scaling_w2_plan_make(b, &x->rs[r].a, x->rs[r].t.true_a, x->rs[r].t.true_b, &mine);
        if (rc)
            return rc;
        plan.k = gcd(plan.k, mine.k);
    }
    if (plan.k < 2)
        return MG_ERROR_EUNSUPPORTED;
    plan.elem_size = x->w->spec.s * plan.k;
    *k = plan.k;
    for (uint32_t r = 0; r < x->P; r++) {
        rank_state *s = &x->rs[r];
        int rc = scaling_w2_call(&plan, &s->a, s->t.true_a, s->t.true_b, &s->call);
        if (rc)
            return rc;
        to_ref(x, r, x->P, &x->calls[r]);
    }
    return ref_collective(x->w->spec.coll, x->P, x->calls, x->w->spec.s) ? WORLD_EXEC_FAILED : 0;
}

int world_run_w2(world *w, const scaling_bounds *b, uint64_t *k)
{
    run x;
    memset(&x, 0, sizeof x);
    int rc = run_begin(&x, w, b);
    if (rc == 0)
        rc = exec_w2(&x, b, k);
    run_end(&x);
    return rc;
}

/* W3: the unbroken call with 64-bit vectors, the displacements those Detector D recovered. */
static int exec_w3(run *x)
{
    for (uint32_t r = 0; r < x->P; r++) {
        rank_state *s = &x->rs[r];
        int rc = scaling_w3_vectors(&s->a, s->t.true_a, s->t.true_b, s->c64_a, s->d64_a, s->c64_b,
                                    s->d64_b);
        if (rc)
            return rc;
        ref_call *c = &x->calls[r];
        c->elem = x->w->spec.s;
        c->root = x->w->spec.root;
        c->send = (ref_arg){REF_BUF, &x->w->send[r], 0};
        c->recv = (ref_arg){REF_BUF, &x->w->recv[r], 0};
        if (s->a.in_place && (s->a.coll == SCALING_COLL_SCATTER || s->a.coll == SCALING_COLL_SCATTERV))
            c->recv.kind = REF_IN_PLACE;
        else if (s->a.in_place)
            c->send.kind = REF_IN_PLACE;
        c->send_count = c->recv_count = s->a.count;
        c->counts_a = s->c64_a;
        c->displs_a = s->d64_a;
        c->counts_b = s->c64_b;
        c->displs_b = s->d64_b;
    }
    return ref_collective(x->w->spec.coll, x->P, x->calls, x->w->spec.s) ? WORLD_EXEC_FAILED : 0;
}

int world_run_w3(world *w, const scaling_bounds *b)
{
    run x;
    memset(&x, 0, sizeof x);
    int rc = run_begin(&x, w, b);
    if (rc == 0)
        rc = exec_w3(&x);
    run_end(&x);
    return rc;
}
