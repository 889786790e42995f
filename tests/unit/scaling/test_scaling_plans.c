/* Proves the workaround plans byte for byte: every collective x W1-B/W1-A/W2/W3, random counts
 * (zeros included), gaps, layouts past INT_MAX (Detector D), in place, odd type sizes, executed on
 * the reference model and compared with the unbroken call (docs/collectives-engine.md §5). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"
#include "plan_world.h"
#include "scaling_check.h"
#include "scaling_choice.h"
#include "scaling_w3.h"

enum { SEEDS_PER_SHAPE = 80 };

typedef enum wa { WA_W1B, WA_W1A, WA_W2, WA_W3, WA_N } wa;

typedef struct tally {
    int cases[SCALING_COLL_COUNT];
    int applied[SCALING_COLL_COUNT][WA_N];
    int d_fired[SCALING_COLL_COUNT];
    int multi_round[SCALING_COLL_COUNT];
    int w1b_direct[SCALING_COLL_COUNT], w1b_staged[SCALING_COLL_COUNT];   /* cases, by any rank */
    int w1b_v_form[SCALING_COLL_COUNT], w1b_own_form[SCALING_COLL_COUNT]; /* cases, by rounds */
} tally;

static int run_wa(wa which, world *w, const scaling_bounds *b, const scaling_params *p,
                  uint32_t *rounds, int64_t *staged, uint32_t *v_form_rounds)
{
    uint64_t k = 0;
    uint32_t groups = 0;
    switch (which) {
    case WA_W1B:
        return world_run_w1b(w, b, p, rounds, staged, v_form_rounds);
    case WA_W1A:
        return world_run_w1a(w, b, &groups);
    case WA_W3:
        return world_run_w3(w, b);
    default:
        return world_run_w2(w, b, &k);
    }
}

/* One random case: the unbroken call and each workaround must leave identical buffers. Each
 * workaround runs on the call as the application passed it (int vectors, wrapped where the layout
 * is huge) and on its large-count `_c` form (the true 64-bit vectors: nothing for Detector D to
 * recover); the same workarounds must apply to both. */
static void one_case(const world_spec *spec, scaling_bounds_form form, uint64_t n_limit,
                     const scaling_params *p, tally *t)
{
    world w, expected;
    MG_CHECK(world_make(&w, spec) == 0);
    MG_CHECK(world_clone_buffers(&expected, &w) == 0);
    MG_CHECK(world_run_original(&expected) == 0);
    scaling_bounds b;
    scaling_bounds_init(&b, "ref", "1", NULL, 0);
    scaling_bounds_set_artificial(&b, form,
                                  scaling_bounds_form_value(form, spec->s, n_limit, spec->P));
    t->cases[spec->coll]++;
    for (int which = 0; which < WA_N; which++) {
        int int_rc = 0;
        for (int large = 0; large <= 1; large++) {
            world actual;
            MG_CHECK(world_clone_buffers(&actual, &w) == 0);
            actual.spec.large = large;
            uint32_t rounds = 0, v_form_rounds = 0;
            int64_t staged = 0;
            int rc = run_wa((wa)which, &actual, &b, p, &rounds, &staged, &v_form_rounds);
            if (large && rc != int_rc)
                fprintf(stderr, "LARGE %s wa=%d rc=%d, int form rc=%d seed=%llu\n",
                        scaling_coll_get(spec->coll)->name, which, rc, int_rc,
                        (unsigned long long)spec->seed);
            if (large)
                MG_CHECK_INT(rc, int_rc);
            int_rc = rc;
            if (rc == 0 && !large) {
                t->applied[spec->coll][which]++;
                t->multi_round[spec->coll] += which == WA_W1B && rounds > 1;
                t->w1b_direct[spec->coll] += which == WA_W1B && staged == 0;
                t->w1b_staged[spec->coll] += which == WA_W1B && staged > 0;
                t->w1b_v_form[spec->coll] += which == WA_W1B && v_form_rounds > 0;
                t->w1b_own_form[spec->coll] += which == WA_W1B && v_form_rounds < rounds;
            }
            if (rc == 0 && !world_same(&expected, &actual)) {
                fprintf(stderr,
                        "MISMATCH %s wa=%d large=%d P=%u s=%llu root=%u in_place=%d layout=%d "
                        "seed=%llu\n",
                        scaling_coll_get(spec->coll)->name, which, large, spec->P,
                        (unsigned long long)spec->s, spec->root, spec->in_place, spec->layout,
                        (unsigned long long)spec->seed);
                MG_CHECK(0);
            } else if (rc != 0 && rc != MG_ERROR_EUNSUPPORTED && rc != MG_ERROR_ERANGE) {
                fprintf(stderr,
                        "FAILED %s wa=%d large=%d rc=%d P=%u s=%llu in_place=%d layout=%d "
                        "seed=%llu\n",
                        scaling_coll_get(spec->coll)->name, which, large, rc, spec->P,
                        (unsigned long long)spec->s, spec->in_place, spec->layout,
                        (unsigned long long)spec->seed);
                MG_CHECK(0);
            }
            world_free_buffers(&actual);
        }
    }
    /* Detector D must have seen the wrap of every huge layout that holds a displacement vector. */
    scaling_args a;
    world_args(&w, scaling_coll_get(spec->coll)->rooted ? spec->root : 0, &a);
    int64_t *scratch = calloc(2 * (size_t)spec->P, sizeof *scratch);
    scaling_check_trigger trig;
    MG_CHECK(scaling_check(&b, &a, scratch, &trig) == 0);
    t->d_fired[spec->coll] += (trig.fired & SCALING_CHECK_FIRED_D) != 0;
    free(scratch);
    world_free_buffers(&expected);
    world_free(&w);
}

static void test_every_collective_every_workaround(void)
{
    static const uint32_t procs[] = {1, 2, 3, 4, 5, 8, 13, 64};
    static const uint64_t sizes[] = {1, 2, 3, 4, 8, 12};
    static const int64_t maxima[] = {0, 1, 7, 40};
    scaling_params p;
    scaling_params_default(&p);
    tally t = {0};
    mg_rng rng;
    mg_rng_seed(&rng, 20261122);
    uint64_t seed = 1;
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        const scaling_coll_info *info = scaling_coll_get((scaling_coll)c);
        for (int in_place = 0; in_place <= info->in_place; in_place++) {
            for (int layout = WORLD_PACKED; layout <= WORLD_HUGE; layout++) {
                if (!(info->vectors & SCALING_COLL_VEC_A_DISPLS) && layout != WORLD_PACKED)
                    continue;
                for (int i = 0; i < SEEDS_PER_SHAPE; i++) {
                    world_spec spec = {(scaling_coll)c,
                                       procs[mg_rng_below(&rng, 8)],
                                       0,
                                       sizes[mg_rng_below(&rng, 6)],
                                       in_place,
                                       (world_layout)layout,
                                       maxima[mg_rng_below(&rng, 4)],
                                       (int64_t)1 << mg_rng_below(&rng, 3),
                                       seed++,
                                       0};
                    if (layout == WORLD_HUGE && spec.P > 5)
                        spec.P = 4;
                    spec.root = (uint32_t)mg_rng_below(&rng, spec.P);
                    /* Small stages force W1-B into several rounds even without a bound. */
                    p.max_stage_bytes = i % 3 == 0 ? spec.s * spec.P * 3 + spec.s - 1 : 64u << 20;
                    scaling_bounds_form form = (scaling_bounds_form)mg_rng_below(&rng, SCALING_BOUNDS_FORM_COUNT);
                    uint64_t n_limit = 1 + mg_rng_below(&rng, (uint64_t)spec.max_count + 1);
                    /* Reduce_scatter's n is the total: one element per rank needs P of them. */
                    if (c == SCALING_COLL_REDUCE_SCATTER)
                        n_limit *= spec.P;
                    one_case(&spec, form, n_limit, &p, &t);
                }
            }
        }
    }
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        const scaling_coll_info *info = scaling_coll_get((scaling_coll)c);
        /* W1-B is general: it applied to every case; the others where the collective allows. */
        if (t.applied[c][WA_W1B] != t.cases[c])
            fprintf(stderr, "W1-B did not apply to all of %s\n", info->name);
        MG_CHECK_INT(t.applied[c][WA_W1B], t.cases[c]);
        MG_CHECK_INT(t.applied[c][WA_W3], t.cases[c]);
        MG_CHECK(t.multi_round[c] > 0);
        /* W1-B stages only what no count, displacement or block stride can address: a vector
         * past INT_MAX (the huge layouts), an in-place Alltoall(v)'s send side, Reduce_scatter's
         * input. */
        int stages = info->irregular || c == SCALING_COLL_ALLTOALL;
        MG_CHECK(c == SCALING_COLL_REDUCE_SCATTER ? t.w1b_direct[c] == 0 : t.w1b_direct[c] > 0);
        MG_CHECK(stages ? t.w1b_staged[c] > 0 : t.w1b_staged[c] == 0);
        /* A regular blocked collective's rounds that cut its blocks are its V-form (P n is small
         * here), a single round of whole blocks is the collective itself; the others' rounds are
         * always the collective itself. */
        int regular_blocked = scaling_coll_v_form((scaling_coll)c) != (scaling_coll)c;
        MG_CHECK(regular_blocked ? t.w1b_v_form[c] > 0 : t.w1b_v_form[c] == 0);
        MG_CHECK(t.w1b_own_form[c] > 0);
        MG_CHECK(info->w1a ? t.applied[c][WA_W1A] > 0 : t.applied[c][WA_W1A] == 0);
        MG_CHECK(info->w2 ? t.applied[c][WA_W2] > 0 : t.applied[c][WA_W2] == 0);
        if (info->vectors & SCALING_COLL_VEC_A_DISPLS)
            MG_CHECK(t.d_fired[c] > 0);
        else
            MG_CHECK_INT(t.d_fired[c], 0);
    }
}

