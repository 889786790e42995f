/* The tester's search without MPI: a synthetic library whose collective fails past a known trigger
 * (one per row of Table 4.9 and of its (P - 1) rows, and one that is not Class G) drives
 * coll_search_bound, coll_search_verify and coll_search_classify exactly as `mpiguard collectives`
 * does; the bound, Δ and the class found must be the trigger's. Also the memory estimate and its
 * refusal. */
#include "coll_memory.h"
#include "coll_search.h"
#include "mg_error.h"
#include "mg_memory.h"
#include "mg_test.h"
#include "scaling_bounds.h"

typedef struct fake {
    scaling_bounds_form form; /* fails when the form's product exceeds limit */
    uint64_t limit;
    int class_x; /* instead: fails past a bound that halves with neither s nor P */
    int tests;
    uint64_t first_n; /* the n of the first test */
} fake;

static coll_search_outcome fake_test(void *ctx, uint64_t s, uint64_t P, uint64_t n, double limit,
                              double *elapsed)
{
    fake *f = ctx;
    (void)limit;
    *elapsed = 0.01;
    if (f->tests++ == 0)
        f->first_n = n;
    if (f->class_x) /* Prob. 12's shape: 124M at (1, 48), 68M at (2, 48), 62M at (1, 96) */
        return n > (s == 1 && P == 48 ? 124u : s == 2 ? 68u : 62u) * 1000 ? COLL_SEARCH_CRASH : COLL_SEARCH_PASS;
    return scaling_bounds_form_value(f->form, s, n, P) > f->limit ? COLL_SEARCH_WRONG : COLL_SEARCH_PASS;
}

static const coll_search_opts opts = {16, 2147483647, 60, 10, 0};

static void search_and_classify(fake *f, uint64_t s, uint64_t P, coll_search_result *b, scaling_bounds_class *cls,
                                scaling_bounds_form *form)
{
    MG_CHECK_INT(coll_search_bound(fake_test, f, s, P, &opts, b), 0);
    int search_tests = b->tests;
    coll_search_classify(fake_test, f, s, P, 8, b, cls, form);
    MG_CHECK(b->tests > search_tests);
}

/* A bound at the largest type size: no verification at 2s, so even a Class G trigger is left X;
 * the verification at 2P still runs and counts its tests. */
static void test_classify_at_largest_type_size(void)
{
    uint64_t n_true = 1500000;
    fake f = {SCALING_BOUNDS_FORM_SNP, scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNP, 8, n_true, 48), 0, 0,
              0};
    coll_search_result b;
    MG_CHECK_INT(coll_search_bound(fake_test, &f, 8, 48, &opts, &b), 0);
    MG_CHECK_INT(b.status, COLL_SEARCH_BOUNDED);
    int search_tests = b.tests;
    scaling_bounds_class cls;
    scaling_bounds_form form;
    coll_search_classify(fake_test, &f, 8, 48, 8, &b, &cls, &form);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_X);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_N);
    MG_CHECK(b.tests > search_tests);
    MG_CHECK_STR(coll_search_outcome_name(COLL_SEARCH_HANG), "hang (time limit)");
    MG_CHECK_STR(coll_search_outcome_name(COLL_SEARCH_NO_TIME), "skipped (time budget)");
}

static void test_class_g_rows(void)
{
    /* Table 4.9's four rows at (1, 48), and the (P - 1) rows at (1, 4), where (P - 1)/(2P - 1) =
     * 3/7 keeps the bound at 2P clear of n_s/2; each trigger puts the failure between 2^20 and
     * 2^21. */
    static const struct {
        scaling_bounds_form form;
        uint64_t P;
    } rows[] = {{SCALING_BOUNDS_FORM_SNP, 48}, {SCALING_BOUNDS_FORM_NP, 48},   {SCALING_BOUNDS_FORM_SN, 48},
                {SCALING_BOUNDS_FORM_N, 48},   {SCALING_BOUNDS_FORM_SNPM1, 4}, {SCALING_BOUNDS_FORM_NPM1, 4}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint64_t n_true = 1500000;
        fake f = {rows[i].form, scaling_bounds_form_value(rows[i].form, 1, n_true, rows[i].P), 0, 0,
                  0};
        coll_search_result b;
        scaling_bounds_class cls;
        scaling_bounds_form form;
        search_and_classify(&f, 1, rows[i].P, &b, &cls, &form);
        MG_CHECK_INT(b.status, COLL_SEARCH_BOUNDED);
        MG_CHECK_INT(b.delta, (1u << 20) / 16);
        /* The safe bound is the largest multiple-of-Δ step that passes: within Δ of the truth. */
        MG_CHECK(b.n_safe <= n_true && n_true < b.n_safe + b.delta);
        MG_CHECK(b.n_fail > n_true);
        MG_CHECK_INT(b.failure, COLL_SEARCH_WRONG);
        MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_G);
        MG_CHECK_INT(form, rows[i].form);
    }
}

