/* The ParaStack hang model: sampling, interval tuning, the ECDF, the ladder and the suspicion test
 * (§3.1-3.3; docs/design/hang.md "The model"). */
#include "hang_model.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "hang_ecdf.h"
#include "hang_sets.h"
#include "mg_error.h"
#include "mg_rng.h"

struct hang_model {
    struct hang_model_params p;
    mg_rng rng;
    struct hang_sets *sets;
    size_t c; /* ranks per set: S_crout levels are 0..c */
    struct hang_ecdf ecdf;
    struct hang_ladder ladder;
    struct hang_ladder_choice choice;
    struct exact_cache {
        bool computed, found;
        struct hang_ladder_choice choice;
        double n, hits; /* the sample size and its weight at or below t */
    } exact;
    unsigned needed;
    double interval;
    bool capped, random_ok, testing_done;
    size_t doublings;
    double *window; /* the fresh samples of the current runs test */
    size_t nwindow;
    uint32_t *pending; /* levels of the current suspicions, committed if the run breaks */
    unsigned streak;
    double streak_start;
    size_t observations, samples;
    double last_now;
    bool hang;
};

void hang_model_params_default(struct hang_model_params *p)
{
    static const double tolerances[] = {0.3, 0.2, 0.1, 0.05};
    *p = (struct hang_model_params){
        .alpha = 0.001,
        .set_size = 10,
        .switch_every = 30,
        .interval_init = 0.4,
        .interval_max = 6.4,
        .interval_growth = 2.0,
        .runs_every = 16,
        .exact_bound = true,
        .ntolerances = sizeof tolerances / sizeof tolerances[0],
        .ladder_z = 1.96,
        .min_expected = 5.0,
        .max_suspicions = 1000,
    };
    hang_runs_params_default(&p->runs);
    for (size_t i = 0; i < p->ntolerances; i++)
        p->tolerances[i] = tolerances[i];
}

static bool params_ok(const struct hang_model_params *p)
{
    return p->alpha > 0.0 && p->alpha < 1.0 && p->set_size > 0 && p->switch_every > 0 &&
           p->interval_init > 0.0 && isfinite(p->interval_max) &&
           p->interval_max >= p->interval_init && p->interval_growth > 1.0 &&
           isfinite(p->interval_growth) && p->runs_every >= 2 && p->runs.alpha > 0.0 &&
           p->runs.alpha < 1.0 && p->max_suspicions > 0;
}

int hang_model_create(const struct hang_model_params *p, size_t nranks, uint64_t seed,
                      struct hang_model **out)
{
    if (!p || !out || nranks == 0 || nranks > INT_MAX || !params_ok(p))
        return MG_ERROR_EINVAL;
    struct hang_model *m = calloc(1, sizeof *m);
    if (!m)
        return MG_ERROR_ENOMEM;
    m->p = *p;
    m->interval = p->interval_init;
    mg_rng_seed(&m->rng, seed);
    int rc = hang_ladder_init(&m->ladder, p->tolerances, p->ntolerances, p->ladder_z,
                              p->min_expected);
    if (rc == MG_ERROR_OK)
        rc = hang_sets_create(nranks, p->set_size, p->switch_every, &m->rng, &m->sets);
    if (rc == MG_ERROR_OK) {
        const int *ranks;
        hang_sets_current(m->sets, &ranks, &m->c);
        rc = hang_ecdf_init(&m->ecdf, m->c + 1);
    }
    if (rc == MG_ERROR_OK) {
        m->window = malloc(p->runs_every * sizeof *m->window);
        m->pending = malloc(p->max_suspicions * sizeof *m->pending);
        if (!m->window || !m->pending)
            rc = MG_ERROR_ENOMEM;
    }
    if (rc != MG_ERROR_OK) {
        hang_model_destroy(m);
        return rc;
    }
    *out = m;
    return MG_ERROR_OK;
}

void hang_model_destroy(struct hang_model *m)
{
    if (!m)
        return;
    hang_sets_destroy(m->sets);
    hang_ecdf_free(&m->ecdf);
    free(m->window);
    free(m->pending);
    free(m);
}

