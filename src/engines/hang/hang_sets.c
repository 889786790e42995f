/* Two disjoint random rank sets with alternation (ParaStack §3.3; docs/design/hang.md "The model").
 */
#include "hang_sets.h"

#include <limits.h>
#include <stdlib.h>

#include "mg_error.h"

/* Below this many ranks per sampled rank a full shuffle is cheap; above it, rejection sampling of
 * 2c distinct ranks avoids touching every rank of a 10^6-rank job. */
static const size_t shuffle_factor = 4;

struct hang_sets {
    size_t nranks;
    size_t size;  /* ranks per set */
    size_t nsets; /* 1 or 2 */
    size_t switch_every;
    size_t observed; /* observations on the current set */
    size_t current;
    size_t switches;
    bool reduced;
    int *ranks;   /* nsets * size ranks: set k is ranks[k*size .. (k+1)*size) */
    int *scratch; /* nranks ints when the shuffle path is used, else NULL */
};

static bool taken(const int *ranks, size_t n, int r)
{
    for (size_t i = 0; i < n; i++) {
        if (ranks[i] == r)
            return true;
    }
    return false;
}

static void draw(struct hang_sets *s, mg_rng *rng)
{
    size_t need = s->nsets * s->size;
    if (s->scratch) {
        for (size_t i = 0; i < s->nranks; i++)
            s->scratch[i] = (int)i;
        for (size_t i = 0; i < need; i++) {
            size_t j = i + (size_t)mg_rng_below(rng, s->nranks - i);
            int t = s->scratch[i];
            s->scratch[i] = s->scratch[j];
            s->scratch[j] = t;
            s->ranks[i] = s->scratch[i];
        }
        return;
    }
    for (size_t i = 0; i < need; i++) {
        int r;
        do
            r = (int)mg_rng_below(rng, s->nranks);
        while (taken(s->ranks, i, r));
        s->ranks[i] = r;
    }
}

int hang_sets_create(size_t nranks, size_t c, size_t switch_every, mg_rng *rng,
                     struct hang_sets **out)
{
    if (!rng || !out || nranks == 0 || nranks > INT_MAX || c == 0 || switch_every == 0)
        return MG_ERROR_EINVAL;
    struct hang_sets *s = calloc(1, sizeof *s);
    if (!s)
        return MG_ERROR_ENOMEM;
    s->nranks = nranks;
    s->nsets = nranks >= 2 ? 2 : 1;
    s->size = nranks >= 2 ? (nranks / 2 < c ? nranks / 2 : c) : 1;
    s->reduced = s->size < c || s->nsets == 1;
    s->switch_every = switch_every;
    s->ranks = malloc(s->nsets * s->size * sizeof *s->ranks);
    if (nranks <= shuffle_factor * s->nsets * s->size)
        s->scratch = malloc(nranks * sizeof *s->scratch);
    if (!s->ranks || (nranks <= shuffle_factor * s->nsets * s->size && !s->scratch)) {
        hang_sets_destroy(s);
        return MG_ERROR_ENOMEM;
    }
    draw(s, rng);
    *out = s;
    return MG_ERROR_OK;
}

void hang_sets_destroy(struct hang_sets *s)
{
    if (!s)
        return;
    free(s->ranks);
    free(s->scratch);
    free(s);
}

void hang_sets_members(const struct hang_sets *s, size_t index, const int **ranks, size_t *count)
{
    bool exists = index < s->nsets;
    *ranks = s->ranks + (exists ? index * s->size : 0);
    *count = exists ? s->size : 0;
}

void hang_sets_current(const struct hang_sets *s, const int **ranks, size_t *count)
{
    hang_sets_members(s, s->current, ranks, count);
}

size_t hang_sets_index(const struct hang_sets *s)
{
    return s->current;
}

size_t hang_sets_switches(const struct hang_sets *s)
{
    return s->switches;
}

bool hang_sets_reduced(const struct hang_sets *s)
{
    return s->reduced;
}

bool hang_sets_single(const struct hang_sets *s)
{
    return s->nsets == 1;
}

void hang_sets_advance(struct hang_sets *s, bool may_switch, mg_rng *rng)
{
    s->observed++;
    if (s->observed < s->switch_every || !may_switch || s->nsets == 1)
        return;
    s->observed = 0;
    s->current = 1 - s->current;
    s->switches++;
    if (s->reduced)
        draw(s, rng);
}
