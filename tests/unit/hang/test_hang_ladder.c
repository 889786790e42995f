/* Unit tests of the ECDF and the (p^, n^) ladder, q and K (ParaStack §3.1-3.2). */
#include <limits.h>
#include <math.h>

#include "hang_ecdf.h"
#include "hang_ladder.h"
#include "mg_error.h"
#include "mg_test.h"

static const double paper_e[4] = {0.3, 0.2, 0.1, 0.05};

static void ladder_reproduces_the_paper_points(void)
{
    struct hang_ladder l;
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 5.0), MG_ERROR_OK);
    /* Paper §3.2: (0.47, 11), (0.27, 19), (0.12, 42), (0.06, 86). */
    static const double p_m[4] = {0.47, 0.27, 0.12, 0.06};
    static const double n_m[4] = {11, 19, 42, 86};
    for (int i = 0; i < 4; i++) {
        MG_CHECK_NEAR(l.p_m[i], p_m[i], 0.005);
        MG_CHECK_NEAR(ceil(l.n_m[i]), n_m[i], 0);
        /* at the optimum both terms of f_max meet */
        MG_CHECK_NEAR(5.0 / l.p_m[i],
                      1.96 * 1.96 / (paper_e[i] * paper_e[i]) * l.p_m[i] * (1 - l.p_m[i]), 1e-9);
    }
    /* A tolerance so wide that the rule of thumb dominates everywhere: p_m = 0.5, n_m = 10. */
    double wide = 0.9;
    MG_CHECK_INT(hang_ladder_init(&l, &wide, 1, 1.96, 5.0), MG_ERROR_OK);
    MG_CHECK_NEAR(l.p_m[0], 0.5, 0);
    MG_CHECK_NEAR(l.n_m[0], 10.0, 1e-12);
}

static void fmax_by_hand(void)
{
    struct hang_ladder l;
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 5.0), MG_ERROR_OK);
    MG_CHECK_NEAR(hang_ladder_fmax(&l, 0.5, 0.3), 3.8416 / 0.09 * 0.25, 1e-12);
    MG_CHECK_NEAR(hang_ladder_fmax(&l, 0.9, 0.05), 3.8416 / 0.0025 * 0.09, 1e-9);
    MG_CHECK_NEAR(hang_ladder_fmax(&l, 0.98, 0.05), 5.0 / 0.02, 1e-9);
    MG_CHECK_NEAR(hang_ladder_fmax(&l, 0.1, 0.3), 50.0, 1e-12);
    MG_CHECK(isinf(hang_ladder_fmax(&l, 0.0, 0.3)));
    MG_CHECK(isinf(hang_ladder_fmax(&l, 1.0, 0.3)));
}