int hang_model_sampled(const struct hang_model *m, const int **ranks, size_t *count)
{
    if (!m || !ranks || !count)
        return MG_ERROR_EINVAL;
    hang_sets_current(m->sets, ranks, count);
    return MG_ERROR_OK;
}

int hang_model_next_delay(struct hang_model *m, double *delay)
{
    if (!m || !delay)
        return MG_ERROR_EINVAL;
    *delay = m->interval / 2.0 + mg_rng_uniform(&m->rng) * m->interval;
    return MG_ERROR_OK;
}

static double weight_at_or_below(const struct hang_ecdf *f, size_t level)
{
    double w = 0.0;
    for (size_t x = 0; x <= level && x < f->nlevels; x++)
        w += f->weight[x];
    return w;
}

/* Growth of n after which the exact bound is computed again. A bound computed at a smaller n with
 * the same hits is larger, so using it meanwhile only makes K larger (safe); a new hit at or below
 * t or fewer samples (re-weighting) recompute it at once. The bound costs a bisection on the
 * incomplete beta function; this keeps it off the per-observation path. */
static const double exact_regrowth = 1.1;

/* The exact bound (hang_ladder_exact) if it is under cap, recomputed only when its cached value
 * could be unsafe or stale by more than exact_regrowth. It is cached without a cap: the level with
 * the smallest K has the smallest q, so a cap only decides whether it is used. */
static const struct hang_ladder_choice *exact_choice(struct hang_model *m, double cap)
{
    struct exact_cache *x = &m->exact;
    double n = m->ecdf.total;
    bool recompute = !x->computed || n < x->n || n >= x->n * exact_regrowth ||
                     (x->found && weight_at_or_below(&m->ecdf, x->choice.threshold) != x->hits);
    if (recompute) {
        x->computed = true;
        x->n = n;
        x->found = hang_ladder_exact(&m->ladder, &m->ecdf, m->p.alpha, nextafter(1.0, 0.0),
                                     &x->choice);
        if (x->found)
            x->hits = weight_at_or_below(&m->ecdf, x->choice.threshold);
    }
    return x->found && x->choice.q <= cap ? &x->choice : NULL;
}

/* Re-derives the threshold, q and K from the ECDF. */
static void refresh(struct hang_model *m)
{
    (void)hang_ladder_select(&m->ladder, &m->ecdf, &m->choice);
    m->needed = 0;
    unsigned k;
    /* Before the ladder is justified the bound must reach the ladder's loosest q; after, it must
     * beat the ladder. */
    double cap = m->choice.built ? fmax(m->p.tolerances[0], m->choice.q) : m->p.tolerances[0];
    const struct hang_ladder_choice *exact = m->p.exact_bound ? exact_choice(m, cap) : NULL;
    if (exact) {
        unsigned k_ladder, k_exact;
        if (!m->choice.built || hang_ladder_k(m->choice.q, m->p.alpha, &k_ladder) != MG_ERROR_OK ||
            (hang_ladder_k(exact->q, m->p.alpha, &k_exact) == MG_ERROR_OK && k_exact < k_ladder))
            m->choice = *exact;
    }
    if (m->choice.built && m->choice.q < 1.0 &&
        hang_ladder_k(m->choice.q, m->p.alpha, &k) == MG_ERROR_OK && k <= m->p.max_suspicions)
        m->needed = k;
}

/* The runs test on a full window of fresh samples: stop testing once random (or once I is at its
 * cap); otherwise grow I and give every old sample weight old I / new I (paper §3.1: samples at
 * interval I are twice as many as at 2I). The window holds runs_every >= 2 finite values and the
 * factor is in (0, 1), so neither call below can fail. */
static void runs_check(struct hang_model *m, double *weight)
{
    struct hang_runs_result r;
    (void)hang_runs_test(m->window, m->nwindow, &m->p.runs, &r);
    m->nwindow = 0;
    if ((r.n1 <= 1 || r.n0 <= 1) && !m->p.degenerate_grows)
        return;
    if (r.random || m->interval >= m->p.interval_max) {
        m->random_ok = r.random;
        m->capped = !r.random;
        m->testing_done = true;
        return;
    }
    double grown = fmin(m->interval * m->p.interval_growth, m->p.interval_max);
    double factor = m->interval / grown;
    m->interval = grown;
    m->doublings++;
    *weight *= factor;
    (void)hang_ecdf_scale(&m->ecdf, factor);
}

