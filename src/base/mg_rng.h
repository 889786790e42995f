/* A small, seedable pseudo-random generator (xoshiro256**) for engines and simulators, so every
 * random decision is reproducible from a seed the caller chooses and records. */
#ifndef MG_RNG_H
#define MG_RNG_H

#include <stdint.h>

typedef struct mg_rng {
    uint64_t s[4];
} mg_rng;

/* Seeds the generator; any seed, including 0, gives a valid non-degenerate state. */
void mg_rng_seed(mg_rng *rng, uint64_t seed);
/* Next 64 random bits. */
uint64_t mg_rng_next(mg_rng *rng);
/* Uniform double in [0, 1). */
double mg_rng_uniform(mg_rng *rng);
/* Uniform integer in [0, bound) for bound > 0, without modulo bias; returns 0 when bound is 0. */
uint64_t mg_rng_below(mg_rng *rng, uint64_t bound);
/* Standard normal deviate (Box-Muller, one value per call). */
double mg_rng_normal(mg_rng *rng);

#endif