static void k_is_ceil_log_q_alpha(void)
{
    unsigned k;
    MG_CHECK_INT(hang_ladder_k(0.77, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 27); /* paper §3.3: log_0.77 0.001 = 26.5 */
    MG_CHECK_INT(hang_ladder_k(0.1, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 3); /* an exact power */
    /* log(1e-8) / log(0.01) rounds to just above 4 with glibc: ceil alone would say 5 */
    MG_CHECK_INT(hang_ladder_k(0.01, 1e-8, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 4);
    MG_CHECK_INT(hang_ladder_k(0.5, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 10);
    MG_CHECK_INT(hang_ladder_k(0.8, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 31);
    MG_CHECK_INT(hang_ladder_k(0.5, 0.25, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 2);
    MG_CHECK_INT(hang_ladder_k(0.001, 0.01, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 1);
    MG_CHECK_INT(hang_ladder_k(1.0, 0.001, &k), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_k(0.0, 0.001, &k), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_k(0.5, 1.0, &k), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_k(0.5, 0.001, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_k(1.0 - 1e-12, 0.001, &k), MG_ERROR_ERANGE);
}

static void ecdf_weights_and_scaling(void)
{
    struct hang_ecdf f;
    MG_CHECK_INT(hang_ecdf_init(&f, 11), MG_ERROR_OK);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 3), 0.0, 0);
    MG_CHECK_INT(hang_ecdf_add(&f, 0, 1.0), MG_ERROR_OK);
    MG_CHECK_INT(hang_ecdf_add(&f, 2, 1.0), MG_ERROR_OK);
    MG_CHECK_INT(hang_ecdf_add(&f, 2, 0.5), MG_ERROR_OK);
    MG_CHECK_INT(hang_ecdf_add(&f, 7, 1.5), MG_ERROR_OK);
    MG_CHECK_NEAR(f.total, 4.0, 1e-12);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 0), 0.25, 1e-12);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 1), 0.25, 1e-12);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 2), 0.625, 1e-12);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 10), 1.0, 0);
    MG_CHECK(hang_ecdf_has(&f, 2) && !hang_ecdf_has(&f, 1) && !hang_ecdf_has(&f, 11));
    MG_CHECK_INT(hang_ecdf_scale(&f, 0.5), MG_ERROR_OK);
    MG_CHECK_NEAR(f.total, 2.0, 1e-12);
    MG_CHECK_NEAR(hang_ecdf_at(&f, 2), 0.625, 1e-12); /* scaling keeps F */
    MG_CHECK_INT(hang_ecdf_add(&f, 9, 2.0), MG_ERROR_OK);   /* a new sample counts double now */
    MG_CHECK_NEAR(hang_ecdf_at(&f, 2), 1.25 / 4.0, 1e-12);
    MG_CHECK_INT(hang_ecdf_add(&f, 11, 1.0), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ecdf_add(&f, 1, 0.0), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ecdf_scale(&f, 1.5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ecdf_scale(&f, 0.0), MG_ERROR_EINVAL);
    hang_ecdf_free(&f);
    hang_ecdf_free(&f);
    MG_CHECK_INT(hang_ecdf_init(&f, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ecdf_init(NULL, 3), MG_ERROR_EINVAL);
}

static void select_by_hand(void)
{
    struct hang_ladder l;
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 5.0), MG_ERROR_OK);
    struct hang_ecdf f;
    MG_CHECK_INT(hang_ecdf_init(&f, 11), MG_ERROR_OK);
    struct hang_ladder_choice c;
    MG_CHECK_INT(hang_ladder_select(&l, &f, &c), MG_ERROR_OK);
    MG_CHECK(!c.built);
    /* 6 samples at 0, 4 at 1, 10 at 5: F(0) = 0.3, F(1) = 0.5. At e = 0.3 (p_m = 0.47):
     * t1 = 0 needs f(0.3) = 16.7, t2 = 1 needs f(0.5) = 10.67 -> t = 1. At e = 0.2 only t2 = 0
     * exists, f(0.3) = 96.04 * 0.21 = 20.17 > 20: not yet. */
    for (int i = 0; i < 6; i++)
        hang_ecdf_add(&f, 0, 1.0);
    for (int i = 0; i < 4; i++)
        hang_ecdf_add(&f, 1, 1.0);
    for (int i = 0; i < 10; i++)
        hang_ecdf_add(&f, 5, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &f, &c), MG_ERROR_OK);
    MG_CHECK(c.built);
    MG_CHECK_NEAR(c.e, 0.3, 0);
    MG_CHECK_INT(c.threshold, 1);
    MG_CHECK_NEAR(c.p_hat, 0.5, 1e-12);
    MG_CHECK_NEAR(c.n_hat, 3.8416 / 0.09 * 0.25, 1e-9);
    MG_CHECK_NEAR(c.q, 0.8, 1e-12);
    /* One more sample at 5: F(0) = 6/21, f = 96.04 * (6/21)(15/21) = 19.6 <= 21 -> e = 0.2, t = 0.
     */
    hang_ecdf_add(&f, 5, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &f, &c), MG_ERROR_OK);
    MG_CHECK_NEAR(c.e, 0.2, 0);
    MG_CHECK_INT(c.threshold, 0);
    MG_CHECK_NEAR(c.p_hat, 6.0 / 21.0, 1e-12);
    MG_CHECK_NEAR(c.q, 6.0 / 21.0 + 0.2, 1e-12);
    MG_CHECK_NEAR(c.n_hat, 3.8416 / 0.04 * (6.0 / 21.0) * (15.0 / 21.0), 1e-9);
    /* A constant S at level 0: F jumps from 0 to 1, nothing can be justified. */
    struct hang_ecdf g;
    MG_CHECK_INT(hang_ecdf_init(&g, 11), MG_ERROR_OK);
    for (int i = 0; i < 500; i++)
        hang_ecdf_add(&g, 0, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &g, &c), MG_ERROR_OK);
    MG_CHECK(!c.built);
    MG_CHECK_INT(hang_ladder_select(NULL, &g, &c), MG_ERROR_EINVAL);
    MG_CHECK(!hang_ladder_exact(&l, &g, 0.001, 0.3, &c)); /* everything at level 0 */
    MG_CHECK(!hang_ladder_exact(&l, &g, 1.0, 0.3, &c));
    MG_CHECK(!hang_ladder_exact(NULL, &g, 0.001, 0.3, &c));
    hang_ecdf_free(&g);
    hang_ecdf_free(&f);
}

