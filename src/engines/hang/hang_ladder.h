/* The (p_m', n_m') ladder of ParaStack §3.2: which suspicion probability p^ the current sample size
 * can justify at each tolerance e, the threshold t it defines, q = p^ + e, and K = ceil(log_q
 * alpha) (§3.1). The ladder is a caller-owned value; every function is pure and thread-safe. */
#ifndef HANG_LADDER_H
#define HANG_LADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "hang_ecdf.h"

#define HANG_LADDER_MAX_LEVELS 8

struct hang_ladder {
    size_t nlevels;
    double e[HANG_LADDER_MAX_LEVELS];   /* tolerances, largest first (paper: 0.3 0.2 0.1 0.05) */
    double p_m[HANG_LADDER_MAX_LEVELS]; /* the p^ that minimises n^ at each e */
    double n_m[HANG_LADDER_MAX_LEVELS]; /* that minimal n^ */
    double z;                           /* normal quantile of the confidence interval (1.96) */
    double min_expected;                /* rule of thumb n p^ > this and n (1-p^) > this (5) */
};

/* Fills the ladder for tolerances e[0..n) (strictly decreasing, each in (0, 1)), z > 0 and
 * min_expected > 0. 0 ok; MG_ERROR_EINVAL on NULL, n == 0, n > HANG_LADDER_MAX_LEVELS or a bad
 * value. */
int hang_ladder_init(struct hang_ladder *l, const double *e, size_t n, double z,
                     double min_expected);

/* n^ = max{m/p, m/(1-p), z^2/e^2 p(1-p)} with m = min_expected: the smallest sample size that
 * justifies p at tolerance e; INFINITY when p is not inside (0, 1). */
double hang_ladder_fmax(const struct hang_ladder *l, double p, double e);

/* K = ceil(log_q alpha), the smallest k with q^k <= alpha. 0 ok; MG_ERROR_EINVAL unless 0 < q < 1
 * and 0 < alpha < 1; MG_ERROR_ERANGE when K does not fit an unsigned. */
int hang_ladder_k(double q, double alpha, unsigned *k);

struct hang_ladder_choice {
    bool built; /* some tolerance is justified by the sample size */
    bool exact; /* built by the exact binomial bound below, not by a tolerance of the ladder */
    size_t threshold; /* t as a level: a suspicion is S_crout level <= threshold */
    double p_hat;     /* p^_m' = F_n(t) */
    double n_hat;     /* n^_m', the sample size that justifies p_hat */
    double e;         /* the tolerance */
    double q;         /* p_hat + e */
};

/* The exact (Clopper-Pearson) upper confidence bound for a probability hit k times in n samples:
 * the p with P(X <= k) = tail for X ~ Binomial(n, p), with n and k real (weighted samples) through
 * the regularized incomplete beta function. 1 when k >= n; NAN on n <= 0, k < 0 or tail outside
 * (0, 1). k = 0 gives 1 - tail^(1/n). */
double hang_ladder_exact_upper(double k, double n, double tail);

/* Picks the smallest tolerance whose n^_m' <= F's sample size, with p^_m' taken at t1 = max{X:
 * F(X) < p_m} or t2 = min{X: F(X) >= p_m} over the observed X, whichever needs fewer samples (the
 * smaller p^ on a tie): the paper's ladder, q = p^ + e. out->built is false when no tolerance is
 * justified yet. 0 ok; MG_ERROR_EINVAL on NULL. */
int hang_ladder_select(const struct hang_ladder *l, const struct hang_ecdf *f,
                       struct hang_ladder_choice *out);

/* The exact bound, ours: at every level t below the top, q = hang_ladder_exact_upper(n F(t), n,
 * tail) with tail the one-sided tail of the ladder's z (0.025 for 1.96); among the levels with
 * q <= cap, the one with the smallest K = ceil(log_q alpha), the highest t (most sensitive to a
 * hang) on a tie. Why: the ladder's normal approximation needs n p^ > 5, so while a job is healthy
 * and nearly every sample sits at the top level (ranks out of MPI or progressing) it is never
 * justified; the exact bound holds at any n. True with *out set (exact, e = q - p^); false when no
 * level qualifies or on NULL or alpha outside (0, 1). */
bool hang_ladder_exact(const struct hang_ladder *l, const struct hang_ecdf *f, double alpha,
                       double cap, struct hang_ladder_choice *out);

#endif
