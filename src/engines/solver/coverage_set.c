/* Sorted-array set of covered branch arms (docs/design/concolic-solver.md §2). */
#include "coverage_set.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

void coverage_set_init(coverage_set *cs)
{
    cs->arms = NULL;
    cs->n = cs->cap = 0;
}

void coverage_set_free(coverage_set *cs)
{
    if (!cs)
        return;
    free(cs->arms);
    coverage_set_init(cs);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Merges two sorted unique arrays into a new allocation: one linear pass per batch. */
static int merge_sorted(coverage_set *cs, const uint32_t *add, size_t n)
{
    uint32_t *m = malloc((cs->n + n) * sizeof *m);
    if (!m)
        return MG_ERROR_ENOMEM;
    size_t i = 0, j = 0, k = 0;
    while (i < cs->n || j < n) {
        uint32_t v;
        if (j >= n || (i < cs->n && cs->arms[i] <= add[j]))
            v = cs->arms[i++];
        else
            v = add[j++];
        if (k == 0 || m[k - 1] != v)
            m[k++] = v;
    }
    free(cs->arms);
    cs->arms = m;
    cs->n = k;
    cs->cap = cs->n + n;
    return 0;
}

int coverage_set_add(coverage_set *cs, const uint32_t *arms, size_t n)
{
    if (n == 0)
        return 0;
    uint32_t *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return MG_ERROR_ENOMEM;
    memcpy(sorted, arms, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_u32);
    int rc = merge_sorted(cs, sorted, n);
    free(sorted);
    return rc;
}

int coverage_set_merge(coverage_set *dst, const coverage_set *src)
{
    return src->n ? merge_sorted(dst, src->arms, src->n) : 0;
}

int coverage_set_contains(const coverage_set *cs, uint32_t arm)
{
    return cs->n && bsearch(&arm, cs->arms, cs->n, sizeof arm, cmp_u32) != NULL;
}
