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
        return MG_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (!(e[i] > 0.0 && e[i] < 1.0) || (i > 0 && !(e[i] < e[i - 1])))
            return MG_EINVAL;
    }
    l->nlevels = n;
    l->z = z;
    l->min_expected = min_expected;
    for (size_t i = 0; i < n; i++) {
        l->e[i] = e[i];
        optimum(l, e[i], &l->p_m[i], &l->n_m[i]);
    }
    return MG_OK;
}

int hang_ladder_k(double q, double alpha, unsigned *k)
{
    if (!k || !(q > 0.0 && q < 1.0) || !(alpha > 0.0 && alpha < 1.0))
        return MG_EINVAL;
    double x = ceil(log(alpha) / log(q));
    if (!(x < (double)UINT_MAX))
        return MG_ERANGE;
    unsigned kk = x < 1.0 ? 1u : (unsigned)x;
    if (kk > 1 && pow(q, (double)(kk - 1)) <= alpha * (1.0 + power_slack))
        kk--;
    *k = kk;
    return MG_OK;
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
    c->index = i;
    c->threshold = t;
    c->p_hat = hang_ecdf_at(f, t);
    c->n_hat = fmin(n1, n2);
    c->e = l->e[i];
    c->q = c->p_hat + c->e;
    return true;
}

/* The no-hit bound (see the header); false when some sample sits at level 0, or when n is still too
 * small for the bound to reach the largest tolerance. */
static bool no_hit_bound(const struct hang_ladder *l, const struct hang_ecdf *f,
                         struct hang_ladder_choice *c)
{
    size_t lowest = 0;
    while (lowest < f->nlevels && !hang_ecdf_has(f, lowest))
        lowest++;
    if (lowest == 0 || lowest == f->nlevels || !(f->total > 0.0))
        return false;
    double tail = 0.5 * erfc(l->z / sqrt(2.0));
    double q = 1.0 - pow(tail, 1.0 / f->total);
    if (!(q <= l->e[0]))
        return false;
    *c = (struct hang_ladder_choice){.built = true,
                                     .no_hit = true,
                                     .index = l->nlevels,
                                     .threshold = lowest - 1,
                                     .p_hat = 0.0,
                                     .n_hat = log(tail) / log(1.0 - l->e[0]),
                                     .e = q,
                                     .q = q};
    return true;
}

int hang_ladder_select(const struct hang_ladder *l, const struct hang_ecdf *f,
                       struct hang_ladder_choice *out)
{
    if (!l || !f || !out)
        return MG_EINVAL;
    struct hang_ladder_choice best = {.built = false};
    for (size_t i = 0; i < l->nlevels; i++) {
        struct hang_ladder_choice c = {.built = true};
        if (candidate(l, f, i, &c) && c.n_hat <= f->total * (1.0 + size_slack))
            best = c;
    }
    if (!best.built)
        (void)no_hit_bound(l, f, &best);
    *out = best;
    return MG_OK;
}