/* The (P - 1) points: tested only at 2P once n_s/2 fails there, and only the two of them. At
 * P = 48 the same n (P - 1) trigger moves at 2P to about 47/95 of n_s, within n_s/2's window:
 * Table 4.9's n P row, as the paper's n (P - 1) ~ n P has it. */
static void test_p_minus_1_points(void)
{
    uint64_t n_true = 1500000;
    fake f = {SCALING_BOUNDS_FORM_NPM1, scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 1, n_true, 4), 0, 0,
              0};
    coll_search_result b;
    MG_CHECK_INT(coll_search_bound(fake_test, &f, 1, 4, &opts, &b), 0);
    int complete = 0, tests = 0;
    uint64_t lo, hi;
    MG_CHECK_INT(scaling_bounds_pm1_window(b.n_safe, b.delta, 4, &lo, &hi), 0);
    /* (n_s + Δ)/2 and n_s/2 fail, hi fails, lo passes */
    MG_CHECK_INT(coll_search_verify(fake_test, &f, 1, 4, COLL_SEARCH_VERIFY_2P, &b, &complete, &tests),
                 lo);
    MG_CHECK_INT(complete, 1);
    MG_CHECK_INT(tests, 4);
    /* at 2s the bound stays: n_s passes, n_s + Δ fails, after (n_s + Δ)/2 passed */
    tests = 0;
    MG_CHECK_INT(coll_search_verify(fake_test, &f, 1, 4, COLL_SEARCH_VERIFY_2S, &b, &complete, &tests),
                 b.n_safe);
    MG_CHECK_INT(tests, 3);
    /* A bound under the (P - 1) window at 2P is no match. */
    fake lower = {SCALING_BOUNDS_FORM_N, lo - 1, 0, 0, 0};
    tests = 0;
    MG_CHECK_INT(coll_search_verify(fake_test, &lower, 1, 4, COLL_SEARCH_VERIFY_2P, &b, &complete, &tests),
                 0);
    MG_CHECK_INT(complete, 1);
    MG_CHECK_INT(tests, 4);
    /* At P = 1 there is no (P - 1) window: n_s/2 failing ends it. */
    tests = 0;
    MG_CHECK_INT(coll_search_verify(fake_test, &lower, 1, 1, COLL_SEARCH_VERIFY_2P, &b, &complete, &tests),
                 0);
    MG_CHECK_INT(tests, 2);
    fake at48 = {SCALING_BOUNDS_FORM_NPM1, scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 1, n_true, 48), 0,
                 0, 0};
    scaling_bounds_class cls;
    scaling_bounds_form form;
    search_and_classify(&at48, 1, 48, &b, &cls, &form);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_G);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_NP);
}

/* A library whose tests of up to *ctx elements cannot run (memory) and that fails past them. */
static coll_search_outcome no_memory_under(void *ctx, uint64_t s, uint64_t P, uint64_t n, double limit,
                                    double *elapsed)
{
    uint64_t *lo = ctx;
    (void)s, (void)P, (void)limit;
    *elapsed = 0.01;
    return n <= *lo ? COLL_SEARCH_NO_MEMORY : COLL_SEARCH_CRASH;
}

/* A (P - 1) point that cannot run leaves the verification incomplete. */
static void test_p_minus_1_incomplete(void)
{
    coll_search_result b = {COLL_SEARCH_BOUNDED, 704643072, 1u << 25, 738197504, COLL_SEARCH_CRASH, 60, 0};
    uint64_t lo, hi;
    MG_CHECK_INT(scaling_bounds_pm1_window(b.n_safe, b.delta, 4, &lo, &hi), 0);
    int complete = 1, tests = 0;
    MG_CHECK_INT(
        coll_search_verify(no_memory_under, &lo, 1, 4, COLL_SEARCH_VERIFY_2P, &b, &complete, &tests), 0);
    MG_CHECK_INT(complete, 0);
    MG_CHECK_INT(tests, 4);
}

