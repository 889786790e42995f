/* Unit tests of the two disjoint sampled sets and their alternation (ParaStack §3.3). */
#include <stdlib.h>

#include "hang_sets.h"
#include "mg_error.h"
#include "mg_test.h"

/* Both sets valid: the expected size, in range, no rank twice across the pair. */
static int pair_ok(const struct hang_sets *s, size_t nranks, size_t size)
{
    const int *a, *b;
    size_t na, nb;
    hang_sets_members(s, 0, &a, &na);
    hang_sets_members(s, 1, &b, &nb);
    if (na != size || nb != size)
        return 0;
    for (size_t i = 0; i < 2 * size; i++) {
        int x = i < size ? a[i] : b[i - size];
        if (x < 0 || (size_t)x >= nranks)
            return 0;
        for (size_t j = i + 1; j < 2 * size; j++) {
            if (x == (j < size ? a[j] : b[j - size]))
                return 0;
        }
    }
    return 1;
}

static void two_disjoint_sets_alternate_every_30(void)
{
    static const size_t sizes[] = {1000000, 1000, 40, 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        mg_rng rng;
        mg_rng_seed(&rng, 7 + k);
        struct hang_sets *s;
        MG_CHECK_INT(hang_sets_create(sizes[k], 10, 30, &rng, &s), MG_ERROR_OK);
        MG_CHECK(pair_ok(s, sizes[k], 10));
        MG_CHECK(!hang_sets_reduced(s) && !hang_sets_single(s));
        const int *first;
        size_t n;
        hang_sets_current(s, &first, &n);
        int r0 = first[0];
        for (int i = 0; i < 29; i++)
            hang_sets_advance(s, true, &rng);
        MG_CHECK_INT(hang_sets_index(s), 0);
        hang_sets_advance(s, true, &rng);
        MG_CHECK_INT(hang_sets_index(s), 1);
        MG_CHECK_INT(hang_sets_switches(s), 1);
        for (int i = 0; i < 30; i++)
            hang_sets_advance(s, true, &rng);
        MG_CHECK_INT(hang_sets_index(s), 0);
        const int *again;
        hang_sets_current(s, &again, &n);
        MG_CHECK_INT(again[0], r0); /* full-size sets are kept for the whole run */
        hang_sets_destroy(s);
    }
}

static void switch_waits_while_not_allowed(void)
{
    mg_rng rng;
    mg_rng_seed(&rng, 1);
    struct hang_sets *s;
    MG_CHECK_INT(hang_sets_create(100, 10, 30, &rng, &s), MG_ERROR_OK);
    for (int i = 0; i < 45; i++)
        hang_sets_advance(s, i < 20, &rng);
    MG_CHECK_INT(hang_sets_index(s), 0);
    hang_sets_advance(s, true, &rng);
    MG_CHECK_INT(hang_sets_index(s), 1);
    /* the count restarts at the switch */
    for (int i = 0; i < 29; i++)
        hang_sets_advance(s, true, &rng);
    MG_CHECK_INT(hang_sets_index(s), 1);
    hang_sets_advance(s, true, &rng);
    MG_CHECK_INT(hang_sets_index(s), 0);
    hang_sets_destroy(s);
}

static void few_ranks_use_what_exists(void)
{
    mg_rng rng;
    mg_rng_seed(&rng, 3);
    struct hang_sets *s;
    MG_CHECK_INT(hang_sets_create(15, 10, 2, &rng, &s), MG_ERROR_OK);
    MG_CHECK(hang_sets_reduced(s) && !hang_sets_single(s));
    MG_CHECK(pair_ok(s, 15, 7));
    int seen[15] = {0};
    for (int i = 0; i < 200; i++) {
        const int *r;
        size_t n;
        hang_sets_current(s, &r, &n);
        MG_CHECK(pair_ok(s, 15, 7));
        for (size_t j = 0; j < n; j++)
            seen[r[j]] = 1;
        hang_sets_advance(s, true, &rng);
    }
    for (int i = 0; i < 15; i++)
        MG_CHECK_INT(seen[i], 1); /* redrawn at switches: every rank gets watched */
    hang_sets_destroy(s);

    MG_CHECK_INT(hang_sets_create(1, 10, 30, &rng, &s), MG_ERROR_OK);
    MG_CHECK(hang_sets_single(s) && hang_sets_reduced(s));
    const int *r;
    size_t n;
    hang_sets_members(s, 1, &r, &n);
    MG_CHECK_INT(n, 0);
    hang_sets_current(s, &r, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(r[0], 0);
    for (int i = 0; i < 100; i++)
        hang_sets_advance(s, true, &rng);
    MG_CHECK_INT(hang_sets_index(s), 0);
    MG_CHECK_INT(hang_sets_switches(s), 0);
    hang_sets_destroy(s);

    MG_CHECK_INT(hang_sets_create(2, 10, 30, &rng, &s), MG_ERROR_OK);
    hang_sets_current(s, &r, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(pair_ok(s, 2, 1));
    hang_sets_destroy(s);
}

static void same_seed_same_sets(void)
{
    mg_rng a, b;
    mg_rng_seed(&a, 99);
    mg_rng_seed(&b, 99);
    struct hang_sets *x, *y;
    MG_CHECK_INT(hang_sets_create(5000, 10, 30, &a, &x), MG_ERROR_OK);
    MG_CHECK_INT(hang_sets_create(5000, 10, 30, &b, &y), MG_ERROR_OK);
    const int *rx, *ry;
    size_t n;
    hang_sets_current(x, &rx, &n);
    hang_sets_current(y, &ry, &n);
    for (size_t i = 0; i < n; i++)
        MG_CHECK_INT(rx[i], ry[i]);
    hang_sets_destroy(x);
    hang_sets_destroy(y);
}

static void bad_arguments(void)
{
    mg_rng rng;
    mg_rng_seed(&rng, 1);
    struct hang_sets *s = NULL;
    MG_CHECK_INT(hang_sets_create(0, 10, 30, &rng, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_sets_create(10, 0, 30, &rng, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_sets_create(10, 10, 0, &rng, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_sets_create(10, 10, 30, NULL, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_sets_create(10, 10, 30, &rng, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_sets_create((size_t)1 << 40, 10, 30, &rng, &s), MG_ERROR_EINVAL);
    MG_CHECK(s == NULL);
    hang_sets_destroy(NULL);
}

int main(void)
{
    MG_RUN(two_disjoint_sets_alternate_every_30);
    MG_RUN(switch_waits_while_not_allowed);
    MG_RUN(few_ranks_use_what_exists);
    MG_RUN(same_seed_same_sets);
    MG_RUN(bad_arguments);
    MG_TEST_END();
}
