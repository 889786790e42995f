/* The tester's two-step search and the verification; see coll_search.h. */
#include "coll_search.h"

#include "mg_error.h"
#include "scaling_bounds.h"

#include <stdio.h>
#include <string.h>

static int failed(coll_search_outcome o)
{
    return o == COLL_SEARCH_WRONG || o == COLL_SEARCH_CRASH || o == COLL_SEARCH_HANG;
}

static double next_limit(const coll_search_opts *o, double elapsed)
{
    double t = 10.0 * elapsed;
    return t > o->min_limit ? t : o->min_limit;
}

int coll_search_bound(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                      const coll_search_opts *o, coll_search_result *out)
{
    if (!test || !o || !out || o->f == 0 || o->n_max == 0)
        return MG_ERROR_EINVAL;
    *out = (coll_search_result){COLL_SEARCH_SKIPPED, 0, 0, 0, COLL_SEARCH_PASS, o->first_limit, 0};
    double limit = o->first_limit, elapsed = 0;
    uint64_t passed = o->n_passed;
    uint64_t n = passed == 0 ? 1 : 2 * passed > o->n_max ? o->n_max : 2 * passed;
    coll_search_outcome r = COLL_SEARCH_PASS;
    /* Step 1: double n until a failure, n_max, or a test that cannot run. */
    while (passed < o->n_max) {
        r = test(ctx, s, P, n, limit, &elapsed);
        out->tests++;
        if (r != COLL_SEARCH_PASS)
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
        out->status = COLL_SEARCH_UNBOUNDED;
        return 0;
    }
    /* Step 2: refine between n'_s and the failing 2 n'_s in steps of Δ. */
    uint64_t delta = passed / o->f ? passed / o->f : 1;
    out->status = COLL_SEARCH_BOUNDED;
    out->delta = delta;
    out->n_fail = n;
    for (uint64_t m = passed + delta; m < n; m += delta) {
        coll_search_outcome q = test(ctx, s, P, m, limit, &elapsed);
        out->tests++;
        if (q != COLL_SEARCH_PASS) {
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

/* Where a verification runs its tests. */
typedef struct verify_point {
    coll_search_test_fn *test;
    void *ctx;
    uint64_t s, P;
    double limit;
    int *tests;
} verify_point;

/* 1 pass, 0 fail, -1 could not run. */
static int try(const verify_point *v, uint64_t n)
{
    double elapsed;
    if (n == 0)
        return 1;
    coll_search_outcome r = v->test(v->ctx, v->s, v->P, n, v->limit, &elapsed);
    ++*v->tests;
    return r == COLL_SEARCH_PASS ? 1 : failed(r) ? 0 : -1;
}

/* m when m passes and over fails, else 0; the one named first by over_first runs first, the other
 * only when the first one's outcome leaves m possible. *complete 0 when a test could not run. */
static uint64_t pass_then_fail(const verify_point *v, uint64_t m, uint64_t over, int over_first,
                               int *complete)
{
    int at_m, at_over;
    if (over_first) {
        at_over = try(v, over);
        at_m = at_over == 0 ? try(v, m) : 0;
    } else {
        at_m = try(v, m);
        at_over = at_m == 1 ? try(v, over) : 1;
    }
    *complete = at_m >= 0 && at_over >= 0;
    return at_m == 1 && at_over == 0 ? m : 0;
}

uint64_t coll_search_verify(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                            coll_search_verify_at at, const coll_search_result *b, int *complete,
                            int *tests)
{
    verify_point v = {test,
                      ctx,
                      at == COLL_SEARCH_VERIFY_2S ? 2 * s : s,
                      at == COLL_SEARCH_VERIFY_2P ? 2 * P : P,
                      b->limit,
                      tests};
    uint64_t half = b->n_safe / 2, lo, hi;
    int r = try(&v, (b->n_safe + b->delta) / 2);
    if (r == 1)
        return pass_then_fail(&v, b->n_safe, b->n_safe + b->delta, 0, complete);
    int h = r == 0 ? try(&v, half) : -1;
    /* Below n_s/2 at 2P: where a (P - 1) form's bound moves, n_s (P - 1)/(2P - 1), well under
     * n_s/2 at a small P. */
    if (h == 0 && at == COLL_SEARCH_VERIFY_2P &&
        scaling_bounds_pm1_window(b->n_safe, b->delta, P, &lo, &hi) == 0)
        return pass_then_fail(&v, lo, hi, 1, complete);
    *complete = h >= 0;
    return h == 1 ? half : 0;
}

void coll_search_classify(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                          uint64_t s_max, coll_search_result *b, scaling_bounds_class *cls,
                          scaling_bounds_form *form)
{
    int c2p = 0, c2s = 0, tests = 0;
    uint64_t v2p = coll_search_verify(test, ctx, s, P, COLL_SEARCH_VERIFY_2P, b, &c2p, &tests);
    uint64_t v2s = 2 * s <= s_max
                       ? coll_search_verify(test, ctx, s, P, COLL_SEARCH_VERIFY_2S, b, &c2s, &tests)
                       : 0;
    b->tests += tests;
    *cls = SCALING_BOUNDS_CLASS_X;
    *form = SCALING_BOUNDS_FORM_N;
    if (c2p && c2s)
        scaling_bounds_classify(b->n_safe, P, v2p, v2s, b->delta, cls, form);
}

const char *coll_search_outcome_name(coll_search_outcome o)
{
    static const char *const names[] = {"pass",
                                        "wrong bytes",
                                        "crash",
                                        "hang (time limit)",
                                        "skipped (memory)",
                                        "skipped (time budget)"};
    return o <= COLL_SEARCH_NO_TIME ? names[o] : "unknown";
}

coll_search_resume_kind coll_search_resume(const bounds_file_entry *entries, size_t n,
                                           const char *name, uint64_t s, uint64_t P, size_t *at,
                                           uint64_t *n_passed)
{
    size_t i = 0;
    while (i < n && (strcmp(entries[i].collective, name) != 0 || entries[i].type_size != s ||
                     entries[i].np != P)) {
        i++;
    }
    *at = i;
    *n_passed = i < n && strcmp(entries[i].status, "unbounded") == 0 ? entries[i].safe_count : 0;
    return i < n && strcmp(entries[i].status, "bounded") == 0 ? COLL_SEARCH_RESUME_KEPT
                                                              : COLL_SEARCH_RESUME_SEARCH;
}

void coll_search_entry(const char *name, uint64_t s, uint64_t P, const coll_search_result *b,
                       scaling_bounds_class cls, scaling_bounds_form form, bounds_file_entry *e)
{
    static const char *const statuses[] = {"bounded", "unbounded", "skipped"};
    *e = (bounds_file_entry){.type_size = s, .np = P, .safe_count = b->n_safe};
    snprintf(e->collective, sizeof e->collective, "%s", name);
    snprintf(e->status, sizeof e->status, "%s", statuses[b->status]);
    if (b->status == COLL_SEARCH_BOUNDED) {
        e->cls = cls == SCALING_BOUNDS_CLASS_G ? 'G' : 'X';
        snprintf(e->form, sizeof e->form, "%s", scaling_bounds_form_name(form));
    }
}
