/* Weighted empirical CDF over the discrete S_crout levels (ParaStack §3.1; docs/design/hang.md). */
#include "hang_ecdf.h"

#include <math.h>
#include <stdlib.h>

#include "mg_error.h"

int hang_ecdf_init(struct hang_ecdf *e, size_t nlevels)
{
    if (!e || nlevels == 0)
        return MG_ERROR_EINVAL;
    double *w = calloc(nlevels, sizeof *w);
    if (!w)
        return MG_ERROR_ENOMEM;
    e->nlevels = nlevels;
    e->weight = w;
    e->total = 0.0;
    return MG_ERROR_OK;
}

void hang_ecdf_free(struct hang_ecdf *e)
{
    if (!e)
        return;
    free(e->weight);
    e->weight = NULL;
    e->nlevels = 0;
    e->total = 0.0;
}

int hang_ecdf_add(struct hang_ecdf *e, size_t level, double weight)
{
    if (!e || level >= e->nlevels || !(weight > 0.0) || !isfinite(weight))
        return MG_ERROR_EINVAL;
    e->weight[level] += weight;
    e->total += weight;
    return MG_ERROR_OK;
}

int hang_ecdf_scale(struct hang_ecdf *e, double factor)
{
    if (!e || !(factor > 0.0 && factor <= 1.0))
        return MG_ERROR_EINVAL;
    for (size_t i = 0; i < e->nlevels; i++)
        e->weight[i] *= factor;
    e->total *= factor;
    return MG_ERROR_OK;
}

double hang_ecdf_at(const struct hang_ecdf *e, size_t level)
{
    if (e->total <= 0.0)
        return 0.0;
    if (level + 1 >= e->nlevels)
        return 1.0;
    double below = 0.0;
    for (size_t i = 0; i <= level; i++)
        below += e->weight[i];
    return below / e->total;
}

int hang_ecdf_has(const struct hang_ecdf *e, size_t level)
{
    return level < e->nlevels && e->weight[level] > 0.0;
}
