/* The (p_m', n_m') ladder, q = p^ + e and K = ceil(log_q alpha) (ParaStack §3.1-3.2). */
#include "hang_ladder.h"

#include <limits.h>
#include <math.h>

#include "mg_error.h"

/* Bisection steps for p_m: far below double resolution on (0, 0.5]. */
static const int bisect_steps = 200;
/* Relative slack for q^(K-1) <= alpha, so that an exact power (q = 0.1, alpha = 0.001 gives K = 3)
 * is not pushed to K + 1 by rounding in log(). */
static const double power_slack = 1e-12;
/* Relative slack for n^ <= n, so that 5 / (1 - 6/11) = 11 samples justify p^ = 6/11 with 11. */
static const double size_slack = 1e-12;

double hang_ladder_fmax(const struct hang_ladder *l, double p, double e)
{
    if (!(p > 0.0 && p < 1.0))
        return INFINITY;
    double m = l->min_expected;
    double ci = l->z * l->z / (e * e) * p * (1.0 - p);
    return fmax(fmax(m / p, m / (1.0 - p)), ci);
}

/* On (0, 0.5] m/p falls and z^2/e^2 p(1-p) rises, so the max is smallest where they cross (or at
 * 0.5 when they do not). */
static void optimum(const struct hang_ladder *l, double e, double *p_m, double *n_m)
{
    double lo = 0.0, hi = 0.5;
    double k = l->z * l->z / (e * e);
    if (l->min_expected / hi >= k * hi * (1.0 - hi)) {
        lo = hi;
    } else {
        for (int i = 0; i < bisect_steps; i++) {
            double mid = (lo + hi) / 2.0;
            if (l->min_expected / mid > k * mid * (1.0 - mid))
                lo = mid;
            else
                hi = mid;
        }
    }
    *p_m = lo;
    *n_m = hang_ladder_fmax(l, lo, e);
}

int hang_ladder_init(struct hang_ladder *l, const double *e, size_t n, double z,
                     double min_expected)
{
    if (!l || !e || n == 0 || n > HANG_LADDER_MAX_LEVELS || !(z > 0.0) || !(min_expected > 0.0))
        return MG_ERROR_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (!(e[i] > 0.0 && e[i] < 1.0) || (i > 0 && !(e[i] < e[i - 1])))
            return MG_ERROR_EINVAL;
    }
    l->nlevels = n;
    l->z = z;
    l->min_expected = min_expected;
    for (size_t i = 0; i < n; i++) {
        l->e[i] = e[i];
        optimum(l, e[i], &l->p_m[i], &l->n_m[i]);
    }
    return MG_ERROR_OK;
}

int hang_ladder_k(double q, double alpha, unsigned *k)
{
    if (!k || !(q > 0.0 && q < 1.0) || !(alpha > 0.0 && alpha < 1.0))
        return MG_ERROR_EINVAL;
    double x = ceil(log(alpha) / log(q));
    if (!(x < (double)UINT_MAX))
        return MG_ERROR_ERANGE;
    unsigned kk = x < 1.0 ? 1u : (unsigned)x;
    if (kk > 1 && pow(q, (double)(kk - 1)) <= alpha * (1.0 + power_slack))
        kk--;
    *k = kk;
    return MG_ERROR_OK;
}

/* The candidate (t, F(t), n^) at one tolerance; false when F has no usable support point. */
static bool candidate(const struct hang_ladder *l, const struct hang_ecdf *f, size_t i,
                      struct hang_ladder_choice *c)
{
    double p_m = l->p_m[i];
    bool have1 = false, have2 = false;
    size_t t1 = 0, t2 = 0;
    for (size_t x = 0; x < f->nlevels; x++) {
        if (!hang_ecdf_has(f, x))
            continue;
        if (hang_ecdf_at(f, x) < p_m) {
            t1 = x;
            have1 = true;
        } else if (!have2) {
            t2 = x;
            have2 = true;
        }
    }
    double n1 = have1 ? hang_ladder_fmax(l, hang_ecdf_at(f, t1), l->e[i]) : INFINITY;
    double n2 = have2 ? hang_ladder_fmax(l, hang_ecdf_at(f, t2), l->e[i]) : INFINITY;
    if (isinf(n1) && isinf(n2))
        return false;
    size_t t = n1 <= n2 ? t1 : t2;
    c->threshold = t;
    c->p_hat = hang_ecdf_at(f, t);
    c->n_hat = fmin(n1, n2);
    c->e = l->e[i];
    c->q = c->p_hat + c->e;
    return true;
}

