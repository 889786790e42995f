/* Wald-Wolfowitz runs test: exact small-sample critical values from the runs distribution and the
 * normal approximation for large samples (ParaStack §3.1; docs/design/hang.md "The model"). */
#include "hang_runs.h"

#include <math.h>

#include "mg_error.h"

/* Beyond this many samples the binomial coefficients of the exact distribution leave double range.
 */
static const size_t exact_max_total = 1000;
/* Relative slack when comparing a tail probability to alpha/2, so that a tail equal to alpha/2 in
 * exact arithmetic is not lost to rounding. */
static const double tail_slack = 1e-12;

void hang_runs_params_default(struct hang_runs_params *p)
{
    p->alpha = 0.05;
    p->small_limit = 20;
}

/* C(n, k) as a double; 0 when k > n. */
static double binomial(size_t n, size_t k)
{
    if (k > n)
        return 0.0;
    if (k > n - k)
        k = n - k;
    double c = 1.0;
    for (size_t i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c;
}

static size_t max_runs(size_t n1, size_t n0)
{
    size_t m = n1 < n0 ? n1 : n0;
    return 2 * m + (n1 != n0 ? 1 : 0);
}

/* Number of arrangements with exactly r runs (Swed and Eisenhart 1943). */
static double arrangements(size_t n1, size_t n0, size_t r)
{
    if (r < 2)
        return 0.0;
    size_t k = r / 2;
    if (r % 2 == 0)
        return 2.0 * binomial(n1 - 1, k - 1) * binomial(n0 - 1, k - 1);
    return binomial(n1 - 1, k) * binomial(n0 - 1, k - 1) +
           binomial(n1 - 1, k - 1) * binomial(n0 - 1, k);
}

static bool counts_ok(size_t n1, size_t n0)
{
    return n1 >= 1 && n0 >= 1 && n1 + n0 <= exact_max_total;
}

int hang_runs_pmf(size_t n1, size_t n0, size_t r, double *p)
{
    if (!p || !counts_ok(n1, n0))
        return MG_ERROR_EINVAL;
    *p = arrangements(n1, n0, r) / binomial(n1 + n0, n1);
    return MG_ERROR_OK;
}

int hang_runs_critical(size_t n1, size_t n0, double alpha, int *lower, int *upper)
{
    if (!lower || !upper || !counts_ok(n1, n0) || !(alpha > 0.0 && alpha < 1.0))
        return MG_ERROR_EINVAL;
    double total = binomial(n1 + n0, n1);
    double tail = alpha / 2.0 * (1.0 + tail_slack);
    size_t rmax = max_runs(n1, n0);
    int lo = 1;
    double cum = 0.0;
    for (size_t r = 2; r <= rmax; r++) {
        cum += arrangements(n1, n0, r) / total;
        if (cum > tail)
            break;
        lo = (int)r;
    }
    int hi = (int)rmax + 1;
    cum = 0.0;
    for (size_t r = rmax; r >= 2; r--) {
        cum += arrangements(n1, n0, r) / total;
        if (cum > tail)
            break;
        hi = (int)r;
    }
    *lower = lo;
    *upper = hi;
    return MG_ERROR_OK;
}

/* z with P(Z > z) = tail for a standard normal Z, by bisection on erfc (monotone, no table). */
static double normal_upper_quantile(double tail)
{
    double lo = 0.0, hi = 40.0;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2.0;
        if (0.5 * erfc(mid / sqrt(2.0)) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2.0;
}

static void normal_region(size_t n1, size_t n0, double alpha, struct hang_runs_result *out)
{
    double a = (double)n1, b = (double)n0, n = a + b;
    double mu = 2.0 * a * b / n + 1.0;
    double var = 2.0 * a * b * (2.0 * a * b - n) / (n * n * (n - 1.0));
    double half = normal_upper_quantile(alpha / 2.0) * sqrt(var);
    /* |R - mu| <= z sigma is accepted, so the exclusive bounds sit just outside it. */
    out->lower = nextafter(mu - half, -INFINITY);
    out->upper = nextafter(mu + half, INFINITY);
}

int hang_runs_test(const double *x, size_t n, const struct hang_runs_params *p,
                   struct hang_runs_result *out)
{
    if (!x || !p || !out || n < 2 || !(p->alpha > 0.0 && p->alpha < 1.0))
        return MG_ERROR_EINVAL;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return MG_ERROR_EINVAL;
        sum += x[i];
    }
    struct hang_runs_result r = {.boundary = sum / (double)n};
    bool prev = false;
    for (size_t i = 0; i < n; i++) {
        bool plus = x[i] >= r.boundary;
        if (plus)
            r.n1++;
        else
            r.n0++;
        if (i == 0 || plus != prev)
            r.runs++;
        prev = plus;
    }
    if (r.n1 <= 1 || r.n0 <= 1) {
        /* Paper §3.1: no non-rejection region exists, so the sampling is taken as not random. */
        r.lower = r.upper = 0.0;
        *out = r;
        return MG_ERROR_OK;
    }
    r.exact = r.n1 <= p->small_limit && r.n0 <= p->small_limit && n <= exact_max_total;
    if (r.exact) {
        int lo, hi;
        int rc = hang_runs_critical(r.n1, r.n0, p->alpha, &lo, &hi);
        if (rc != MG_ERROR_OK)
            return rc;
        r.lower = lo;
        r.upper = hi;
    } else {
        normal_region(r.n1, r.n0, p->alpha, &r);
    }
    r.random = (double)r.runs > r.lower && (double)r.runs < r.upper;
    *out = r;
    return MG_ERROR_OK;
}
