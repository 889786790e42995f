/* The ParaStack hang model (§3.1-3.3; docs/design/hang.md "The model"): random sampling of the
 * number of OUT_MPI ranks among C sampled ones, runs tests that grow the sampling interval until
 * the samples are random, a weighted ECDF of S_crout, the (p^, n^) ladder, and a hang after
 * ceil(log_q alpha) consecutive suspicions. No I/O, no clock: the caller sleeps next_delay(),
 * probes the ranks of hang_model_sampled() and passes the count and its own time to
 * hang_model_observe(). An object is not thread-safe; distinct objects are independent. */
#ifndef HANG_MODEL_H
#define HANG_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hang_ladder.h"
#include "hang_runs.h"
#include "hang_verdict.h"

struct hang_model_params {
    double alpha;           /* significance: a hang is reported at confidence 1 - alpha */
    size_t set_size;        /* C: ranks per sampled set */
    size_t switch_every;    /* observations on one set before switching to the other */
    double interval_init;   /* initial mean sampling interval I, seconds */
    double interval_max;    /* cap on I */
    double interval_growth; /* I grows by this after a failed runs test; old samples: 1/this */
    size_t runs_every;      /* a runs test on every this many fresh samples, until one passes */
    bool degenerate_grows;  /* a window with at most one sample on one side of its mean fails the
                               test and grows I (paper: no non-rejection region exists); false:
                               it is discarded, since a (nearly) constant series stays so at any
                               interval and growing I only multiplies the detection delay */
    struct hang_runs_params runs;
    double tolerances[HANG_LADDER_MAX_LEVELS]; /* the ladder's e, largest first */
    size_t ntolerances;
    double ladder_z;     /* normal quantile of the ladder's confidence interval */
    bool exact_bound;    /* also the exact binomial bound (hang_ladder_exact); the smaller K wins */
    double min_expected; /* rule of thumb n p^ > this for the normal approximation */
    unsigned max_suspicions; /* a K above this is treated as "cannot reach the confidence" */
};

/* Paper defaults: alpha 0.001, C 10, switch every 30, I 400 ms doubling (capped at 6.4 s, our
 * choice: 4 doublings), runs test every 16 samples at 0.05, e = 0.3 0.2 0.1 0.05, z 1.96, rule of
 * thumb 5, at most 1000 suspicions; ours: a degenerate window does not grow I, and the exact
 * bound. */
void hang_model_params_default(struct hang_model_params *p);

struct hang_model;

/* Creates a model for ranks 0..nranks-1 with its own generator seeded by seed (the only source of
 * randomness). 0 ok; MG_ERROR_EINVAL on a NULL pointer, nranks == 0 or > INT_MAX, or a parameter
 * out of range; MG_ERROR_ENOMEM. *out is set only on success; destroy it with hang_model_destroy.
 */
int hang_model_create(const struct hang_model_params *p, size_t nranks, uint64_t seed,
                      struct hang_model **out);
void hang_model_destroy(struct hang_model *m);

/* The ranks to probe for the next observation; *ranks is owned by the model and valid until the
 * next hang_model_observe or destroy. 0 ok; MG_ERROR_EINVAL on NULL. */
int hang_model_sampled(const struct hang_model *m, const int **ranks, size_t *count);

/* Draws the delay before the next sample: uniform on [I/2, 3I/2). 0 ok; MG_ERROR_EINVAL on NULL. */
int hang_model_next_delay(struct hang_model *m, double *delay);

/* Feeds one observation: out_mpi of the sampled ranks were OUT_MPI at time now (seconds, any
 * origin, non-decreasing). 0 ok with *v set; MG_ERROR_EINVAL on NULL, out_mpi above the set size or
 * a time that goes back (state unchanged); MG_ERROR_ESTATE after a HANG verdict until
 * hang_model_resume. */
int hang_model_observe(struct hang_model *m, size_t out_mpi, double now, struct hang_verdict *v);

/* After a HANG verdict that the caller found to be a transient slowdown (hang_diag): watching
 * resumes with the model as it was, the suspicions' samples dropped (paper §3.3). They are not
 * learnt: a verification that sees a rank's last calls at the onset of a real hang clears it, and
 * learning its samples raised p^ at the hang's own level, so that each later detection needed more
 * suspicions and, once q reached 1, none came (a CI run watched such a deadlock for 6 minutes). A
 * slow phase that recurs is suspected again and dismissed again by verification, which decides.
 * 0 ok; MG_ERROR_EINVAL on NULL; MG_ERROR_ESTATE when no hang is pending. */
int hang_model_resume(struct hang_model *m);

struct hang_model_state {
    double interval;      /* current mean sampling interval I */
    bool interval_capped; /* I reached interval_max while the samples still looked non-random */
    bool random;          /* a runs test passed: I is final */
    size_t doublings;     /* how many times I grew */
    size_t observations;  /* every observation fed */
    size_t samples;       /* observations committed to the model */
    double sample_size;   /* weighted sample size n (old samples count less after I grew) */
    bool built;           /* a suspicion threshold is justified */
    bool exact;           /* by the exact binomial bound (hang_ladder_select), not the ladder */
    double p_hat;         /* p^_m' */
    double e;             /* its tolerance */
    double q;             /* p^ + e */
    double threshold;     /* t: a suspicion is S_crout <= t */
    unsigned needed;      /* K (0 while building or when q >= 1 or K > max_suspicions) */
    unsigned suspicions;  /* current run of consecutive suspicions (model frozen while > 0) */
    double streak_start;  /* time of the first suspicion of the current run */
    size_t set_index;     /* which sampled set is current (0 or 1) */
    size_t set_size;      /* ranks per set (below C when ranks are few) */
    size_t switches;      /* set switches so far */
    bool reduced;         /* fewer than 2C ranks: smaller sets, redrawn at every switch */
    bool single_set;      /* one rank only: no second set to protect against the corner case */
    bool hang;            /* a HANG verdict is pending */
};

/* A read-only snapshot for progress display and the report. 0 ok; MG_ERROR_EINVAL on NULL. */
int hang_model_state(const struct hang_model *m, struct hang_model_state *s);

#endif