/* Figure 4.4: Gatherv, P = 4, n = 2, root 0, a bug when nP > 4. W1-A makes the groups {0,1}, {0,2}
 * and {0,3} (the root sending nothing in the last two): the root is a process of every group's
 * call, so it counts, where the paper's figure counts only the ranks that move data ({0,1} and
 * {0,2,3}; scaling_w1a.c says why). W1-B makes two rounds of one element. */
static void test_figure_4_4(void)
{
    int counts[4] = {2, 2, 2, 2}, displs[4] = {0, 2, 4, 6};
    scaling_args a = {.coll = SCALING_COLL_GATHERV, .nprocs = 4, .type_size = 1, .count = 2};
    a.counts_a = counts, a.displs_a = displs;
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NP, 4);
    int64_t scratch[8];
    scaling_check_trigger t;
    MG_CHECK_INT(scaling_check(&b, &a, scratch, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    MG_CHECK_INT(t.n, 2);
    MG_CHECK_INT(t.limit.n_max, 1);
    uint32_t starts[5];
    scaling_w1a_plan w1a;
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &a, NULL, starts, &w1a), 0);
    MG_CHECK_INT(w1a.ngroups, 3);
    MG_CHECK_INT(starts[0], 0);
    MG_CHECK_INT(starts[1], 2);
    MG_CHECK_INT(starts[2], 3);
    MG_CHECK_INT(starts[3], 4);
    uint32_t members[4], nm;
    int member, gc[4], gd[4];
    scaling_args_call call = {0};
    call.counts_a = gc;
    call.displs_a = gd;
    MG_CHECK_INT(scaling_w1a_group(&w1a, &a, NULL, 2, members, &nm, &member, &call), 0);
    MG_CHECK_INT(nm, 2);
    MG_CHECK_INT(members[0], 0);
    MG_CHECK_INT(members[1], 3);
    MG_CHECK_INT(call.root, 0);
    MG_CHECK_INT(gc[0], 0); /* the root sends nothing in the last group */
    MG_CHECK_INT(gc[1], 2);
    MG_CHECK_INT(gd[1], 0); /* Eq. 4.24: relative to the group's base */
    MG_CHECK_INT(call.recv.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(call.recv.off, 6);
    MG_CHECK_INT(call.send_count, 0);
    scaling_params p;
    scaling_params_default(&p);
    scaling_w1b_plan w1b;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, t.n, &w1b), 0);
    MG_CHECK_INT(w1b.chunk, 1);
    MG_CHECK_INT(w1b.rounds, 2);
    MG_CHECK_INT(w1b.stage_recv_bytes, 0); /* the displacements fit: no staging */
    MG_CHECK_INT(w1b.stage_send_bytes, 0);
    /* Round 1 gathers the second element of every block where it lies: displacements 1 3 5 7. */
    scaling_args_copy pack[4], unpack[4];
    uint32_t np, nu;
    MG_CHECK_INT(scaling_w1b_round(&w1b, &a, NULL, NULL, 1, &call, pack, &np, unpack, &nu), 0);
    MG_CHECK_INT(np + nu, 0);
    MG_CHECK_INT(call.recv.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(call.recv.off, 0);
    MG_CHECK_INT(call.send.buf, SCALING_ARGS_BUF_USER_SEND);
    MG_CHECK_INT(call.send.off, 1);
    MG_CHECK_INT(call.send_count, 1);
    for (int i = 0; i < 4; i++) {
        MG_CHECK_INT(gc[i], 1);
        MG_CHECK_INT(gd[i], 2 * i + 1);
    }
    /* The nP form has no s: W2 with k = 2 (d = 2 bytes, one element per rank) fixes it. */
    scaling_w2_plan w2;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, NULL, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 2);
    MG_CHECK_INT(w2.elem_size, 2);
}

/* The root's view of a Gatherv on 4 ranks of 4-byte elements at true_d, its int displacements what
 * an overflow leaves of them; Detector D must fire and recover them into scratch. */
static scaling_args wrapped_gatherv(const int64_t *true_d, int *counts, int *displs, uint32_t root,
                                    const scaling_bounds *b, int64_t *scratch, scaling_check_trigger *t)
{
    for (int i = 0; i < 4; i++)
        displs[i] = (int)(int32_t)(uint32_t)true_d[i];
    scaling_args a = {
        .coll = SCALING_COLL_GATHERV, .nprocs = 4, .rank = root, .root = root, .type_size = 4};
    a.count = counts[root], a.counts_a = counts, a.displs_a = displs;
    MG_CHECK_INT(scaling_check(b, &a, scratch, t), 0);
    MG_CHECK_INT(t->fired, SCALING_CHECK_FIRED_D);
    return a;
}