/* The exact bound with no hit: nothing below level 4 in n samples gives p^ = 0 at t = 0..3 and
 * q = 1 - tail^(1/n) with tail = P(Z > 1.96) = 0.024998; under the cap 0.3 it needs n >= ln(tail)
 * / ln(0.7) = 10.34; the highest of the tied levels is taken. The ladder justifies nothing there.
 */
static void exact_bound_without_hits(void)
{
    struct hang_ladder l;
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 5.0), MG_ERROR_OK);
    struct hang_ecdf f;
    MG_CHECK_INT(hang_ecdf_init(&f, 11), MG_ERROR_OK);
    struct hang_ladder_choice c;
    for (int i = 0; i < 10; i++)
        hang_ecdf_add(&f, 4, 1.0);
    MG_CHECK(!hang_ladder_exact(&l, &f, 0.001, 0.3, &c)); /* q = 0.3085 */
    hang_ecdf_add(&f, 10, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &f, &c), MG_ERROR_OK);
    MG_CHECK(!c.built); /* F(4) = 10/11 needs 5 / (1/11) = 55 samples */
    MG_CHECK(hang_ladder_exact(&l, &f, 0.001, 0.3, &c));
    MG_CHECK(c.built && c.exact);
    MG_CHECK_INT(c.threshold, 3);
    MG_CHECK_NEAR(c.p_hat, 0.0, 0);
    MG_CHECK_NEAR(c.q, 1.0 - pow(0.024997895, 1.0 / 11.0), 1e-8);
    MG_CHECK_NEAR(c.q, c.p_hat + c.e, 1e-12);
    /* Halved weights count as half a sample each: 22 samples at weight 1/2 are n = 11. */
    struct hang_ecdf h;
    MG_CHECK_INT(hang_ecdf_init(&h, 11), MG_ERROR_OK);
    for (int i = 0; i < 22; i++)
        hang_ecdf_add(&h, 10, 0.5);
    MG_CHECK(hang_ladder_exact(&l, &h, 0.001, 0.3, &c));
    MG_CHECK(c.exact && c.threshold == 9);
    MG_CHECK_NEAR(c.q, 1.0 - pow(0.024997895, 1.0 / 11.0), 1e-8);
    hang_ecdf_free(&h);
    hang_ecdf_free(&f);
}

/* Clopper-Pearson bounds (two-sided 95%, so tail 0.025; checked against the binomial CDF summed
 * exactly): 1 in 30 -> 0.172169, 13 in 40 -> 0.491295, 0 in 10 -> 0.308497; k >= n -> 1; bad
 * arguments -> NAN. */