/* Adds one sample with *weight; a weight below 1 marks a sample taken before I last grew, which
 * belongs to no runs-test window. level <= c and weight > 0, so the ECDF accepts it. */
static void commit(struct hang_model *m, size_t level, double *weight)
{
    (void)hang_ecdf_add(&m->ecdf, level, *weight);
    m->samples++;
    if (m->testing_done || *weight < 1.0)
        return;
    m->window[m->nwindow++] = (double)level / (double)m->c;
    if (m->nwindow == m->p.runs_every)
        runs_check(m, weight);
}

/* Commits the held suspicions in order and ends their run; returns the weight for what follows
 * (below 1 if I grew meanwhile). */
static double commit_pending(struct hang_model *m)
{
    unsigned held = m->streak;
    m->streak = 0;
    double weight = 1.0;
    for (unsigned i = 0; i < held; i++)
        commit(m, m->pending[i], &weight);
    return weight;
}

/* A non-suspicion ends the current run of suspicions: the frozen samples go into the model first,
 * in order, then this one; any re-weighting therefore happens with the suspicion count at zero. */
static void healthy(struct hang_model *m, size_t level)
{
    double weight = commit_pending(m);
    commit(m, level, &weight);
    refresh(m);
}

int hang_model_observe(struct hang_model *m, size_t out_mpi, double now, struct hang_verdict *v)
{
    if (!m || !v || out_mpi > m->c || !isfinite(now) || now < m->last_now)
        return MG_ERROR_EINVAL;
    if (m->hang)
        return MG_ERROR_ESTATE;
    m->last_now = now;
    m->observations++;
    if (m->needed > 0 && out_mpi <= m->choice.threshold) {
        if (m->streak == 0)
            m->streak_start = now;
        m->pending[m->streak++] = (uint32_t)out_mpi;
        m->hang = m->streak >= m->needed;
        *v = (struct hang_verdict){m->hang ? HANG_VERDICT_HANG : HANG_VERDICT_SUSPICIOUS, m->streak,
                                   m->needed};
    } else {
        healthy(m, out_mpi);
        *v = (struct hang_verdict){m->choice.built ? HANG_VERDICT_NORMAL : HANG_VERDICT_BUILDING, 0,
                                   m->needed};
    }
    hang_sets_advance(m->sets, m->streak == 0, &m->rng);
    return MG_ERROR_OK;
}

int hang_model_resume(struct hang_model *m)
{
    if (!m)
        return MG_ERROR_EINVAL;
    if (!m->hang)
        return MG_ERROR_ESTATE;
    m->hang = false;
    m->streak = 0;
    return MG_ERROR_OK;
}

int hang_model_state(const struct hang_model *m, struct hang_model_state *s)
{
    if (!m || !s)
        return MG_ERROR_EINVAL;
    *s = (struct hang_model_state){
        .interval = m->interval,
        .interval_capped = m->capped,
        .random = m->random_ok,
        .doublings = m->doublings,
        .observations = m->observations,
        .samples = m->samples,
        .sample_size = m->ecdf.total,
        .built = m->choice.built,
        .exact = m->choice.exact,
        .p_hat = m->choice.p_hat,
        .e = m->choice.e,
        .q = m->choice.q,
        .threshold = m->choice.built ? (double)m->choice.threshold / (double)m->c : 0.0,
        .needed = m->needed,
        .suspicions = m->streak,
        .streak_start = m->streak_start,
        .set_index = hang_sets_index(m->sets),
        .set_size = m->c,
        .switches = hang_sets_switches(m->sets),
        .reduced = hang_sets_reduced(m->sets),
        .single_set = hang_sets_single(m->sets),
        .hang = m->hang,
    };
    return MG_ERROR_OK;
}