/* A Gatherv whose displacements passed INT_MAX: 10 elements per rank at 0, 1e9, 2e9, 3e9. */
static void test_overflowed_gatherv_plans(void)
{
    int64_t true_d[4] = {0, 1000000000, 2000000000, 3000000000};
    int counts[4] = {10, 10, 10, 10}, displs[4];
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    int64_t scratch[8];
    scaling_check_trigger t;
    scaling_args a = wrapped_gatherv(true_d, counts, displs, 1, &b, scratch, &t);
    MG_CHECK(displs[3] < 0);
    MG_CHECK_INT(t.d_a.index, 3);
    MG_CHECK(t.true_a == scratch);
    MG_CHECK_INT(scratch[3], 3000000000);
    /* W1-A: a group may span at most INT_MAX elements: {0,1,2} and {3} with the root 1. */
    uint32_t starts[5];
    scaling_w1a_plan w1a;
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &a, t.true_a, starts, &w1a), 0);
    MG_CHECK_INT(w1a.ngroups, 2);
    MG_CHECK_INT(starts[1], 3);
    uint32_t members[4], nm;
    int member, gc[4], gd[4];
    scaling_args_call call = {0};
    call.counts_a = gc;
    call.displs_a = gd;
    MG_CHECK_INT(scaling_w1a_group(&w1a, &a, t.true_a, 1, members, &nm, &member, &call), 0);
    MG_CHECK_INT(nm, 2);
    MG_CHECK_INT(members[0], 1); /* the root in front: below the range */
    MG_CHECK_INT(members[1], 3);
    MG_CHECK_INT(call.recv.off, 3000000000LL * 4);
    MG_CHECK_INT(gd[1], 0);
    /* W2: the smallest k dividing every count and displacement with 3e9 / k <= INT_MAX is 2. */
    scaling_w2_plan w2;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, t.true_a, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 2);
    MG_CHECK_INT(w2.elem_size, 8);
    MG_CHECK_INT(scaling_w2_call(&w2, &a, t.true_a, NULL, &call), 0);
    MG_CHECK_INT(call.displs_a[3], 1500000000);
    MG_CHECK_INT(call.counts_a[3], 5);
    MG_CHECK_INT(call.send_count, 5);
    /* A k that does not divide the message is reported, not rounded. */
    scaling_w2_plan bad = {3, 12, {0, 0}};
    MG_CHECK_INT(scaling_w2_call(&bad, &a, t.true_a, NULL, &call), MG_ERROR_ERANGE);
    /* W1-B: one staged round (the staging layout's displacements are small). */
    scaling_params p;
    scaling_params_default(&p);
    scaling_w1b_plan w1b;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, t.n, &w1b), 0);
    MG_CHECK_INT(w1b.rounds, 1);
    scaling_args_copy pack[4], unpack[4];
    uint32_t np, nu;
    MG_CHECK_INT(scaling_w1b_round(&w1b, &a, t.true_a, NULL, 0, &call, pack, &np, unpack, &nu), 0);
    MG_CHECK_INT(np, 0);
    MG_CHECK_INT(nu, 4);
    MG_CHECK_INT(call.displs_a[3], 30);
    MG_CHECK_INT(unpack[3].to.off, 3000000000LL * 4);
    MG_CHECK_INT(unpack[3].from.off, 120);
    MG_CHECK_INT(unpack[3].bytes, 40);
    MG_CHECK_INT(scaling_w1b_round(&w1b, &a, t.true_a, NULL, 1, &call, pack, &np, unpack, &nu),
                 MG_ERROR_EINVAL);
    /* The root's vectors need the caller's arrays; W2 needs k >= 2 and no reduction. */
    scaling_args_call bare = {0};
    MG_CHECK_INT(scaling_w1b_round(&w1b, &a, t.true_a, NULL, 0, &bare, pack, &np, unpack, &nu),
                 MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_w1b_round(&w1b, &a, t.true_a, NULL, 0, &call, NULL, &np, unpack, &nu),
                 MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_w2_call(&w2, &a, t.true_a, NULL, &bare), MG_ERROR_EINVAL);
    scaling_w2_plan one = {1, 4, {0, 0}};
    MG_CHECK_INT(scaling_w2_call(&one, &a, t.true_a, NULL, &call), MG_ERROR_EINVAL);
    scaling_args red = {.coll = SCALING_COLL_REDUCE, .nprocs = 4, .type_size = 4, .count = 8};
    MG_CHECK_INT(scaling_w2_call(&w2, &red, NULL, NULL, &call), MG_ERROR_EUNSUPPORTED);
    /* W3: the `_c` call gets the recovered displacements as MPI_Aint. */
    int64_t c64[4], d64[4] = {-1, -1, -1, -1};
    MG_CHECK_INT(scaling_w3_vectors(&a, t.true_a, NULL, c64, d64, NULL, NULL), 0);
    MG_CHECK_INT(d64[3], 3000000000LL);
    MG_CHECK_INT(c64[2], 10);
    MG_CHECK_INT(scaling_w3_vectors(&a, t.true_a, NULL, c64, NULL, NULL, NULL), MG_ERROR_EINVAL);
    scaling_args nonroot = a;
    nonroot.rank = 2;
    nonroot.counts_a = nonroot.displs_a = NULL;
    MG_CHECK_INT(scaling_w3_vectors(&nonroot, NULL, NULL, NULL, NULL, NULL, NULL), 0);
    MG_CHECK_INT(scaling_w3_vectors(NULL, NULL, NULL, c64, d64, NULL, NULL), MG_ERROR_EINVAL);
}

/* A Gatherv with no common divisor whose displacements passed INT_MAX: counts 7, 10, 11, 13 at
 * 0, 1.4e9, 2.8e9 + 1, 4.2e9 + 3 (elements of 4 bytes). No k >= 2 divides them, so W2 moves the
 * root's receive buffer by 4.2e9 + 3 - INT_MAX elements (k = 1) and passes displacements from
 * there, negative ones included; a layout that spans 2^32 elements or more has no such shift. */
static void test_shifted_w2(void)
{
    int64_t true_d[4] = {0, 1400000000, 2800000001, 4200000003};
    int counts[4] = {7, 10, 11, 13}, displs[4];
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    int64_t scratch[8];
    scaling_check_trigger t;
    scaling_args a = wrapped_gatherv(true_d, counts, displs, 2, &b, scratch, &t);
    scaling_w2_plan w2;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, t.true_a, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 1);
    MG_CHECK_INT(w2.elem_size, 4);
    int64_t shift = 4200000003LL - INT_MAX;
    MG_CHECK_INT(w2.shift[0], shift);
    MG_CHECK_INT(w2.shift[1], 0);
    int gc[4], gd[4];
    scaling_args_call call = {0};
    call.counts_a = gc;
    call.displs_a = gd;
    MG_CHECK_INT(scaling_w2_call(&w2, &a, t.true_a, NULL, &call), 0);
    MG_CHECK_INT(call.recv.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(call.recv.off, shift * 4);
    MG_CHECK_INT(call.send.off, 0);
    for (int i = 0; i < 4; i++) {
        MG_CHECK_INT(gd[i], true_d[i] - shift); /* every block at its true place */
        MG_CHECK_INT(gc[i], counts[i]);
    }
    MG_CHECK(gd[0] < 0);
    MG_CHECK_INT(gd[3], INT_MAX);
    MG_CHECK_INT(call.send_count, 11);
    /* The moving W2 addresses the buffer by byte offset: a rank alone runs it with contiguous
     * datatypes, and without them has nothing usable (applicable, but not usable: the caller's
     * reason). */
    scaling_params p;
    scaling_params_default(&p);
    uint32_t starts[5];
    scaling_choice ch;
    scaling_choice_opts o = {.contiguous = 1, .excluded = ~(1u << SCALING_CHOICE_WA_W2)};
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W2);
    MG_CHECK_INT(ch.w2.shift[0], shift);
    o.contiguous = 0;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), MG_ERROR_EUNSUPPORTED);
    MG_CHECK(ch.applicable & (1u << SCALING_CHOICE_WA_W2));
    MG_CHECK_INT(ch.usable, 0);
    /* 2^32 + 1 elements between the first and last block: no shift fits. */
    int64_t wide[4] = {0, 1400000000, 2800000001, 4294967297};
    a = wrapped_gatherv(wide, counts, displs, 2, &b, scratch, &t);
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, t.true_a, NULL, &w2), MG_ERROR_EUNSUPPORTED);
}