/* The regularized incomplete beta function I_x(a, b), by Lentz's continued fraction on the side
 * where it converges fast (x < (a+1)/(a+b+2)), and the symmetry I_x(a,b) = 1 - I_1-x(b,a) on the
 * other. */
static double incomplete_beta(double a, double b, double x)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    if (x > (a + 1.0) / (a + b + 2.0))
        return 1.0 - incomplete_beta(b, a, 1.0 - x);
    const double tiny = 1e-300;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
    double f = 1.0, c = 1.0, d = 0.0;
    for (int i = 0; i <= 400; i++) {
        int m = i / 2;
        double num;
        if (i == 0)
            num = 1.0;
        else if (i % 2 == 0)
            num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        else
            num = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 + num * d;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = 1.0 + num / (fabs(c) < tiny ? tiny : c);
        double step = c * d;
        f *= step;
        if (fabs(1.0 - step) < 1e-14)
            break;
    }
    return front * (f - 1.0);
}

double hang_ladder_exact_upper(double k, double n, double tail)
{
    if (!(n > 0.0) || !(k >= 0.0) || !(tail > 0.0 && tail < 1.0))
        return NAN;
    if (k >= n)
        return 1.0;
    /* P(X <= k) = 1 - I_p(k+1, n-k) falls as p grows: bisect for the p where it equals tail. */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < bisect_steps && hi - lo > 1e-15; i++) {
        double mid = (lo + hi) / 2.0;
        if (1.0 - incomplete_beta(k + 1.0, n - k, mid) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

bool hang_ladder_exact(const struct hang_ladder *l, const struct hang_ecdf *f, double alpha,
                       double cap, struct hang_ladder_choice *c)
{
    if (!l || !f || !c || !(alpha > 0.0 && alpha < 1.0) || !(f->total > 0.0))
        return false;
    double tail = 0.5 * erfc(l->z / sqrt(2.0)), n = f->total;
    /* q grows with t (F does), so the smallest K is at t = 0; the highest t that keeps it is found
     * by one evaluation per level: q(t) <= b = alpha^(1/K) iff P(X <= hits(t) | n, b) <= tail. */
    double q = hang_ladder_exact_upper(hang_ecdf_at(f, 0) * n, n, tail);
    unsigned k;
    if (!(q <= cap) || !(q > 0.0 && q < 1.0) || hang_ladder_k(q, alpha, &k) != MG_ERROR_OK)
        return false;
    double b = pow(alpha, 1.0 / (double)k);
    size_t t = 0;
    while (t + 2 < f->nlevels) {
        double hits = hang_ecdf_at(f, t + 1) * n;
        if (hits >= n || 1.0 - incomplete_beta(hits + 1.0, n - hits, b) > tail)
            break;
        t++;
    }
    if (t > 0)
        q = hang_ladder_exact_upper(hang_ecdf_at(f, t) * n, n, tail);
    double p_hat = hang_ecdf_at(f, t);
    *c = (struct hang_ladder_choice){.built = true,
                                     .exact = true,
                                     .threshold = t,
                                     .p_hat = p_hat,
                                     .n_hat = n,
                                     .e = q - p_hat,
                                     .q = q};
    return true;
}

int hang_ladder_select(const struct hang_ladder *l, const struct hang_ecdf *f,
                       struct hang_ladder_choice *out)
{
    if (!l || !f || !out)
        return MG_ERROR_EINVAL;
    struct hang_ladder_choice best = {.built = false};
    for (size_t i = 0; i < l->nlevels; i++) {
        struct hang_ladder_choice c = {.built = true};
        if (candidate(l, f, i, &c) && c.n_hat <= f->total * (1.0 + size_slack))
            best = c;
    }
    *out = best;
    return MG_ERROR_OK;
}
