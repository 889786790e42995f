/* xoshiro256** with splitmix64 seeding (Blackman and Vigna): fast, small state, good statistics. */
#include "mg_rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void mg_rng_seed(mg_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

uint64_t mg_rng_next(mg_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double mg_rng_uniform(mg_rng *rng)
{
    return (double)(mg_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t mg_rng_below(mg_rng *rng, uint64_t bound)
{
    if (bound == 0)
        return 0;
    /* Reject the top sliver of the range that would make some results more likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = mg_rng_next(rng);
    while (x >= limit);
    return x % bound;
}

double mg_rng_normal(mg_rng *rng)
{
    double u1 = mg_rng_uniform(rng);
    double u2 = mg_rng_uniform(rng);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