static void test_w1b_limits(void)
{
    scaling_params p;
    scaling_params_default(&p);
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    scaling_args a = {.coll = SCALING_COLL_GATHER, .nprocs = 8, .type_size = 4, .count = 100};
    scaling_w1b_plan w;
    /* A bound below one element per message cannot be met: reported. */
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_SNP, 31); /* s n P <= 31: n < 1 at s 4, P 8 */
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 100, &w), MG_ERROR_ERANGE);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_SNP, 32 * 7);
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 100, &w), 0);
    MG_CHECK_INT(w.chunk, 7);
    MG_CHECK_INT(w.rounds, 15);
    /* A staging limit that is not a multiple of s: rounds to whole elements. */
    p.max_stage_bytes = 8 * 4 * 3 + 3;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 100, &w), 0);
    MG_CHECK_INT(w.chunk, 3);
    MG_CHECK_INT(w.stage_recv_bytes, 0); /* a Gather stages nothing, but its chunk is the same */
    scaling_args a2a = {.coll = SCALING_COLL_ALLTOALL, .nprocs = 8, .type_size = 4, .count = 100};
    a2a.in_place = 1;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a2a, 100, &w), 0);
    MG_CHECK_INT(w.chunk, 3);
    MG_CHECK_INT(w.stage_send_bytes, 96);
    MG_CHECK_INT(w.stage_recv_bytes, 0);
    p.max_stage_bytes = 8 * 4 - 1;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 100, &w), MG_ERROR_ERANGE);
    /* No staging limit at all: the int displacements of the staged layout still bound the chunk. */
    p.max_stage_bytes = UINT64_MAX;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 100, &w), 0);
    MG_CHECK_INT(w.chunk, INT_MAX / 8);
    MG_CHECK_INT(w.rounds, 1);
    /* A `_c` call past INT_MAX elements: rounds of at most INT_MAX / P. */
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, (int64_t)INT_MAX * 3, &w), 0);
    MG_CHECK_INT(w.rounds, 24 + 1);
    scaling_params_default(&p);
    /* Reduce_scatter: the round's total (P c) stays under the bound. */
    int rc8[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    scaling_args rs = {.coll = SCALING_COLL_REDUCE_SCATTER, .nprocs = 8, .rank = 2, .type_size = 4};
    rs.counts_a = rc8;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 16);
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &rs, 40, &w), 0);
    MG_CHECK_INT(w.chunk, 2);
    MG_CHECK_INT(w.rounds, 3); /* the largest block (5), not the total (40), sets the rounds */
    MG_CHECK_INT(w.stage_send_bytes, 8 * 2 * 4);
    MG_CHECK_INT(w.stage_recv_bytes, 0);
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &rs, -1, &w), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_w1b_plan_make(NULL, &p, &rs, 5, &w), MG_ERROR_EINVAL);
    /* A zero-size call still has one (empty) round. */
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, 0, &w), 0);
    MG_CHECK_INT(w.rounds, 1);
}

/* One W1-B round of one rank, with room for P <= 4. */
typedef struct w1b_round {
    scaling_args_call call;
    int c_a[4], d_a[4], c_b[4], d_b[4];
    scaling_args_copy pack[4], unpack[4];
    uint32_t np, nu;
} w1b_round;

static scaling_bounds bound_n(uint64_t n_max)
{
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, n_max);
    return b;
}

/* The detectors that fire on a under the bound n <= n_max (t, its trigger, in scratch). */
static unsigned fired_at(const scaling_args *a, uint64_t n_max, int64_t *scratch,
                         scaling_check_trigger *t)
{
    scaling_bounds b = bound_n(n_max);
    MG_CHECK_INT(scaling_check(&b, a, scratch, t), 0);
    return t->fired;
}

/* The int displacements an overflow leaves of true_d[0..n). */
static void wrap(const int64_t *true_d, int *displs, int n)
{
    for (int i = 0; i < n; i++)
        displs[i] = (int)(int32_t)(uint32_t)true_d[i];
}

/* The W1-B plan of a under the bound n <= n_max (4-byte elements fit the default staging). */
static scaling_w1b_plan w1b_plan(const scaling_args *a, uint64_t n_max, int64_t n_global)
{
    scaling_params p;
    scaling_params_default(&p);
    scaling_bounds b = bound_n(n_max);
    scaling_w1b_plan w = {0};
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, a, n_global, &w), 0);
    return w;
}

static void w1b_round_of(const scaling_w1b_plan *w, const scaling_args *a, const int64_t *true_a,
                         const int64_t *true_b, uint32_t r, w1b_round *x)
{
    memset(x, 0, sizeof *x);
    x->call.counts_a = x->c_a, x->call.displs_a = x->d_a;
    x->call.counts_b = x->c_b, x->call.displs_b = x->d_b;
    MG_CHECK_INT(
        scaling_w1b_round(w, a, true_a, true_b, r, &x->call, x->pack, &x->np, x->unpack, &x->nu),
        0);
}

/* Round r of a plan that stages nothing on this rank: no copies, the receive side in the user's
 * buffer at recv_off bytes. */
static void w1b_direct_round(const scaling_w1b_plan *w, const scaling_args *a, uint32_t r,
                             int64_t recv_off, w1b_round *x)
{
    MG_CHECK_INT(w->stage_send_bytes + w->stage_recv_bytes, 0);
    w1b_round_of(w, a, NULL, NULL, r, x);
    MG_CHECK_INT(x->np + x->nu, 0);
    MG_CHECK_INT(x->call.recv.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x->call.recv.off, recv_off);
}

/* A round's vector of P entries: every count k, displacement i step. */
static void check_blocks(const int *counts, const int *displs, uint32_t P, int k, int64_t step)
{
    for (uint32_t i = 0; i < P; i++) {
        MG_CHECK_INT(counts[i], k);
        MG_CHECK_INT(displs[i], (int64_t)i * step);
    }
}

/* Regular blocked collectives with P n within INT_MAX: a round that cuts the blocks is the V-form,
 * its global-buffer side slice [o, o + k) of every block where it lies (reference o, counts k,
 * displacements i n, no stride); only an in-place Alltoall's send side is staged (displacements
 * i k). n = 10 in rounds of 4: the last round (o = 8) moves 2 elements of every block. */
