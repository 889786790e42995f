/* Focus on the coverage frontier when the solution leaves it free (focus_frontier.h;
 * docs/design/concolic-solver.md §6.1). */
#include "focus_frontier.h"

#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

void focus_frontier_free(focus_frontier *f)
{
    for (uint32_t r = 0; r < f->nranks; r++) {
        coverage_set_free(&f->reached[r]);
        coverage_set_free(&f->examined[r]);
    }
    free(f->reached);
    free(f->examined);
    memset(f, 0, sizeof *f);
}

/* Makes room for ranks 0..rank. */
static int grow(focus_frontier *f, uint32_t rank)
{
    if (rank < f->nranks)
        return 0;
    size_t n = (size_t)rank + 1;
    coverage_set *a = realloc(f->reached, n * sizeof *a);
    if (!a)
        return MG_ERROR_ENOMEM;
    f->reached = a;
    coverage_set *b = realloc(f->examined, n * sizeof *b);
    if (!b)
        return MG_ERROR_ENOMEM;
    f->examined = b;
    for (uint32_t r = f->nranks; r < n; r++) {
        coverage_set_init(&f->reached[r]);
        coverage_set_init(&f->examined[r]);
    }
    f->nranks = (uint32_t)n;
    return 0;
}

int focus_frontier_observe(focus_frontier *f, uint32_t rank, const coverage_set *arms,
                           int was_focus)
{
    if (rank == UINT32_MAX)
        return MG_ERROR_EINVAL;
    int rc = grow(f, rank);
    if (!rc)
        rc = coverage_set_merge(&f->reached[rank], arms);
    if (!rc && was_focus)
        rc = coverage_set_merge(&f->examined[rank], arms);
    return rc;
}

uint32_t focus_frontier_score(const focus_frontier *f, const coverage_set *covered, uint32_t rank)
{
    uint32_t score = 0;
    if (rank >= f->nranks)
        return 0;
    const coverage_set *seen = &f->reached[rank];
    for (size_t i = 0; i < seen->n; i++) {
        uint32_t arm = seen->arms[i];
        score += !coverage_set_contains(covered, arm ^ 1u) &&
                 !coverage_set_contains(&f->examined[rank], arm);
    }
    return score;
}

uint32_t focus_frontier_pick(const focus_frontier *f, const coverage_set *covered, uint32_t np,
                             uint32_t prev)
{
    uint32_t best = prev < np ? prev : 0, best_score = focus_frontier_score(f, covered, best);
    for (uint32_t r = 0; r < np; r++) {
        uint32_t s = focus_frontier_score(f, covered, r);
        if (s > best_score) {
            best = r;
            best_score = s;
        }
    }
    return best;
}
