/* The fixed timeout baseline of ParaStack Table 1: sample every I seconds and report a hang after K
 * consecutive low observations (S_crout <= a fixed fraction). Same sets, observations and verdicts
 * as hang_model.h, so both can watch the same run. An object is not thread-safe. */
#ifndef HANG_TIMEOUT_H
#define HANG_TIMEOUT_H

#include <stddef.h>
#include <stdint.h>

#include "hang_verdict.h"

struct hang_timeout_params {
    double interval;     /* I, seconds, fixed */
    unsigned k;          /* K, low observations in a row that make a hang */
    double low_fraction; /* an observation is low when S_crout <= this */
    size_t set_size;     /* C */
    size_t switch_every; /* observations on one set before switching */
};

/* Table 1's (I2, K2) = (400 ms, 10); low means S_crout <= 0.1 (the paper leaves the threshold
 * unstated; 0.1 lets a computation hang with the faulty rank in the set still count); C 10;
 * switch every 30. */
void hang_timeout_params_default(struct hang_timeout_params *p);

struct hang_timeout;

/* 0 ok; MG_ERROR_EINVAL on NULL, nranks == 0 or > INT_MAX, interval <= 0, k == 0, low_fraction
 * outside [0, 1), set_size or switch_every 0; MG_ERROR_ENOMEM. *out set only on success. */
int hang_timeout_create(const struct hang_timeout_params *p, size_t nranks, uint64_t seed,
                        struct hang_timeout **out);
void hang_timeout_destroy(struct hang_timeout *t);

/* As hang_model_sampled. */
int hang_timeout_sampled(const struct hang_timeout *t, const int **ranks, size_t *count);
/* Always the fixed I. 0 ok; MG_ERROR_EINVAL on NULL. */
int hang_timeout_next_delay(const struct hang_timeout *t, double *delay);
/* As hang_model_observe; the verdict is never BUILDING and needed is always K. */
int hang_timeout_observe(struct hang_timeout *t, size_t out_mpi, double now,
                         struct hang_verdict *v);
/* As hang_model_resume. */
int hang_timeout_resume(struct hang_timeout *t);

#endif
