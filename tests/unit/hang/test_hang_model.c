/* Unit tests of the hang model (ParaStack §3.1-3.3; docs/design/hang.md "The model"). */
#include <limits.h>
#include <stdlib.h>

#include "hang_model.h"
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"

static double clock_s;

static struct hang_model *make(size_t nranks, uint64_t seed)
{
    struct hang_model_params p;
    hang_model_params_default(&p);
    struct hang_model *m = NULL;
    MG_CHECK_INT(hang_model_create(&p, nranks, seed, &m), MG_ERROR_OK);
    clock_s = 0;
    return m;
}

/* The paper's model exactly: no exact bound, degenerate windows grow I. */
static struct hang_model *make_paper(size_t nranks, uint64_t seed)
{
    struct hang_model_params p;
    hang_model_params_default(&p);
    p.exact_bound = false;
    p.degenerate_grows = true;
    struct hang_model *m = NULL;
    MG_CHECK_INT(hang_model_create(&p, nranks, seed, &m), MG_ERROR_OK);
    clock_s = 0;
    return m;
}

static struct hang_verdict feed(struct hang_model *m, size_t out)
{
    struct hang_verdict v = {0};
    clock_s += 1.0;
    MG_CHECK_INT(hang_model_observe(m, out, clock_s, &v), MG_ERROR_OK);
    return v;
}

static struct hang_model_state state(const struct hang_model *m)
{
    struct hang_model_state s;
    MG_CHECK_INT(hang_model_state(m, &s), MG_ERROR_OK);
    return s;
}

static void defaults_are_the_papers(void)
{
    struct hang_model_params p;
    hang_model_params_default(&p);
    MG_CHECK_NEAR(p.alpha, 0.001, 0);
    MG_CHECK_INT(p.set_size, 10);
    MG_CHECK_INT(p.switch_every, 30);
    MG_CHECK_NEAR(p.interval_init, 0.4, 0);
    MG_CHECK_NEAR(p.interval_growth, 2.0, 0);
    MG_CHECK_INT(p.runs_every, 16);
    MG_CHECK_INT(p.ntolerances, 4);
    MG_CHECK_NEAR(p.tolerances[3], 0.05, 0);
    MG_CHECK_NEAR(p.ladder_z, 1.96, 0);
    MG_CHECK(p.exact_bound && !p.degenerate_grows); /* ours (docs/design/hang.md) */
}

static void delay_is_uniform_on_half_to_three_halves(void)
{
    struct hang_model *m = make(100, 5);
    double lo = 1e9, hi = 0, sum = 0;
    for (int i = 0; i < 20000; i++) {
        double d;
        MG_CHECK_INT(hang_model_next_delay(m, &d), MG_ERROR_OK);
        lo = fmin(lo, d);
        hi = fmax(hi, d);
        sum += d;
    }
    MG_CHECK(lo >= 0.2 && lo < 0.201);
    MG_CHECK(hi < 0.6 && hi > 0.599);
    MG_CHECK_NEAR(sum / 20000, 0.4, 0.003);
    hang_model_destroy(m);
}

/* With the paper's rule (degenerate_grows), a constant S never passes the runs test (N0 = 0) and at
 * level 0 never justifies a threshold (F jumps from 0 to 1), so every 16 samples I doubles and the
 * weight halves: n = 8, 12, 14, 15, then the cap. */
static void doubling_cap_and_reweighting(void)
{
    struct hang_model *m = make_paper(1000, 1);
    static const double n_after[5] = {8, 12, 14, 15, 31};
    static const double i_after[5] = {0.8, 1.6, 3.2, 6.4, 6.4};
    for (int block = 0; block < 5; block++) {
        for (int i = 0; i < 16; i++)
            MG_CHECK_INT(feed(m, 0).kind, HANG_VERDICT_BUILDING);
        struct hang_model_state s = state(m);
        MG_CHECK_NEAR(s.sample_size, n_after[block], 1e-12);
        MG_CHECK_NEAR(s.interval, i_after[block], 1e-12);
        MG_CHECK(s.interval_capped == (block == 4));
    }
    struct hang_model_state s = state(m);
    MG_CHECK_INT(s.doublings, 4);
    MG_CHECK(!s.random);
    MG_CHECK_INT(s.samples, 80);
    for (int i = 0; i < 32; i++)
        feed(m, 0);
    MG_CHECK_NEAR(state(m).interval, 6.4, 0); /* no more tests once capped */
    MG_CHECK_NEAR(state(m).sample_size, 63, 1e-12);
    hang_model_destroy(m);

    /* A cap that is not a power-of-two multiple: 0.4 -> 0.8 -> 1.0, weights 1/2 then 4/5. */
    struct hang_model_params p;
    hang_model_params_default(&p);
    p.degenerate_grows = true;
    p.interval_max = 1.0;
    MG_CHECK_INT(hang_model_create(&p, 1000, 1, &m), MG_ERROR_OK);
    clock_s = 0;
    for (int i = 0; i < 32; i++)
        feed(m, 0);
    MG_CHECK_NEAR(state(m).interval, 1.0, 1e-12);
    MG_CHECK_NEAR(state(m).sample_size, (8 + 16) * 0.8, 1e-12);
    hang_model_destroy(m);
}

