/* Fixed (I, K) timeout baseline (ParaStack §3 Table 1; docs/design/hang.md "Proof"). */
#include "hang_timeout.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "hang_sets.h"
#include "mg_error.h"
#include "mg_rng.h"

/* Absolute slack on "S_crout <= low_fraction", so that 1/10 <= 0.1 holds despite rounding. */
static const double fraction_slack = 1e-9;

struct hang_timeout {
    struct hang_timeout_params p;
    mg_rng rng;
    struct hang_sets *sets;
    size_t c;
    unsigned streak;
    double last_now;
    bool hang;
};

void hang_timeout_params_default(struct hang_timeout_params *p)
{
    *p = (struct hang_timeout_params){
        .interval = 0.4, .k = 10, .low_fraction = 0.1, .set_size = 10, .switch_every = 30};
}

int hang_timeout_create(const struct hang_timeout_params *p, size_t nranks, uint64_t seed,
                        struct hang_timeout **out)
{
    if (!p || !out || nranks == 0 || nranks > INT_MAX || !(p->interval > 0.0) || p->k == 0 ||
        !(p->low_fraction >= 0.0 && p->low_fraction < 1.0) || p->set_size == 0 ||
        p->switch_every == 0)
        return MG_ERROR_EINVAL;
    struct hang_timeout *t = calloc(1, sizeof *t);
    if (!t)
        return MG_ERROR_ENOMEM;
    t->p = *p;
    mg_rng_seed(&t->rng, seed);
    int rc = hang_sets_create(nranks, p->set_size, p->switch_every, &t->rng, &t->sets);
    if (rc != MG_ERROR_OK) {
        free(t);
        return rc;
    }
    const int *ranks;
    hang_sets_current(t->sets, &ranks, &t->c);
    *out = t;
    return MG_ERROR_OK;
}

void hang_timeout_destroy(struct hang_timeout *t)
{
    if (!t)
        return;
    hang_sets_destroy(t->sets);
    free(t);
}

int hang_timeout_sampled(const struct hang_timeout *t, const int **ranks, size_t *count)
{
    if (!t || !ranks || !count)
        return MG_ERROR_EINVAL;
    hang_sets_current(t->sets, ranks, count);
    return MG_ERROR_OK;
}

int hang_timeout_next_delay(const struct hang_timeout *t, double *delay)
{
    if (!t || !delay)
        return MG_ERROR_EINVAL;
    *delay = t->p.interval;
    return MG_ERROR_OK;
}

int hang_timeout_observe(struct hang_timeout *t, size_t out_mpi, double now, struct hang_verdict *v)
{
    if (!t || !v || out_mpi > t->c || !isfinite(now) || now < t->last_now)
        return MG_ERROR_EINVAL;
    if (t->hang)
        return MG_ERROR_ESTATE;
    t->last_now = now;
    bool low = (double)out_mpi / (double)t->c <= t->p.low_fraction + fraction_slack;
    t->streak = low ? t->streak + 1 : 0;
    t->hang = t->streak >= t->p.k;
    enum hang_verdict_kind kind = t->hang ? HANG_VERDICT_HANG
                                  : low   ? HANG_VERDICT_SUSPICIOUS
                                          : HANG_VERDICT_NORMAL;
    *v = (struct hang_verdict){kind, t->streak, t->p.k};
    hang_sets_advance(t->sets, t->streak == 0, &t->rng);
    return MG_ERROR_OK;
}

int hang_timeout_resume(struct hang_timeout *t)
{
    if (!t)
        return MG_ERROR_EINVAL;
    if (!t->hang)
        return MG_ERROR_ESTATE;
    t->hang = false;
    t->streak = 0;
    return MG_ERROR_OK;
}