static void test_class_x(void)
{
    fake f = {SCALING_BOUNDS_FORM_N, 0, 1, 0, 0};
    coll_search_result b;
    scaling_bounds_class cls;
    scaling_bounds_form form;
    search_and_classify(&f, 1, 48, &b, &cls, &form);
    MG_CHECK_INT(b.status, COLL_SEARCH_BOUNDED);
    MG_CHECK(b.n_safe <= 124000 && 124000 < b.n_safe + b.delta);
    MG_CHECK_INT(b.failure, COLL_SEARCH_CRASH);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_X);
}

static void test_unbounded_and_skipped(void)
{
    fake f = {SCALING_BOUNDS_FORM_N, UINT64_MAX, 0, 0, 0};
    coll_search_result b;
    coll_search_opts small = {16, 1000, 60, 10, 0};
    MG_CHECK_INT(coll_search_bound(fake_test, &f, 1, 4, &small, &b), 0);
    MG_CHECK_INT(b.status, COLL_SEARCH_UNBOUNDED);
    MG_CHECK_INT(b.n_safe, 1000); /* 1, 2, ..., 512, then n_max itself */
    MG_CHECK_INT(b.tests, 11);
    fake broken = {SCALING_BOUNDS_FORM_N, 0, 0, 0, 0}; /* fails at n = 1 */
    MG_CHECK_INT(coll_search_bound(fake_test, &broken, 1, 4, &small, &b), 0);
    MG_CHECK_INT(b.status, COLL_SEARCH_SKIPPED);
    MG_CHECK_INT(coll_search_bound(fake_test, &f, 1, 4, NULL, &b), MG_ERROR_EINVAL);
}

/* A search that goes on from an earlier run's largest passed n (128) tests no smaller n, and
 * bounds a failure where a search from n = 1 does. */
static void test_go_on_from_earlier_run(void)
{
    static const struct {
        uint64_t n_max, trigger; /* the fake fails past trigger */
        coll_search_status status;
        uint64_t n_safe, delta, n_fail;
        int tests;
    } cases[] = {
        {1000, UINT64_MAX, COLL_SEARCH_UNBOUNDED, 1000, 0, 0, 3}, /* 256, 512, 1000 */
        /* refined between 256 and 512 in steps of 256 / 16 */
        {2147483647, 300, COLL_SEARCH_BOUNDED, 288, 16, 304, 5},
        /* the first test fails: refined between the earlier run's n and it */
        {2147483647, 200, COLL_SEARCH_BOUNDED, 200, 8, 208, 11}, /* 256; 136, 144, ..., 208 */
        {100, 0, COLL_SEARCH_UNBOUNDED, 128, 0, 0, 0},           /* nothing left to try */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coll_search_opts earlier = {16, cases[i].n_max, 60, 10, 128};
        fake f = {SCALING_BOUNDS_FORM_N, cases[i].trigger, 0, 0, 0};
        coll_search_result b;
        MG_CHECK_INT(coll_search_bound(fake_test, &f, 1, 4, &earlier, &b), 0);
        MG_CHECK_INT(b.status, cases[i].status);
        MG_CHECK_INT(b.n_safe, cases[i].n_safe);
        MG_CHECK_INT(b.tests, cases[i].tests);
        MG_CHECK_INT(f.tests, cases[i].tests);
        MG_CHECK(f.tests == 0 || f.first_n == 256);
        if (b.status != COLL_SEARCH_BOUNDED)
            continue;
        MG_CHECK_INT(b.delta, cases[i].delta);
        MG_CHECK_INT(b.n_fail, cases[i].n_fail);
        fake again = {SCALING_BOUNDS_FORM_N, cases[i].trigger, 0, 0, 0};
        coll_search_result from_one;
        MG_CHECK_INT(coll_search_bound(fake_test, &again, 1, 4, &opts, &from_one), 0);
        MG_CHECK_INT(from_one.n_safe, b.n_safe);
    }
}

/* --resume: a point bounded earlier is kept, an unbounded one goes on from its n, a skipped one and
 * a new one are searched from n = 1; the entries written back carry the search's outcome. */