/* Our default: a window with at most one sample on one side says nothing about the interval and is
 * discarded, so I stays. A healthy job whose sampled ranks are always all out (or progressing) is
 * modelled by the exact bound: after n = 11 samples at level 10, q = 1 - 0.025^(1/11) = 0.2849 <=
 * 0.3 (n = 10 gives 0.3085), t = 9 (0.9 of the set), K = ceil(log_q 0.001) = 6. */
static void constant_windows_keep_the_interval(void)
{
    struct hang_model *m = make(1000, 6);
    for (int i = 0; i < 10; i++)
        MG_CHECK_INT(feed(m, 10).kind, HANG_VERDICT_BUILDING);
    MG_CHECK_INT(feed(m, 10).kind, HANG_VERDICT_NORMAL);
    struct hang_model_state s = state(m);
    MG_CHECK(s.built && s.exact);
    MG_CHECK_NEAR(s.p_hat, 0.0, 0);
    MG_CHECK_NEAR(s.q, 0.2849, 1e-4);
    MG_CHECK_NEAR(s.threshold, 0.9, 1e-12);
    MG_CHECK_INT(s.needed, 6);
    for (int i = 0; i < 37; i++)
        feed(m, 10);
    s = state(m);
    MG_CHECK_INT(s.doublings, 0);
    MG_CHECK_NEAR(s.interval, 0.4, 0);
    MG_CHECK(!s.random && !s.interval_capped);
    /* 48 samples: q = 1 - 0.025^(1/48) = 0.0740, K = 3; the bound is recomputed after every 10%
     * growth of n, so it may still be the one of n = 44 (0.0804), never of fewer */
    MG_CHECK(s.q >= 0.0740 && s.q <= 0.0805);
    MG_CHECK_INT(s.needed, 3);
    MG_CHECK_INT(feed(m, 9).kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(feed(m, 2).kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(feed(m, 0).kind, HANG_VERDICT_HANG);
    hang_model_destroy(m);

    /* A window that varies is tested as usual: 8 at level 7 then 8 at 10, two runs, fail it (no
     * suspicion on the way: the bound's t is 6). */
    m = make(1000, 7);
    for (int i = 0; i < 16; i++)
        MG_CHECK(feed(m, i < 8 ? 7 : 10).kind != HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(state(m).doublings, 1);
    MG_CHECK_NEAR(state(m).interval, 0.8, 0);
    hang_model_destroy(m);
}

/* The paper's 16 samples as counts out of C = 10. */
static const size_t paper[16] = {2, 1, 1, 2, 1, 1, 0, 0, 8, 9, 10, 8, 9, 1, 9, 9};

static void paper_window_doubles_the_interval(void)
{
    struct hang_model *m = make_paper(1000, 2);
    for (int i = 0; i < 10; i++)
        MG_CHECK_INT(feed(m, paper[i]).kind, HANG_VERDICT_BUILDING);
    /* 11 samples: F(1) = 6/11 needs max(5/(5/11), ...) = 11 samples at e = 0.3 -> built, t = 0.1,
     * q = 6/11 + 0.3, K = ceil(log_q 0.001) = 42. */
    struct hang_verdict v = feed(m, paper[10]);
    MG_CHECK_INT(v.kind, HANG_VERDICT_NORMAL);
    struct hang_model_state s = state(m);
    MG_CHECK(s.built);
    MG_CHECK_NEAR(s.p_hat, 6.0 / 11.0, 1e-12);
    MG_CHECK_NEAR(s.threshold, 0.1, 1e-12);
    MG_CHECK_NEAR(s.q, 6.0 / 11.0 + 0.3, 1e-12);
    MG_CHECK_INT(s.needed, 42);
    for (int i = 11; i < 16; i++)
        feed(m, paper[i]);
    s = state(m);
    MG_CHECK_INT(s.doublings, 1);
    MG_CHECK_NEAR(s.interval, 0.8, 0);
    MG_CHECK_NEAR(s.sample_size, 8.0, 1e-12);
    MG_CHECK(!s.random);
    hang_model_destroy(m);
}

/* Suspicions freeze the model; the run that breaks them commits the frozen samples in order. Here
 * the 16th window sample is a frozen one, so I doubles in the middle of the commit: the count must
 * be zero afterwards and the breaking sample (taken at the old I) gets the halved weight. */
static void freeze_and_reset_after_reweighting(void)
{
    struct hang_model *m = make_paper(1000, 3);
    for (int i = 0; i < 13; i++)
        feed(m, paper[i]);
    struct hang_model_state before = state(m);
    MG_CHECK(before.built);
    MG_CHECK_NEAR(before.threshold, 0.1, 1e-12);
    for (unsigned k = 1; k <= 3; k++) {
        struct hang_verdict v = feed(m, 1);
        MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
        MG_CHECK_INT(v.suspicions, k);
        MG_CHECK_INT(v.needed, before.needed);
        struct hang_model_state s = state(m);
        MG_CHECK_INT(s.samples, 13); /* frozen */
        MG_CHECK_NEAR(s.sample_size, 13, 0);
        MG_CHECK_NEAR(s.q, before.q, 0);
        MG_CHECK_NEAR(s.streak_start, 14.0, 0);
    }
    struct hang_verdict v = feed(m, 9);
    MG_CHECK_INT(v.suspicions, 0);
    struct hang_model_state s = state(m);
    MG_CHECK_INT(s.suspicions, 0);
    MG_CHECK_INT(s.samples, 17);
    MG_CHECK_INT(s.doublings, 1);
    MG_CHECK_NEAR(s.interval, 0.8, 0);
    MG_CHECK_NEAR(s.sample_size, 16 * 0.5 + 0.5, 1e-12);
    /* 8.5 weighted samples justify nothing: building again, then counting restarts from one */
    MG_CHECK(!s.built);
    MG_CHECK_INT(feed(m, 1).kind, HANG_VERDICT_BUILDING);
    for (int i = 0; i < 40 && !state(m).built; i++)
        feed(m, i % 2 ? 1 : 9);
    MG_CHECK(state(m).built && state(m).needed > 1);
    v = feed(m, 0);
    MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(v.suspicions, 1);
    hang_model_destroy(m);
}

/* Healthy S drawn uniformly from 0..10 (P(0) = 1/11), then a hang (S = 0 for ever). */
static void hang_after_k_suspicions_then_resume(void)
{
    struct hang_model *m = make(1000, 4);
    mg_rng rng;
    mg_rng_seed(&rng, 11);
    for (int i = 0; i < 400; i++) {
        struct hang_verdict v = feed(m, (size_t)mg_rng_below(&rng, 11));
        MG_CHECK(v.kind != HANG_VERDICT_HANG);
    }
    struct hang_model_state s = state(m);
    MG_CHECK(s.built && s.random && s.needed > 0);
    MG_CHECK_NEAR(s.e, 0.05, 0); /* 400 samples reach the last rung */
    unsigned k;
    MG_CHECK_INT(hang_ladder_k(s.q, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(s.needed, k);
    MG_CHECK_NEAR(s.q, s.p_hat + 0.05, 1e-12);
    struct hang_verdict v;
    for (unsigned i = 1; i < s.needed; i++) {
        v = feed(m, 0);
        MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
        MG_CHECK_INT(v.suspicions, i);
    }
    v = feed(m, 0);
    MG_CHECK_INT(v.kind, HANG_VERDICT_HANG);
    MG_CHECK_INT(v.suspicions, s.needed);
    MG_CHECK(state(m).hang);
    MG_CHECK_INT(hang_model_observe(m, 0, clock_s + 1, &v), MG_ERROR_ESTATE);
    MG_CHECK_INT(hang_model_resume(m), MG_ERROR_OK);
    MG_CHECK_INT(hang_model_resume(m), MG_ERROR_ESTATE);
    /* the verification found progress: the suspicions are dropped, the model is as it was */
    MG_CHECK_INT(state(m).samples, s.samples);
    MG_CHECK_NEAR(state(m).q, s.q, 0);
    v = feed(m, 0);
    MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(v.suspicions, 1);
    hang_model_destroy(m);
}

/* A verification that clears the onset of a real hang (a rank's last calls look like progress)
 * must not slow the next detection: with healthy S = 0 common (P(0) = 0.6, a loaded node where
 * starved ranks show no progress), learning the cleared suspicions pushed q towards 1 and each
 * later detection needed more of them (72, 220, 712 s in a simulation with C = 2), until none
 * came. Each detection after a clear now needs the same K. */
static void cleared_onset_does_not_blind_the_model(void)
{
    struct hang_model *m = make(1000, 2);
    mg_rng rng;
    mg_rng_seed(&rng, 5);
    for (int i = 0; i < 200; i++) {
        uint64_t u = mg_rng_below(&rng, 10);
        struct hang_verdict v = feed(m, u < 6 ? 0 : u < 8 ? 1 : 2);
        if (v.kind == HANG_VERDICT_HANG)
            MG_CHECK_INT(hang_model_resume(m), MG_ERROR_OK);
    }
    MG_CHECK_INT(feed(m, 2).kind, HANG_VERDICT_NORMAL); /* no suspicion pending */
    unsigned needed = state(m).needed;
    MG_CHECK(needed > 0);
    for (int detection = 0; detection < 5; detection++) {
        struct hang_verdict v;
        unsigned fed = 0;
        do {
            v = feed(m, 0);
            fed++;
        } while (v.kind != HANG_VERDICT_HANG && fed < 10 * needed);
        MG_CHECK_INT(v.kind, HANG_VERDICT_HANG);
        MG_CHECK_INT(fed, needed);
        MG_CHECK_INT(hang_model_resume(m), MG_ERROR_OK);
    }
    hang_model_destroy(m);
}

static void sets_alternate_every_30(void)
{
    struct hang_model *m = make(1000, 6);
    const int *r;
    size_t n;
    MG_CHECK_INT(hang_model_sampled(m, &r, &n), MG_ERROR_OK);
    MG_CHECK_INT(n, 10);
    int first = r[0];
    /* a constant S never builds a model, so no suspicion delays a switch */
    for (int i = 0; i < 29; i++)
        feed(m, 3);
    MG_CHECK_INT(state(m).set_index, 0);
    feed(m, 3);
    MG_CHECK_INT(state(m).set_index, 1);
    MG_CHECK_INT(hang_model_sampled(m, &r, &n), MG_ERROR_OK);
    for (size_t i = 0; i < n; i++)
        MG_CHECK(r[i] != first);
    for (int i = 0; i < 370; i++)
        feed(m, 3);
    MG_CHECK_INT(state(m).switches, 13);
    MG_CHECK_INT(state(m).set_index, 1);
    for (int i = 0; i < 20; i++)
        feed(m, 3);
    MG_CHECK_INT(state(m).set_index, 0);
    MG_CHECK_INT(hang_model_sampled(m, &r, &n), MG_ERROR_OK);
    MG_CHECK_INT(r[0], first);
    hang_model_destroy(m);
}

/* With a switch due every 3 observations, K - 1 >= 3 suspicions in a row keep the set; the first
 * non-suspicion switches it. (alpha 1e-9 keeps K >= 4: 300 samples never below level 2 give the
 * exact bound q = 0.0122 at t = 1.) */
static void switch_waits_for_the_suspicions(void)
{
    struct hang_model_params p;
    hang_model_params_default(&p);
    p.switch_every = 3;
    p.alpha = 1e-9;
    struct hang_model *m;
    MG_CHECK_INT(hang_model_create(&p, 1000, 8, &m), MG_ERROR_OK);
    clock_s = 0;
    mg_rng rng;
    mg_rng_seed(&rng, 12);
    for (int i = 0; i < 300; i++)
        feed(m, 2 + (size_t)mg_rng_below(&rng, 9));
    while (state(m).suspicions > 0)
        feed(m, 10);
    struct hang_model_state s = state(m);
    MG_CHECK(s.built && s.needed >= 4);
    for (unsigned i = 1; i < s.needed; i++) {
        MG_CHECK_INT(feed(m, 0).kind, HANG_VERDICT_SUSPICIOUS);
        MG_CHECK_INT(state(m).set_index, s.set_index);
    }
    feed(m, 10);
    MG_CHECK_INT(state(m).set_index, 1 - s.set_index);
    MG_CHECK_INT(state(m).switches, s.switches + 1);
    hang_model_destroy(m);
}

static void fewer_ranks_than_two_sets(void)
{
    struct hang_model *m = make(5, 7);
    struct hang_model_state s = state(m);
    MG_CHECK_INT(s.set_size, 2);
    MG_CHECK(s.reduced && !s.single_set);
    struct hang_verdict v;
    MG_CHECK_INT(hang_model_observe(m, 3, 1.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_observe(m, 2, 1.0, &v), MG_ERROR_OK);
    hang_model_destroy(m);
    m = make(1, 7);
    s = state(m);
    MG_CHECK_INT(s.set_size, 1);
    MG_CHECK(s.reduced && s.single_set);
    const int *r;
    size_t n;
    MG_CHECK_INT(hang_model_sampled(m, &r, &n), MG_ERROR_OK);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(r[0], 0);
    hang_model_destroy(m);
    m = make(20, 7);
    MG_CHECK(!state(m).reduced);
    hang_model_destroy(m);
}

static void same_seed_same_behaviour(void)
{
    struct hang_model *a = make(100000, 42), *b = make(100000, 42);
    for (int i = 0; i < 50; i++) {
        double da, db;
        hang_model_next_delay(a, &da);
        hang_model_next_delay(b, &db);
        MG_CHECK_NEAR(da, db, 0);
    }
    const int *ra, *rb;
    size_t n;
    hang_model_sampled(a, &ra, &n);
    hang_model_sampled(b, &rb, &n);
    for (size_t i = 0; i < n; i++)
        MG_CHECK_INT(ra[i], rb[i]);
    hang_model_destroy(a);
    hang_model_destroy(b);
}

static void bad_arguments(void)
{
    struct hang_model_params p, q;
    hang_model_params_default(&p);
    struct hang_model *m = NULL;
    MG_CHECK_INT(hang_model_create(NULL, 10, 1, &m), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_create(&p, 0, 1, &m), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_create(&p, (size_t)INT_MAX + 1, 1, &m), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_create(&p, 10, 1, NULL), MG_ERROR_EINVAL);
    q = p, q.alpha = 1.0;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.set_size = 0;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.interval_max = 0.1;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.interval_growth = 1.0;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.runs_every = 1;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.tolerances[1] = 0.4;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    q = p, q.max_suspicions = 0;
    MG_CHECK_INT(hang_model_create(&q, 10, 1, &m), MG_ERROR_EINVAL);
    MG_CHECK(m == NULL);
    m = make(100, 1);
    struct hang_verdict v;
    double d;
    const int *r;
    size_t n;
    struct hang_model_state s;
    MG_CHECK_INT(hang_model_observe(m, 1, 5.0, &v), MG_ERROR_OK);
    MG_CHECK_INT(hang_model_observe(m, 1, 4.0, &v), MG_ERROR_EINVAL); /* time going back */
    MG_CHECK_INT(hang_model_observe(m, 1, NAN, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_observe(m, 11, 6.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_observe(m, 1, 6.0, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_observe(NULL, 1, 6.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(state(m).observations, 1); /* rejected calls leave no trace */
    MG_CHECK_INT(hang_model_next_delay(NULL, &d), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_next_delay(m, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_sampled(m, NULL, &n), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_sampled(NULL, &r, &n), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_state(m, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_state(NULL, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_resume(NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_model_resume(m), MG_ERROR_ESTATE);
    hang_model_destroy(m);
    hang_model_destroy(NULL);
}

int main(void)
{
    MG_RUN(defaults_are_the_papers);
    MG_RUN(delay_is_uniform_on_half_to_three_halves);
    MG_RUN(doubling_cap_and_reweighting);
    MG_RUN(paper_window_doubles_the_interval);
    MG_RUN(constant_windows_keep_the_interval);
    MG_RUN(freeze_and_reset_after_reweighting);
    MG_RUN(hang_after_k_suspicions_then_resume);
    MG_RUN(cleared_onset_does_not_blind_the_model);
    MG_RUN(sets_alternate_every_30);
    MG_RUN(switch_waits_for_the_suspicions);
    MG_RUN(fewer_ranks_than_two_sets);
    MG_RUN(same_seed_same_behaviour);
    MG_RUN(bad_arguments);
    MG_TEST_END();
}
