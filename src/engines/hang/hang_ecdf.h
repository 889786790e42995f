/* Weighted empirical CDF of S_crout over its discrete levels 0/c .. c/c (ParaStack §3.1
 * "Suspicion of hang"; the weights implement the halving of old samples when I doubles).
 * The struct is caller-owned; init allocates, free releases. Not thread-safe per object. */
#ifndef HANG_ECDF_H
#define HANG_ECDF_H

#include <stddef.h>

struct hang_ecdf {
    size_t nlevels; /* levels 0 .. nlevels-1 (number of sampled ranks OUT_MPI) */
    double *weight; /* weight per level */
    double total;   /* sum of weights: the (weighted) sample size n */
};

/* Allocates nlevels empty levels. 0 ok; MG_ERROR_EINVAL on NULL or nlevels == 0; MG_ERROR_ENOMEM (e
 * untouched).
 */
int hang_ecdf_init(struct hang_ecdf *e, size_t nlevels);
/* Releases the levels; e may then be initialised again. NULL and a zeroed struct are accepted. */
void hang_ecdf_free(struct hang_ecdf *e);
/* Adds a sample at level with the given weight. MG_ERROR_EINVAL when level >= nlevels or weight <=
 * 0. */
int hang_ecdf_add(struct hang_ecdf *e, size_t level, double weight);
/* Multiplies every weight by factor (0 < factor <= 1); MG_ERROR_EINVAL otherwise. */
int hang_ecdf_scale(struct hang_ecdf *e, double factor);
/* F_n(level) = weight of samples <= level / total; 0 when empty, 1 for level >= nlevels-1. */
double hang_ecdf_at(const struct hang_ecdf *e, size_t level);
/* Whether any sample sits exactly at level (the ECDF's support). */
int hang_ecdf_has(const struct hang_ecdf *e, size_t level);

#endif