static void test_w1b_v_form_rounds(void)
{
    scaling_args g = {
        .coll = SCALING_COLL_GATHER, .nprocs = 3, .rank = 1, .root = 1, .type_size = 4, .count = 10};
    scaling_w1b_plan w = w1b_plan(&g, 4, 10);
    MG_CHECK_INT(w.chunk, 4);
    MG_CHECK_INT(w.rounds, 3);
    w1b_round x;
    w1b_direct_round(&w, &g, 2, 8 * 4, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, g.coll), SCALING_COLL_GATHERV);
    check_blocks(x.c_a, x.d_a, 3, 2, 10);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_USER_SEND);
    MG_CHECK_INT(x.call.send.off, 8 * 4);
    MG_CHECK_INT(x.call.send_count, 2);
    MG_CHECK_INT(x.call.recv_stride + x.call.send_stride, 0);
    g.in_place = 1; /* the root's slice is already in its block: displs[root] */
    w1b_round_of(&w, &g, NULL, NULL, 2, &x);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_IN_PLACE);
    MG_CHECK_INT(x.call.v_form, 1);
    check_blocks(x.c_a, x.d_a, 3, 2, 10);
    g.in_place = 0, g.rank = 0; /* a non-root sends its slice, plainly, to the same Gatherv */
    w1b_round_of(&w, &g, NULL, NULL, 2, &x);
    MG_CHECK_INT(x.call.recv.buf, SCALING_ARGS_BUF_NONE);
    MG_CHECK_INT(x.call.v_form, 1);
    MG_CHECK_INT(x.call.send_count, 2);
    MG_CHECK_INT(x.call.recv_stride + x.call.send_stride, 0);
    scaling_args sc = g;
    sc.coll = SCALING_COLL_SCATTER, sc.rank = 1, sc.in_place = 1;
    w1b_round_of(&w, &sc, NULL, NULL, 0, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, sc.coll), SCALING_COLL_SCATTERV);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_USER_SEND);
    MG_CHECK_INT(x.call.send.off, 0);
    MG_CHECK_INT(x.call.recv.buf, SCALING_ARGS_BUF_IN_PLACE);
    check_blocks(x.c_a, x.d_a, 3, 4, 10);
    MG_CHECK_INT(x.call.recv_stride + x.call.send_stride, 0);
    scaling_args ag = {.coll = SCALING_COLL_ALLGATHER,
                       .nprocs = 3,
                       .rank = 2,
                       .type_size = 4,
                       .count = 10,
                       .in_place = 1};
    w1b_direct_round(&w, &ag, 1, 4 * 4, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, ag.coll), SCALING_COLL_ALLGATHERV);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_IN_PLACE);
    check_blocks(x.c_a, x.d_a, 3, 4, 10);
    /* Where the parameters say so (MPICH), Allgather keeps the block stride: the plan carries
     * the choice to every rank's rounds. */
    scaling_params stride_params;
    scaling_params_default(&stride_params);
    stride_params.allgather_block_stride = 1;
    scaling_bounds b4 = bound_n(4);
    scaling_w1b_plan ws = {0};
    MG_CHECK_INT(scaling_w1b_plan_make(&b4, &stride_params, &ag, 10, &ws), 0);
    MG_CHECK_INT(ws.allgather_block_stride, 1);
    MG_CHECK_INT(ws.chunk, w.chunk);
    w1b_direct_round(&ws, &ag, 1, 4 * 4, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, ag.coll), SCALING_COLL_ALLGATHER);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_IN_PLACE);
    MG_CHECK_INT(x.call.recv_count, 4);
    MG_CHECK_INT(x.call.recv_stride, 10);
    w1b_round_of(&ws, &g, NULL, NULL, 2, &x); /* the other collectives keep their V-form */
    MG_CHECK_INT(scaling_call_coll(&x.call, g.coll), SCALING_COLL_GATHERV);
    /* In-place Alltoall: the round's send slices are its receive slices, so they are packed and
     * sent back to back (vector A); the receive side (vector B) takes them where they lie. */
    scaling_args a2a = {.coll = SCALING_COLL_ALLTOALL,
                        .nprocs = 3,
                        .rank = 2,
                        .type_size = 4,
                        .count = 10,
                        .in_place = 1};
    w = w1b_plan(&a2a, 4, 10);
    MG_CHECK_INT(w.stage_send_bytes, 3 * 4 * 4);
    MG_CHECK_INT(w.stage_recv_bytes, 0);
    w1b_round_of(&w, &a2a, NULL, NULL, 1, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, a2a.coll), SCALING_COLL_ALLTOALLV);
    MG_CHECK_INT(x.nu, 0);
    MG_CHECK_INT(x.np, 3);
    MG_CHECK_INT(x.pack[2].from.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x.pack[2].from.off, (2 * 10 + 4) * 4);
    MG_CHECK_INT(x.pack[2].to.buf, SCALING_ARGS_BUF_STAGE_SEND);
    MG_CHECK_INT(x.pack[2].to.off, 2 * 4 * 4);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_STAGE_SEND);
    MG_CHECK_INT(x.call.send.off, 0);
    check_blocks(x.c_a, x.d_a, 3, 4, 4);
    MG_CHECK_INT(x.call.recv.off, 4 * 4);
    check_blocks(x.c_b, x.d_b, 3, 4, 10);
    MG_CHECK_INT(x.call.recv_stride + x.call.send_stride, 0);
    /* Not in place: both sides where they lie, but the slice rank 2 sends itself, which is copied
     * before the call (from its send block to its receive block) and sent nothing. */
    a2a.in_place = 0;
    w = w1b_plan(&a2a, 4, 10);
    MG_CHECK_INT(w.stage_send_bytes + w.stage_recv_bytes, 0);
    w1b_round_of(&w, &a2a, NULL, NULL, 1, &x);
    MG_CHECK_INT(x.nu, 0);
    MG_CHECK_INT(x.np, 1);
    MG_CHECK_INT(x.pack[0].from.buf, SCALING_ARGS_BUF_USER_SEND);
    MG_CHECK_INT(x.pack[0].to.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x.pack[0].from.off, (2 * 10 + 4) * 4);
    MG_CHECK_INT(x.pack[0].to.off, (2 * 10 + 4) * 4);
    MG_CHECK_INT(x.pack[0].bytes, 4 * 4);
    MG_CHECK_INT(x.call.send.off, 4 * 4);
    MG_CHECK_INT(x.call.recv.off, 4 * 4);
    MG_CHECK_INT(x.c_a[2] + x.c_b[2], 0);
    x.c_a[2] = x.c_b[2] = 4;
    check_blocks(x.c_a, x.d_a, 3, 4, 10);
    check_blocks(x.c_b, x.d_b, 3, 4, 10);
    /* One round of whole blocks: they lie back to back, the collective itself, no stride. */
    scaling_args whole = {.coll = SCALING_COLL_ALLGATHER, .nprocs = 3, .type_size = 4, .count = 3};
    w = w1b_plan(&whole, 4, 3);
    MG_CHECK_INT(w.rounds, 1);
    w1b_round_of(&w, &whole, NULL, NULL, 0, &x);
    MG_CHECK_INT(x.call.v_form, 0);
    MG_CHECK_INT(x.call.recv_count, 3);
    MG_CHECK_INT(x.call.recv_stride, 0);
    /* A caller without the arrays the V-form writes is refused. */
    scaling_args_call bare = {0};
    MG_CHECK_INT(
        scaling_w1b_round(&w, &whole, NULL, NULL, 0, &bare, x.pack, &x.np, x.unpack, &x.nu),
        MG_ERROR_EINVAL);
}

/* Regular blocked collectives with P n past INT_MAX (the displacement i n of some block would not
 * be an int): the rounds stay the collective itself, the global-buffer side with block stride n.
 * The boundary is P n = INT_MAX; every rank decides alike from n and P. */
static void test_w1b_strided_rounds(void)
{
    int64_t n = INT_MAX / 2 + 1; /* 2 n = 2^31 */
    scaling_args g = {.coll = SCALING_COLL_GATHER, .nprocs = 2, .type_size = 1, .count = n};
    scaling_w1b_plan w = w1b_plan(&g, 4, n);
    MG_CHECK_INT(w.chunk, 4);
    w1b_round x;
    w1b_direct_round(&w, &g, 1, 4, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, g.coll), SCALING_COLL_GATHER);
    MG_CHECK_INT(x.call.recv_count, 4);
    MG_CHECK_INT(x.call.recv_stride, n);
    MG_CHECK_INT(x.call.send_stride, 0);
    g.rank = 1; /* the non-root: the same collective, plain */
    w1b_round_of(&w, &g, NULL, NULL, 1, &x);
    MG_CHECK_INT(x.call.v_form, 0);
    MG_CHECK_INT(x.call.recv_stride + x.call.send_stride, 0);
    scaling_args sc = g;
    sc.coll = SCALING_COLL_SCATTER, sc.rank = 0;
    w1b_round_of(&w, &sc, NULL, NULL, 1, &x);
    MG_CHECK_INT(x.call.v_form, 0);
    MG_CHECK_INT(x.call.send_stride, n);
    scaling_args a2a = {
        .coll = SCALING_COLL_ALLTOALL, .nprocs = 2, .type_size = 1, .count = n, .in_place = 1};
    w = w1b_plan(&a2a, 4, n);
    w1b_round_of(&w, &a2a, NULL, NULL, 1, &x);
    MG_CHECK_INT(x.call.v_form, 0);
    MG_CHECK_INT(x.np, 2);
    MG_CHECK_INT(x.call.send_stride, 0); /* the packed slices lie back to back */
    MG_CHECK_INT(x.call.recv_stride, n);
    /* P n = INT_MAX: still the V-form. */
    scaling_args ag = {.coll = SCALING_COLL_ALLGATHER, .nprocs = 1, .type_size = 1, .count = INT_MAX};
    w = w1b_plan(&ag, 4, INT_MAX);
    w1b_round_of(&w, &ag, NULL, NULL, w.rounds - 1, &x);
    MG_CHECK_INT(scaling_call_coll(&x.call, ag.coll), SCALING_COLL_ALLGATHERV);
    MG_CHECK_INT(x.c_a[0], INT_MAX % 4);
    MG_CHECK_INT(x.d_a[0], 0);
}

/* Irregular collectives: a vector whose segments lie within INT_MAX is addressed directly with
 * displacements d + o; a wrapped one (Detector D) is staged, and a rank stages only its own side
 * that needs it. */
