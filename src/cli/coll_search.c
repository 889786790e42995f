/* The tester's two-step search and the verification; see coll_search.h. */
#include "coll_search.h"

#include "mg_error.h"

static int failed(coll_outcome o)
{
    return o == COLL_WRONG || o == COLL_CRASH || o == COLL_HANG;
}

static double next_limit(const coll_search_opts *o, double elapsed)
{
    double t = 10.0 * elapsed;
    return t > o->min_limit ? t : o->min_limit;
}

int coll_search_bound(coll_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                      const coll_search_opts *o, coll_bound *out)
{
    if (!test || !o || !out || o->f == 0 || o->n_max == 0)
        return MG_EINVAL;
    *out = (coll_bound){COLL_SKIPPED, 0, 0, 0, COLL_PASS, o->first_limit, 0};
    double limit = o->first_limit, elapsed = 0;
    uint64_t passed = o->n_passed;
    uint64_t n = passed == 0 ? 1 : 2 * passed > o->n_max ? o->n_max : 2 * passed;
    coll_outcome r = COLL_PASS;
    /* Step 1: double n until a failure, n_max, or a test that cannot run. */
    while (passed < o->n_max) {
        r = test(ctx, s, P, n, limit, &elapsed);
        out->tests++;
        if (r != COLL_PASS)
            break;
        passed = n;
        limit = next_limit(o, elapsed);
        n = 2 * n > o->n_max ? o->n_max : 2 * n;
    }
    out->limit = limit;
    out->failure = r;
    out->n_safe = passed;
    if (passed == 0)
        return 0; /* SKIPPED: n = 1 failed or could not run */
    if (!failed(r)) {
        out->status = COLL_UNBOUNDED;
        return 0;
    }
    /* Step 2: refine between n'_s and the failing 2 n'_s in steps of Δ. */
    uint64_t delta = passed / o->f ? passed / o->f : 1;
    out->status = COLL_BOUNDED;
    out->delta = delta;
    out->n_fail = n;
    for (uint64_t m = passed + delta; m < n; m += delta) {
        coll_outcome q = test(ctx, s, P, m, limit, &elapsed);
        out->tests++;
        if (q != COLL_PASS) {
            if (failed(q)) {
                out->n_fail = m;
                out->failure = q;
            }
            break;
        }
        out->n_safe = m;
    }
    return 0;
}

/* 1 pass, 0 fail, -1 could not run. */
static int try(coll_test_fn *test, void *ctx, uint64_t s, uint64_t P, uint64_t n, double limit,
               int *tests)
{
    double elapsed;
    if (n == 0)
        return 1;
    coll_outcome r = test(ctx, s, P, n, limit, &elapsed);
    ++*tests;
    return r == COLL_PASS ? 1 : failed(r) ? 0 : -1;
}

uint64_t coll_search_verify(coll_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                            const coll_bound *b, int *complete, int *tests)
{
    uint64_t half = b->n_safe / 2, half_fail = (b->n_safe + b->delta) / 2;
    *complete = 1;
    int r = try(test, ctx, s, P, half_fail, b->limit, tests);
    if (r == 0) {
        int h = try(test, ctx, s, P, half, b->limit, tests);
        *complete = h >= 0;
        return h == 1 ? half : 0;
    }
    if (r < 0) {
        *complete = 0;
        return 0;
    }
    int full = try(test, ctx, s, P, b->n_safe, b->limit, tests);
    int over = full == 1 ? try(test, ctx, s, P, b->n_safe + b->delta, b->limit, tests) : 1;
    *complete = full >= 0 && over >= 0;
    return full == 1 && over == 0 ? b->n_safe : 0;
}