static void exact_upper_by_table(void)
{
    MG_CHECK_NEAR(hang_ladder_exact_upper(1, 30, 0.025), 0.172169, 1e-6);
    MG_CHECK_NEAR(hang_ladder_exact_upper(13, 40, 0.025), 0.491295, 1e-6);
    MG_CHECK_NEAR(hang_ladder_exact_upper(0, 10, 0.025), 1.0 - pow(0.025, 0.1), 1e-10);
    MG_CHECK_NEAR(hang_ladder_exact_upper(5, 5, 0.025), 1.0, 0);
    MG_CHECK(isnan(hang_ladder_exact_upper(1, 0, 0.025)));
    MG_CHECK(isnan(hang_ladder_exact_upper(-1, 10, 0.025)));
    MG_CHECK(isnan(hang_ladder_exact_upper(1, 10, 1.0)));
}

/* One dip among healthy samples: 1 at level 0 and 29 at 10. The ladder cannot be justified
 * (n F(0) = 1 < 5); the exact bound gives q = 0.17217 at every t = 0..9, K = ceil(log_q 0.001) = 4,
 * t = 9. With 13 of 40 at level 0 (the rest at 10) the ladder is justified (e = 0.2, q = 0.525,
 * K = 11) and the exact bound, 0.49130 (K = 10), is under a cap of 0.525 but not of 0.3. */
static void exact_bound_with_hits(void)
{
    struct hang_ladder l;
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 5.0), MG_ERROR_OK);
    struct hang_ecdf f;
    MG_CHECK_INT(hang_ecdf_init(&f, 11), MG_ERROR_OK);
    struct hang_ladder_choice c;
    hang_ecdf_add(&f, 0, 1.0);
    for (int i = 0; i < 29; i++)
        hang_ecdf_add(&f, 10, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &f, &c), MG_ERROR_OK);
    MG_CHECK(!c.built);
    MG_CHECK(hang_ladder_exact(&l, &f, 0.001, 0.3, &c));
    MG_CHECK_INT(c.threshold, 9);
    MG_CHECK_NEAR(c.q, 0.172169, 1e-5);
    unsigned k;
    MG_CHECK_INT(hang_ladder_k(c.q, 0.001, &k), MG_ERROR_OK);
    MG_CHECK_INT(k, 4);
    struct hang_ecdf g;
    MG_CHECK_INT(hang_ecdf_init(&g, 11), MG_ERROR_OK);
    for (int i = 0; i < 40; i++)
        hang_ecdf_add(&g, i < 13 ? 0 : 10, 1.0);
    MG_CHECK_INT(hang_ladder_select(&l, &g, &c), MG_ERROR_OK);
    MG_CHECK(c.built && !c.exact);
    MG_CHECK_NEAR(c.q, 0.525, 1e-12);
    MG_CHECK(!hang_ladder_exact(&l, &g, 0.001, 0.3, &c));
    MG_CHECK(hang_ladder_exact(&l, &g, 0.001, 0.525, &c));
    MG_CHECK_NEAR(c.q, 0.491295, 1e-5);
    MG_CHECK_INT(c.threshold, 9);
    hang_ecdf_free(&g);
    hang_ecdf_free(&f);
}

static void bad_ladders(void)
{
    struct hang_ladder l;
    double up[2] = {0.1, 0.2}, one = 1.0;
    MG_CHECK_INT(hang_ladder_init(&l, up, 2, 1.96, 5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(&l, &one, 1, 1.96, 5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 0, 1.96, 5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, HANG_LADDER_MAX_LEVELS + 1, 1.96, 5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 0, 5), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(&l, paper_e, 4, 1.96, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_ladder_init(NULL, paper_e, 4, 1.96, 5), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(ladder_reproduces_the_paper_points);
    MG_RUN(fmax_by_hand);
    MG_RUN(k_is_ceil_log_q_alpha);
    MG_RUN(ecdf_weights_and_scaling);
    MG_RUN(select_by_hand);
    MG_RUN(exact_bound_without_hits);
    MG_RUN(exact_upper_by_table);
    MG_RUN(exact_bound_with_hits);
    MG_RUN(bad_ladders);
    MG_TEST_END();
}