static void test_w1b_direct_vectors(void)
{
    /* Gatherv in rounds of 2: in the third (o = 4), a finished segment keeps d + count. */
    int counts[3] = {5, 1, 0}, displs[3] = {0, 10, 20};
    scaling_args gv = {.coll = SCALING_COLL_GATHERV, .nprocs = 3, .type_size = 4, .count = 5};
    gv.counts_a = counts, gv.displs_a = displs;
    scaling_w1b_plan w = w1b_plan(&gv, 2, 5);
    MG_CHECK_INT(w.rounds, 3);
    w1b_round x;
    w1b_direct_round(&w, &gv, 2, 0, &x);
    MG_CHECK_INT(x.c_a[0], 1);
    MG_CHECK_INT(x.d_a[0], 4);
    MG_CHECK_INT(x.c_a[1], 0);
    MG_CHECK_INT(x.d_a[1], 11);
    MG_CHECK_INT(x.d_a[2], 20);
    MG_CHECK_INT(x.call.send.off, 4 * 4);
    gv.in_place = 1; /* the round is in place too */
    w1b_round_of(&w, &gv, NULL, NULL, 2, &x);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_IN_PLACE);
    MG_CHECK_INT(x.np + x.nu, 0);
    /* A segment ending at INT_MAX is direct; one element further, the vector is staged. */
    gv.in_place = 0;
    counts[1] = 4;
    displs[1] = INT_MAX - 4;
    displs[2] = INT_MAX;
    MG_CHECK_INT(w1b_plan(&gv, 2, 5).stage_recv_bytes, 0);
    displs[1] = INT_MAX - 3;
    MG_CHECK_INT(w1b_plan(&gv, 2, 5).stage_recv_bytes, 3 * 2 * 4);
    w1b_round_of(&w, &gv, NULL, NULL, 0, &x);
    MG_CHECK_INT(x.call.recv.buf, SCALING_ARGS_BUF_STAGE_RECV);
    MG_CHECK_INT(x.nu, 2);
    MG_CHECK_INT(x.unpack[1].to.off, ((int64_t)INT_MAX - 3) * 4);
    /* Alltoallv, P = 3: the send vector wrapped (3e9), the receive vector small. This rank stages
     * its send side only. */
    int64_t true_d[3] = {0, 1500000000, 3000000000};
    int ca[3] = {4, 4, 4}, da[3], cb[3] = {4, 4, 4}, db[3] = {0, 100, 200};
    wrap(true_d, da, 3);
    scaling_args av = {.coll = SCALING_COLL_ALLTOALLV, .nprocs = 3, .rank = 1, .type_size = 1};
    av.counts_a = ca, av.displs_a = da, av.counts_b = cb, av.displs_b = db;
    int64_t scratch[6];
    scaling_check_trigger t;
    MG_CHECK_INT(fired_at(&av, 2, scratch, &t), SCALING_CHECK_FIRED_D | SCALING_CHECK_FIRED_G);
    MG_CHECK(t.true_b == NULL);
    w = w1b_plan(&av, 2, t.n);
    MG_CHECK_INT(w.rounds, 2);
    MG_CHECK_INT(w.stage_send_bytes, 3 * 2);
    MG_CHECK_INT(w.stage_recv_bytes, 0);
    w1b_round_of(&w, &av, t.true_a, t.true_b, 1, &x);
    MG_CHECK_INT(x.nu, 0);
    MG_CHECK_INT(x.np, 3);
    MG_CHECK_INT(x.pack[2].from.off, 3000000000LL + 2);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_STAGE_SEND);
    MG_CHECK_INT(x.d_a[2], 4);
    MG_CHECK_INT(x.call.recv.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x.call.recv.off, 0);
    MG_CHECK_INT(x.c_b[2], 2);
    MG_CHECK_INT(x.d_b[2], 202);
    /* In place, Alltoallv's send side (the receive vector) is staged, its receive side direct. */
    av.in_place = 1, av.counts_a = av.displs_a = NULL;
    w = w1b_plan(&av, 2, 4);
    MG_CHECK_INT(w.stage_send_bytes, 3 * 2);
    MG_CHECK_INT(w.stage_recv_bytes, 0);
    w1b_round_of(&w, &av, NULL, NULL, 1, &x);
    MG_CHECK_INT(x.pack[1].from.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x.pack[1].from.off, 102);
    MG_CHECK_INT(x.nu, 0);
    MG_CHECK_INT(x.d_b[1], 102);
    /* An in-place Allgatherv stays in place when staged: this rank's slice goes to its staging
     * slot first (rank 2 of a wrapped layout, round 1: its slot is after the others' 2 + 2). */
    int cg[3] = {4, 4, 4}, dg[3];
    wrap(true_d, dg, 3);
    scaling_args agv = {.coll = SCALING_COLL_ALLGATHERV,
                        .nprocs = 3,
                        .rank = 2,
                        .type_size = 1,
                        .count = 4,
                        .in_place = 1};
    agv.counts_a = cg, agv.displs_a = dg;
    MG_CHECK_INT(fired_at(&agv, 2, scratch, &t), SCALING_CHECK_FIRED_D | SCALING_CHECK_FIRED_G);
    w = w1b_plan(&agv, 2, t.n);
    MG_CHECK_INT(w.stage_recv_bytes, 3 * 2);
    w1b_round_of(&w, &agv, t.true_a, NULL, 1, &x);
    MG_CHECK_INT(x.call.send.buf, SCALING_ARGS_BUF_IN_PLACE);
    MG_CHECK_INT(x.call.recv.buf, SCALING_ARGS_BUF_STAGE_RECV);
    MG_CHECK_INT(x.np, 1);
    MG_CHECK_INT(x.pack[0].from.buf, SCALING_ARGS_BUF_USER_RECV);
    MG_CHECK_INT(x.pack[0].from.off, 3000000000LL + 2);
    MG_CHECK_INT(x.pack[0].to.buf, SCALING_ARGS_BUF_STAGE_RECV);
    MG_CHECK_INT(x.pack[0].to.off, 4);
    MG_CHECK_INT(x.pack[0].bytes, 2);
    MG_CHECK_INT(x.nu, 3);
}

static void test_w1a_and_w2_refusals(void)
{
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    uint32_t starts[9];
    scaling_w1a_plan w1a;
    scaling_w2_plan w2;
    scaling_args a2a = {.coll = SCALING_COLL_ALLTOALL, .nprocs = 8, .type_size = 1, .count = 100};
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &a2a, NULL, starts, &w1a), MG_ERROR_EUNSUPPORTED);
    scaling_args red = {.coll = SCALING_COLL_ALLREDUCE, .nprocs = 8, .type_size = 4, .count = 100};
    MG_CHECK_INT(scaling_w2_plan_make(&b, &red, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    /* Type-2 form (n > 50): shrinking P cannot help, a group of one rank already breaks it. */
    scaling_args g = {.coll = SCALING_COLL_GATHER, .nprocs = 8, .type_size = 1, .count = 100};
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 50);
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &g, NULL, starts, &w1a), MG_ERROR_EUNSUPPORTED);
    /* W2 fixes the s-free form: the smallest divisor of 100 with 100 / k <= 50 is 2. */
    MG_CHECK_INT(scaling_w2_plan_make(&b, &g, NULL, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 2);
    /* ... but not an s-dependent one: s n > 50 stays s n whatever k. */
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_SN, 50);
    MG_CHECK_INT(scaling_w2_plan_make(&b, &g, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    /* n prime: the only divisor is n itself, the whole message as one big element. */
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 50);
    g.count = 101;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &g, NULL, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 101);
    /* A `_c` call past INT_MAX elements: W2's k brings the count into int as well as under the
     * bound (2^32 / 2 is still past INT_MAX); from 2^40 elements it is W1-B's. W1-A keeps counts
     * as they are and does not serve it. */
    g.count = INT64_C(1) << 32;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, UINT64_C(3) << 30);
    MG_CHECK_INT(scaling_w2_plan_make(&b, &g, NULL, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 4);
    MG_CHECK_INT(w2.elem_size, 4);
    scaling_args_call big = {0};
    MG_CHECK_INT(scaling_w2_call(&w2, &g, NULL, NULL, &big), 0);
    MG_CHECK_INT(big.send_count, 1 << 30);
    MG_CHECK_INT(big.recv_count, 1 << 30);
    g.count = INT64_C(1) << 40;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &g, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    /* The same for a Gatherv_c root whose counts and displacements are past INT_MAX: k = 2 divides
     * them all and brings them into int. */
    int64_t c64[2] = {INT64_C(3) << 30, INT64_C(1) << 31}, d64[2] = {0, INT64_C(3) << 30};
    scaling_args gvc = {.coll = SCALING_COLL_GATHERV,
                        .nprocs = 2,
                        .type_size = 1,
                        .large = 1,
                        .count = c64[0],
                        .counts64_a = c64,
                        .displs64_a = d64};
    MG_CHECK_INT(scaling_w2_plan_make(&b, &gvc, NULL, NULL, &w2), 0);
    MG_CHECK_INT(w2.k, 2);
    int vc[2], vd[2];
    big = (scaling_args_call){.counts_a = vc, .displs_a = vd};
    MG_CHECK_INT(scaling_w2_call(&w2, &gvc, NULL, NULL, &big), 0);
    MG_CHECK_INT(big.send_count, 3 << 29);
    MG_CHECK(vc[0] == 3 << 29 && vc[1] == 1 << 30 && vd[0] == 0 && vd[1] == 3 << 29);
    g.count = (int64_t)INT_MAX * 2;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NP, (uint64_t)INT_MAX * 64);
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &g, NULL, starts, &w1a), MG_ERROR_EUNSUPPORTED);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 50);
    g.count = 100;
    /* Irregular with gcd 1 (the paper's limit of W2). */
    int counts[3] = {3, 4, 5}, displs[3] = {0, 3, 7};
    scaling_args gv = {.coll = SCALING_COLL_GATHERV, .nprocs = 3, .type_size = 1, .count = 3};
    gv.counts_a = counts, gv.displs_a = displs;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &gv, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    /* Bad arguments. */
    MG_CHECK_INT(scaling_w1a_plan_make(NULL, &g, NULL, starts, &w1a), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_w2_plan_make(&b, NULL, NULL, NULL, &w2), MG_ERROR_EINVAL);
    scaling_args nonroot = gv;
    nonroot.rank = 1;
    nonroot.counts_a = nonroot.displs_a = NULL;
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &nonroot, NULL, starts, &w1a), MG_ERROR_EINVAL);
    w1a.ngroups = 1;
    w1a.starts = starts;
    uint32_t members[3], nm;
    int member;
    scaling_args_call call = {0};
    MG_CHECK_INT(scaling_w1a_group(&w1a, &gv, NULL, 1, members, &nm, &member, &call), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_w1a_group(&w1a, &gv, NULL, 0, members, &nm, &member, &call), MG_ERROR_EINVAL);
}