static void test_resume_and_entries(void)
{
    const bounds_file_entry file[] = {
        {"Gather", 1, 2, 40, 'G', "nP", "bounded"},
        {"Bcast", 1, 2, 64, 0, "", "unbounded"},
        {"Bcast", 1, 4, 0, 0, "", "skipped"},
    };
    static const struct {
        const char *name;
        uint64_t s, P;
        coll_search_resume_kind how;
        size_t at;
        uint64_t n_passed;
    } cases[] = {
        {"Gather", 1, 2, COLL_SEARCH_RESUME_KEPT, 0, 0},  {"Bcast", 1, 2, COLL_SEARCH_RESUME_SEARCH, 1, 64},
        {"Bcast", 1, 4, COLL_SEARCH_RESUME_SEARCH, 2, 0}, {"Bcast", 2, 2, COLL_SEARCH_RESUME_SEARCH, 3, 0},
        {"Gather", 1, 4, COLL_SEARCH_RESUME_SEARCH, 3, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t at = 99;
        uint64_t n_passed = 99;
        MG_CHECK_INT(coll_search_resume(file, 3, cases[i].name, cases[i].s, cases[i].P, &at,
                                        &n_passed),
                     cases[i].how);
        MG_CHECK_INT(at, cases[i].at);
        MG_CHECK_INT(n_passed, cases[i].n_passed);
    }
    coll_search_result bounded = {.status = COLL_SEARCH_BOUNDED, .n_safe = 288, .delta = 16, .n_fail = 304};
    bounds_file_entry e;
    coll_search_entry("Alltoall", 4, 8, &bounded, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_SNPM1, &e);
    MG_CHECK_STR(e.collective, "Alltoall");
    MG_CHECK_INT(e.type_size, 4);
    MG_CHECK_INT(e.np, 8);
    MG_CHECK_INT(e.safe_count, 288);
    MG_CHECK_STR(e.status, "bounded");
    MG_CHECK_INT(e.cls, 'G');
    MG_CHECK_STR(e.form, "sn(P-1)");
    coll_search_entry("Alltoall", 4, 8, &bounded, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N, &e);
    MG_CHECK_INT(e.cls, 'X');
    coll_search_result unbounded = {.status = COLL_SEARCH_UNBOUNDED, .n_safe = 1000, .failure = COLL_SEARCH_NO_TIME};
    coll_search_entry("Bcast", 1, 2, &unbounded, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NP, &e);
    MG_CHECK_STR(e.status, "unbounded");
    MG_CHECK_INT(e.safe_count, 1000);
    MG_CHECK_INT(e.cls, 0);
    MG_CHECK_STR(e.form, "");
    coll_search_result none = {.status = COLL_SEARCH_SKIPPED};
    coll_search_entry("Bcast", 1, 2, &none, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NP, &e);
    MG_CHECK_STR(e.status, "skipped");
}

static void test_memory(void)
{
    /* Gather of 1 GiB per process on 4 ranks: the root's 4 GiB plus 4 x 1 GiB, doubled. */
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_GATHER, 0, 1, 1u << 30, 4), 16ull << 30);
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_ALLTOALL, 0, 4, 1000, 8), 2ull * 8 * 2 * 8 * 4000);
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_BCAST, 0, 1, 10, 3), 60);
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_ALLTOALL, 0, UINT64_MAX, UINT64_MAX, 8), UINT64_MAX);
    /* In place, one buffer per rank, except where only the root passes MPI_IN_PLACE. */
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_ALLTOALL, 1, 1, 1u << 30, 3), 18ull << 30);
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_ALLREDUCE, 1, 4, 1000, 2), 2ull * 2 * 4000);
    MG_CHECK_INT(coll_memory_bytes(SCALING_COLL_GATHER, 1, 1, 1u << 30, 4), 16ull << 30);
    MG_CHECK(mg_memory_available() > 0);
}

int main(void)
{
    MG_RUN(test_class_g_rows);
    MG_RUN(test_p_minus_1_points);
    MG_RUN(test_p_minus_1_incomplete);
    MG_RUN(test_class_x);
    MG_RUN(test_classify_at_largest_type_size);
    MG_RUN(test_unbounded_and_skipped);
    MG_RUN(test_go_on_from_earlier_run);
    MG_RUN(test_resume_and_entries);
    MG_RUN(test_memory);
    MG_TEST_END();
}
