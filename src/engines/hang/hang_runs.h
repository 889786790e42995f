/* Wald-Wolfowitz runs test of a sample sequence (ParaStack §3.1; docs/design/hang.md "The model").
 * Pure functions: no allocation, no state; safe from any thread. */
#ifndef HANG_RUNS_H
#define HANG_RUNS_H

#include <stdbool.h>
#include <stddef.h>

struct hang_runs_params {
    double alpha;       /* two-sided significance level of the test */
    size_t small_limit; /* exact distribution while both N1 and N0 are <= this; normal beyond */
};

/* Paper §3.1: alpha 0.05; the Swed-Eisenhart small-sample range N1, N0 <= 20. */
void hang_runs_params_default(struct hang_runs_params *p);

struct hang_runs_result {
    double boundary; /* mean of the samples: >= boundary is "+", below is "-" */
    size_t n1;       /* number of "+" samples */
    size_t n0;       /* number of "-" samples */
    size_t runs;     /* R, the number of maximal blocks of equal signs */
    double lower;    /* acceptance region is lower < R < upper (both exclusive) */
    double upper;
    bool exact;  /* region from the exact runs distribution (else the normal approximation) */
    bool random; /* R inside the region; false also when N1 <= 1 or N0 <= 1 (no region exists) */
};

/* Exact P(R = r) for a random arrangement of n1 "+" and n0 "-" (n1, n0 >= 1, n1 + n0 <= 1000).
 * 0 ok; MG_ERROR_EINVAL on a NULL pointer, a zero count, or n1 + n0 > 1000 (binomials overflow). */
int hang_runs_pmf(size_t n1, size_t n0, size_t r, double *p);

/* Exact two-sided critical values at level alpha: *lower is the largest r with P(R <= r) <= alpha/2
 * (1 when none), *upper the smallest r with P(R >= r) <= alpha/2 (max runs + 1 when none); R is
 * accepted as random when lower < R < upper. Same limits and errors as hang_runs_pmf, and
 * MG_ERROR_EINVAL when alpha is outside (0, 1). */
int hang_runs_critical(size_t n1, size_t n0, double alpha, int *lower, int *upper);

/* Dichotomises x[0..n) about its mean and tests randomness: exact region while N1 and N0 are both
 * <= small_limit, else |R - mu| <= z(alpha/2) sigma. 0 ok (the verdict is out->random);
 * MG_ERROR_EINVAL on NULL pointers, n < 2, a non-finite sample or alpha outside (0, 1). */
int hang_runs_test(const double *x, size_t n, const struct hang_runs_params *p,
                   struct hang_runs_result *out);

#endif