/* A Gatherv_c whose counts pass INT_MAX (64-bit vectors; the sparse reference model cannot hold
 * such segments, so the plan is checked by its arithmetic): Detector G fires on the largest count,
 * D has nothing to recover, a negative count is a user error and a negative displacement is taken
 * as it is; W1-B cuts every segment into rounds whose counts and staged displacements fit in int
 * and whose copies cover each segment exactly once at its 64-bit displacement; W2 and W1-A, whose
 * calls carry int counts, do not apply. */
static void test_large_count_vectors(void)
{
    const int64_t G = 1000000000;
    int64_t counts[4] = {3 * G, 0, 5, (int64_t)1 << 31}, displs[4] = {0, 3 * G, 3 * G, 4 * G};
    scaling_args a = {.coll = SCALING_COLL_GATHERV, .nprocs = 4, .type_size = 1, .count = 3 * G};
    a.large = 1, a.counts64_a = counts, a.displs64_a = displs;
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, (uint64_t)1 << 30);
    scaling_check_trigger t;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    MG_CHECK_INT(t.n, 3 * G);
    MG_CHECK(t.true_a == NULL);
    scaling_params p;
    scaling_params_default(&p);
    scaling_w1b_plan w;
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, t.n, &w), 0);
    MG_CHECK_INT(w.chunk, (64 << 20) / 4); /* the staging limit: 64 MiB over 4 segments */
    MG_CHECK_INT(w.rounds, (3 * G + w.chunk - 1) / w.chunk);
    int rc[4], rd[4];
    scaling_args_call call = {0};
    call.counts_a = rc;
    call.displs_a = rd;
    scaling_args_copy pack[4], unpack[4];
    uint32_t np, nu;
    int64_t moved[4] = {0}, next[4] = {0, 3 * G, 3 * G, 4 * G};
    for (uint32_t r = 0; r < w.rounds; r++) {
        MG_CHECK_INT(scaling_w1b_round(&w, &a, NULL, NULL, r, &call, pack, &np, unpack, &nu), 0);
        MG_CHECK_INT(np, 0);
        for (uint32_t i = 0, staged = 0; i < 4; i++) {
            MG_CHECK(rc[i] >= 0 && rc[i] <= w.chunk);
            MG_CHECK_INT(rd[i], staged);
            staged += (uint32_t)rc[i];
            moved[i] += rc[i];
        }
        for (uint32_t k = 0; k < nu; k++) {
            int64_t off = unpack[k].to.off;
            uint32_t i = off < 3 * G ? 0 : off < 4 * G ? 2 : 3;
            MG_CHECK_INT(unpack[k].to.buf, SCALING_ARGS_BUF_USER_RECV);
            MG_CHECK_INT(off, next[i]); /* each segment filled in order, no gap, no overlap */
            next[i] += unpack[k].bytes;
        }
    }
    for (uint32_t i = 0; i < 4; i++) {
        MG_CHECK_INT(moved[i], counts[i]);
        MG_CHECK_INT(next[i], displs[i] + counts[i]);
    }
    scaling_w2_plan w2;
    uint32_t starts[5];
    scaling_w1a_plan w1a;
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    MG_CHECK_INT(scaling_w1a_plan_make(&b, &a, NULL, starts, &w1a), MG_ERROR_EUNSUPPORTED);
    /* W3 widens nothing that is not already 64-bit. */
    int64_t c64[4], d64[4];
    MG_CHECK_INT(scaling_w3_vectors(&a, NULL, NULL, c64, d64, NULL, NULL), 0);
    MG_CHECK_INT(c64[0], 3 * G);
    MG_CHECK_INT(d64[3], 4 * G);
    /* A negative displacement is legal in a `_c` call: W1-B serves it, W2 (no common divisor)
     * does not; a negative count is a user error. */
    int64_t small_c[4] = {4, 4, 4, 4}, neg_d[4] = {-8, -4, 0, 4};
    a.counts64_a = small_c;
    a.displs64_a = neg_d;
    a.count = 4;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 2);
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    MG_CHECK_INT(t.user_error, 0);
    MG_CHECK_INT(scaling_w2_plan_make(&b, &a, NULL, NULL, &w2), MG_ERROR_EUNSUPPORTED);
    MG_CHECK_INT(scaling_w1b_plan_make(&b, &p, &a, t.n, &w), 0);
    MG_CHECK_INT(scaling_w1b_round(&w, &a, NULL, NULL, 1, &call, pack, &np, unpack, &nu), 0);
    MG_CHECK_INT(unpack[0].to.off, -8 + 2);
    small_c[2] = -1;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(t.user_error, 1);
    MG_CHECK_INT(t.d_a.reason, SCALING_DISPL_NEGATIVE_COUNT);
    MG_CHECK_INT(t.d_a.index, 2);
    /* A vector without its 64-bit arrays is refused like a missing int one. */
    a.displs64_a = NULL;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), MG_ERROR_EINVAL);
}

