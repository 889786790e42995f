/* The synthetic application of hang_sim (docs/design/hang.md "Proof": scale by simulation). */
#include "sim_app.h"

#include <math.h>

/* Keys that keep the hash streams of different quantities apart. */
enum { KEY_ITER = 1, KEY_IMBALANCE = 2, KEY_NOISE = 3 };
/* Communication time of an iteration varies uniformly in [1 - spread/2, 1 + spread/2] of its mean.
 */
static const double comm_spread = 0.5;

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Deterministic uniform [0, 1) from (seed, a, b): the per-rank, per-iteration randomness. */
static double sim_hash_unit(uint64_t seed, uint64_t a, uint64_t b)
{
    /* one finalizer over a Weyl-style combination: distinct (a, b) pairs land far apart */
    return (double)(mix(seed + a * 0x9e3779b97f4a7c15ULL + b * 0xd1b54a32d192ed03ULL) >> 11) *
           0x1.0p-53;
}

static uint64_t key(uint64_t k, uint64_t x)
{
    return (x << 2) | k;
}

static bool slowed(const struct sim_app_cursor *c, size_t rank)
{
    const struct sim_app_run *r = c->run;
    return c->slow && rank >= r->slow_first && rank < r->slow_first + r->slow_count;
}

static double rank_compute(const struct sim_app_cursor *c, size_t rank)
{
    const struct sim_app_run *r = c->run;
    const struct sim_app_profile *p = c->prof;
    double h = sim_hash_unit(r->seed, key(KEY_IMBALANCE, rank), 0);
    double u = sim_hash_unit(r->seed, key(KEY_NOISE, rank), c->iter);
    double w = c->cbase * (1.0 + p->imbalance * h) * (1.0 + p->noise * u);
    if (slowed(c, rank))
        return w * r->slow_factor;
    return fmin(w, c->maxw);
}

/* Draws the iteration that starts at c->start. The longest compute among P ranks is drawn from
 * the distribution of the largest of P uniforms (U^(1/P)) rather than computed over all ranks. */
static void setup(struct sim_app_cursor *c)
{
    const struct sim_app_run *r = c->run;
    c->prof = c->start >= r->phase_change ? &r->phase[1] : &r->phase[0];
    const struct sim_app_profile *p = c->prof;
    c->cbase = p->period * p->compute_frac / ((1.0 + p->imbalance) * (1.0 + p->noise));
    double top = pow(sim_hash_unit(r->seed, key(KEY_ITER, c->iter), 0), 1.0 / (double)r->nranks);
    c->maxw = c->cbase * (1.0 + p->imbalance) * (1.0 + p->noise * top);
    c->slow = c->start >= r->slow_start && c->start < r->slow_end;
    double longest = c->maxw;
    for (size_t i = 0; c->slow && i < r->slow_count; i++)
        longest = fmax(longest, rank_compute(c, r->slow_first + i));
    double comm = p->period * (1.0 - p->compute_frac) *
                  (1.0 - comm_spread / 2 +
                   comm_spread * sim_hash_unit(r->seed, key(KEY_ITER, c->iter), 1));
    c->len = longest + comm;
}

void sim_app_cursor_init(struct sim_app_cursor *c, const struct sim_app_run *run)
{
    *c = (struct sim_app_cursor){.run = run, .iter = 0, .start = 0.0};
    setup(c);
}

void sim_app_cursor_seek(struct sim_app_cursor *c, double t)
{
    while (c->start + c->len <= t) {
        c->start += c->len;
        c->iter++;
        setup(c);
    }
}

static int func_of(const struct sim_app_profile *p, uint64_t iter)
{
    return p->global_every && iter % p->global_every == 0 ? SIM_APP_FUNC_ALLREDUCE
                                                          : SIM_APP_FUNC_HALO;
}

static void healthy(const struct sim_app_cursor *c, size_t rank, double t, struct sim_app_rank *s)
{
    s->out_mpi = t - c->start < rank_compute(c, rank);
    s->cpu_rate = s->out_mpi && slowed(c, rank) && c->run->slow_denies_cpu
                      ? 1.0 / c->run->slow_factor
                      : 1.0;
    s->func = func_of(c->prof, s->out_mpi && c->iter > 0 ? c->iter - 1 : c->iter);
    s->counter = c->iter + (s->out_mpi ? 0 : 1);
}

static uint64_t distance(const struct sim_app_run *r, size_t a, size_t b)
{
    uint64_t d = 0;
    for (int k = 0; k < 3; k++) {
        size_t xa = a % r->dims[k], xb = b % r->dims[k];
        d += xa > xb ? xa - xb : xb - xa;
        a /= r->dims[k];
        b /= r->dims[k];
    }
    return d;
}

void sim_app_rank_state(const struct sim_app_cursor *c, size_t rank, double t,
                        struct sim_app_rank *s)
{
    const struct sim_app_run *r = c->run;
    healthy(c, rank, t, s);
    if (r->fault == SIM_APP_FAULT_NONE || t < r->fault_time)
        return;
    if (rank == r->fault_rank) {
        if (r->fault == SIM_APP_FAULT_COMPUTATION) {
            *s = (struct sim_app_rank){true, r->fault_func, r->fault_counter, 1.0};
        } else if (c->iter > r->fault_iter || !s->out_mpi) {
            *s = (struct sim_app_rank){false, func_of(c->prof, r->fault_iter), r->fault_iter + 1,
                                       1.0};
        }
        return;
    }
    /* A rank at stencil distance d waits for the faulty one d-1 iterations after it blocked, or at
     * the first global collective, whichever comes first. */
    uint64_t stuck = r->block_iter + distance(r, rank, r->fault_rank) - 1;
    if (stuck > r->global_iter)
        stuck = r->global_iter;
    if (c->iter > stuck)
        *s = (struct sim_app_rank){false, func_of(c->prof, stuck), stuck + 1, 1.0};
}

void sim_app_run_prepare(struct sim_app_run *run)
{
    unsigned nd = run->phase[0].grid_dims;
    double side = pow((double)run->nranks, 1.0 / (double)nd);
    size_t base = (size_t)floor(side + 0.5);
    if (base < 1)
        base = 1;
    for (unsigned k = 0; k < 3; k++)
        run->dims[k] = k + 1 < nd ? base : 1;
    size_t plane = 1;
    for (unsigned k = 0; k + 1 < nd; k++)
        plane *= run->dims[k];
    run->dims[nd - 1] = (run->nranks + plane - 1) / plane;
    if (run->fault == SIM_APP_FAULT_NONE)
        return;
    struct sim_app_cursor c;
    sim_app_cursor_init(&c, run);
    sim_app_cursor_seek(&c, run->fault_time);
    struct sim_app_rank s;
    healthy(&c, run->fault_rank, run->fault_time, &s);
    run->fault_iter = c.iter;
    run->fault_func = s.func;
    run->fault_counter = s.counter;
    /* A computation fault during the rank's own communication lets that call finish first. */
    run->block_iter = c.iter + (run->fault == SIM_APP_FAULT_COMPUTATION && !s.out_mpi ? 1 : 0);
    unsigned g = c.prof->global_every;
    run->global_iter = g ? (run->block_iter + g - 1) / g * g : UINT64_MAX;
}