static void test_choice(void)
{
    scaling_params p;
    scaling_params_default(&p);
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NP, 400);
    scaling_args a = {.coll = SCALING_COLL_GATHER, .nprocs = 8, .type_size = 1, .count = 100};
    scaling_check_trigger t;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    uint32_t starts[9];
    scaling_choice ch;
    scaling_choice_opts o = {.large_count = 1, .large_count_sound = 1, .contiguous = 1};
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W3);
    MG_CHECK_INT(ch.usable, ch.applicable);
    MG_CHECK_INT(ch.keeps_nonblocking, 1);
    MG_CHECK_INT(ch.applicable, (1u << SCALING_CHOICE_WA_W3) | (1u << SCALING_CHOICE_WA_W2) |
                                    (1u << SCALING_CHOICE_WA_W1A) | (1u << SCALING_CHOICE_WA_W1B));
    /* Without a sound `_c` form: W2 (one call and a type) beats W1-A (3 groups: {0-3}, then 4-6
     * and 7 each with the root) and W1-B. */
    o.large_count_sound = 0;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W2);
    MG_CHECK_INT(ch.w2.k, 2);
    MG_CHECK_INT(ch.w1a.ngroups, 3);
    MG_CHECK_INT(ch.w1b.rounds, 2);
    /* Two rounds and no copies: the Gather's blocks are addressed where they lie. */
    MG_CHECK_NEAR(ch.cost_ns[SCALING_CHOICE_WA_W1B], 2 * p.call_ns + 800 * p.byte_ns, 1e-6);
    MG_CHECK_STR(scaling_choice_name(ch.chosen), "W2");
    MG_CHECK_STR(scaling_choice_name((scaling_choice_workaround)99), "none");
    /* Forced. */
    o.force = SCALING_CHOICE_WA_W1B;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W1B);
    MG_CHECK_INT(ch.keeps_nonblocking, 0);
    /* A forced one that is not usable gives way to the cost model ("where it applies"). */
    o.force = SCALING_CHOICE_WA_W3;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W2);
    /* A rank that changes its side alone runs W2 or nothing, whatever is forced or cheaper. */
    o.excluded = ~(1u << SCALING_CHOICE_WA_W2);
    o.force = SCALING_CHOICE_WA_W1B;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W2);
    MG_CHECK_INT(ch.usable, 1u << SCALING_CHOICE_WA_W2);
    /* Without contiguous datatypes W1-A and W1-B, which address elements by offset, are out; W2
     * with k = 2 moves no buffer and stays. */
    o.excluded = 0;
    o.contiguous = 0;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W2);
    MG_CHECK_INT(ch.usable, 1u << SCALING_CHOICE_WA_W2);
    o.contiguous = 1;
    /* An s-dependent form: W2 cannot help, W1-A (4 groups of at most 3 processes, the root in
     * each: 4 communicators) costs more than W1-B (3 rounds). */
    o.force = SCALING_CHOICE_WA_NONE;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_SNP, 400);
    a.count = 101;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_W1B);
    MG_CHECK_INT(ch.applicable, (1u << SCALING_CHOICE_WA_W1A) | (1u << SCALING_CHOICE_WA_W1B));
    MG_CHECK_INT(ch.w1a.ngroups, 4);
    MG_CHECK_INT(ch.w1b.rounds, 3);
    /* Untriggered: nothing to do. */
    a.count = 10;
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(t.fired, 0);
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), 0);
    MG_CHECK_INT(ch.chosen, SCALING_CHOICE_WA_NONE);
    o.force = (scaling_choice_workaround)42;
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), MG_ERROR_EINVAL);
    /* Nothing applies: a bound below one element. */
    o.force = SCALING_CHOICE_WA_NONE;
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_SNP, 1);
    MG_CHECK_INT(scaling_check(&b, &a, NULL, &t), 0);
    MG_CHECK_INT(scaling_choice_make(&b, &p, &a, &t, &o, t.n, starts, &ch), MG_ERROR_EUNSUPPORTED);
    MG_CHECK_INT(ch.applicable, 0);
}

/* Ranks that see different vectors pick from what is usable everywhere by a fixed order. */
static void test_choice_agreed(void)
{
    unsigned all = (1u << SCALING_CHOICE_WA_W3) | (1u << SCALING_CHOICE_WA_W2) | (1u << SCALING_CHOICE_WA_W1B);
    MG_CHECK_INT(scaling_choice_agreed(all, SCALING_CHOICE_WA_NONE), SCALING_CHOICE_WA_W3);
    MG_CHECK_INT(scaling_choice_agreed(all & ~(1u << SCALING_CHOICE_WA_W3), SCALING_CHOICE_WA_NONE),
                 SCALING_CHOICE_WA_W2);
    MG_CHECK_INT(scaling_choice_agreed(all, SCALING_CHOICE_WA_W1B), SCALING_CHOICE_WA_W1B);
    MG_CHECK_INT(scaling_choice_agreed(1u << SCALING_CHOICE_WA_W1B, SCALING_CHOICE_WA_W2), SCALING_CHOICE_WA_W1B);
    MG_CHECK_INT(scaling_choice_agreed(0, SCALING_CHOICE_WA_W2), SCALING_CHOICE_WA_NONE);
    MG_CHECK_INT(scaling_choice_agreed(all, (scaling_choice_workaround)42), SCALING_CHOICE_WA_W3);
}

/* scaling_check_plain on random int vectors of the irregular collectives, a few entries negative
 * (wrapped displacements, user errors) or garbage where MPI ignores them: it says plain exactly
 * when no significant entry is negative, and a plain call is one scaling_check finds untriggered
 * and free of user errors. */
static void test_plain_agrees_with_check(void)
{
    enum { P_MAX = 16 };
    static const scaling_coll colls[] = {SCALING_COLL_GATHERV, SCALING_COLL_SCATTERV, SCALING_COLL_ALLGATHERV,
                                         SCALING_COLL_ALLTOALLV, SCALING_COLL_REDUCE_SCATTER};
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", NULL, 0);
    mg_rng rng;
    mg_rng_seed(&rng, 77);
    int counts[2][P_MAX], displs[2][P_MAX], plains = 0, others = 0;
    int64_t scratch[2 * P_MAX];
    for (int k = 0; k < 20000; k++) {
        scaling_coll c = colls[mg_rng_below(&rng, 5)];
        uint32_t P = 1 + (uint32_t)mg_rng_below(&rng, P_MAX);
        scaling_args a = {.coll = c, .nprocs = P, .type_size = 1 + mg_rng_below(&rng, 8)};
        a.in_place = c == SCALING_COLL_ALLTOALLV && mg_rng_below(&rng, 2);
        int negatives = 0;
        for (int v = 0; v < 2; v++)
            for (uint32_t i = 0; i < P; i++) {
                int neg = mg_rng_below(&rng, 8 * P) == 0;
                int in_count = neg && mg_rng_below(&rng, 2);
                counts[v][i] = in_count ? -1 : (int)mg_rng_below(&rng, 100);
                displs[v][i] = (int)(i * 100);
                if (neg && !in_count)
                    displs[v][i] = (int)(int32_t)(uint32_t)(i * 100 + (1ull << 31));
                int significant = v == 0 ? !a.in_place : c == SCALING_COLL_ALLTOALLV;
                if (!in_count && c == SCALING_COLL_REDUCE_SCATTER)
                    significant = 0; /* it has no displacements */
                negatives += neg && significant;
            }
        a.counts_a = counts[0];
        a.displs_a = c == SCALING_COLL_REDUCE_SCATTER ? NULL : displs[0];
        if (c == SCALING_COLL_ALLTOALLV)
            a.counts_b = counts[1], a.displs_b = displs[1];
        scaling_check_trigger t;
        MG_CHECK_INT(scaling_check(&b, &a, scratch, &t), 0);
        int plain = scaling_check_plain(c, P, a.in_place, a.counts_a, a.displs_a, a.counts_b,
                                        a.displs_b);
        MG_CHECK_INT(plain, negatives == 0);
        if (plain) {
            MG_CHECK_INT(t.fired, 0);
            MG_CHECK_INT(t.user_error, 0);
        }
        plains += plain;
        others += !plain;
    }
    MG_CHECK(plains > 1000 && others > 1000);
}

int main(void)
{
    MG_RUN(test_figure_4_4);
    MG_RUN(test_overflowed_gatherv_plans);
    MG_RUN(test_shifted_w2);
    MG_RUN(test_w1b_limits);
    MG_RUN(test_w1b_v_form_rounds);
    MG_RUN(test_w1b_strided_rounds);
    MG_RUN(test_w1b_direct_vectors);
    MG_RUN(test_w1a_and_w2_refusals);
    MG_RUN(test_choice);
    MG_RUN(test_choice_agreed);
    MG_RUN(test_plain_agrees_with_check);
    MG_RUN(test_large_count_vectors);
    MG_RUN(test_every_collective_every_workaround);
    MG_TEST_END();
}
