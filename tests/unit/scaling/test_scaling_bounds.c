/* The safe-bounds table, Table 4.9, the G/X lookup and the per-call check, with the paper's own
 * numbers (docs/collectives-engine.md §3). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "scaling_bounds.h"
#include "scaling_check.h"

#define M (1ull << 20)

static void test_classify_table_4_9(void)
{
    scaling_bounds_class cls;
    scaling_bounds_form form;
    /* Prob. 10/11 (Igather): 42M at (1,48), 21M at (1,96), 42M at (2,48): n P > n_s P_s. */
    MG_CHECK_INT(scaling_bounds_classify(42 * M, 48, 21 * M, 42 * M, 2 * M, &cls, &form), 0);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_G);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_NP);
    /* Prob. 13 (Scatter): halved both ways: s n P. */
    MG_CHECK_INT(scaling_bounds_classify(42 * M, 48, 21 * M, 21 * M, 2 * M, &cls, &form), 0);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_SNP);
    MG_CHECK_INT(scaling_bounds_classify(42 * M, 48, 42 * M, 21 * M, 2 * M, &cls, &form), 0);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_SN);
    /* Within the tester's step: 43M is "n_s" with delta 2M. */
    MG_CHECK_INT(scaling_bounds_classify(42 * M, 48, 43 * M, 42 * M + 1, 2 * M, &cls, &form), 0);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_G);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_N);
    /* Prob. 12 (Gather, MPICH): 124M, 62M at 2P, 68M at 2s: no row matches: Class X. */
    MG_CHECK_INT(scaling_bounds_classify(124 * M, 48, 62 * M, 68 * M, 4 * M, &cls, &form), 0);
    MG_CHECK_INT(cls, SCALING_BOUNDS_CLASS_X);
    MG_CHECK_INT(scaling_bounds_classify(0, 48, 1, 1, 0, &cls, &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_classify(1, 0, 1, 1, 0, &cls, &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_classify(1, 48, 1, 1, 0, NULL, &form), MG_ERROR_EINVAL);
}

/* Classifies (n_s, P_s, n_2p, n_2s, delta): the form of Class G, or -1 for Class X. */
static int classified(uint64_t n_s, uint64_t P_s, uint64_t n_2p, uint64_t n_2s, uint64_t delta)
{
    scaling_bounds_class cls = SCALING_BOUNDS_CLASS_G;
    scaling_bounds_form form = SCALING_BOUNDS_FORM_COUNT;
    MG_CHECK_INT(scaling_bounds_classify(n_s, P_s, n_2p, n_2s, delta, &cls, &form), 0);
    return cls == SCALING_BOUNDS_CLASS_X ? -1 : (int)form;
}

/* The (P - 1) rows. Prob. 9 at P = 4: Gatherv's root fails once its last displacement (P - 1) n
 * passes INT_MAX, n_s = 2^29 + 5 * 2^25 (docs/collectives-measurements.md); at 2P the bound is
 * INT_MAX / 7, 3/7 of n_s, not n_s/2. */
static void test_classify_p_minus_1(void)
{
    const uint64_t n_s = 704643072, delta = 1u << 25, lo = 301989888, hi = 316370359;
    uint64_t wlo, whi;
    MG_CHECK_INT(scaling_bounds_pm1_window(n_s, delta, 4, &wlo, &whi), 0);
    MG_CHECK_INT(wlo, lo); /* n_s 3/7 exactly */
    MG_CHECK_INT(whi, hi); /* (n_s + delta) 3/7 = 316370358.86, rounded up */
    MG_CHECK_INT(classified(n_s, 4, lo, n_s, delta), SCALING_BOUNDS_FORM_NPM1);
    MG_CHECK_INT(classified(n_s, 4, 2147483647 / 7, n_s + delta, delta), SCALING_BOUNDS_FORM_NPM1);
    MG_CHECK_INT(classified(n_s, 4, hi, n_s / 2, delta), SCALING_BOUNDS_FORM_SNPM1);
    MG_CHECK_INT(classified(n_s, 4, lo - 1, n_s, delta), -1);
    MG_CHECK_INT(classified(n_s, 4, hi + 1, n_s, delta), -1);
    MG_CHECK_INT(classified(n_s, 4, lo, n_s / 3, delta), -1); /* 2s in no window */
    /* The table's rows keep their precedence: n_s/2 at 2P is still n P at P = 4. */
    MG_CHECK_INT(classified(n_s, 4, n_s / 2, n_s, delta), SCALING_BOUNDS_FORM_NP);
    /* At P = 1 a (P - 1) form bounds nothing: no window, so no (P - 1) row. */
    MG_CHECK_INT(scaling_bounds_pm1_window(n_s, delta, 1, &wlo, &whi), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_pm1_window(n_s, delta, 4, NULL, &whi), MG_ERROR_EINVAL);
    MG_CHECK_INT(classified(n_s, 1, 0, n_s, delta), -1);
    /* At P = 64, 63/127 of n_s is near n_s/2 and the windows overlap: [66060288, 70189056] for
     * (P - 1), [66584576, 70746112] for n_s/2. In the overlap the table's row wins (n P or s n P,
     * which differ from the (P - 1) forms by about 1/64 there); under n_s/2 only the (P - 1) row
     * matches; past (n_s + delta) 63/127 only the table's. */
    const uint64_t m = 127 * M, dm = m / 16;
    MG_CHECK_INT(scaling_bounds_pm1_window(m, dm, 64, &wlo, &whi), 0);
    MG_CHECK_INT(wlo, 66060288);
    MG_CHECK_INT(whi, 70189056);
    MG_CHECK_INT(classified(m, 64, 66060288, m, dm), SCALING_BOUNDS_FORM_NPM1);
    MG_CHECK_INT(classified(m, 64, m / 2 - 1, m / 2, dm), SCALING_BOUNDS_FORM_SNPM1);
    MG_CHECK_INT(classified(m, 64, m / 2, m, dm), SCALING_BOUNDS_FORM_NP);
    MG_CHECK_INT(classified(m, 64, 70189056, m / 2, dm), SCALING_BOUNDS_FORM_SNP);
    MG_CHECK_INT(classified(m, 64, 70189057, m, dm), SCALING_BOUNDS_FORM_NP);
    MG_CHECK_INT(classified(m, 64, 66060287, m, dm), -1);
    /* n_s near 2^63 and a huge P: no overflow (the sum saturates, the products are 128-bit). */
    MG_CHECK_INT(scaling_bounds_pm1_window(1ull << 63, 1ull << 63, UINT64_MAX, &wlo, &whi), 0);
    MG_CHECK(wlo == (1ull << 62) - 1);
    MG_CHECK(whi == 1ull << 63);
}

static const scaling_bounds_entry paper[] = {
    {SCALING_COLL_GATHER, 1, 48, 124 * M, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N}, /* Prob. 12 */
    {SCALING_COLL_GATHER, 2, 48, 68 * M, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N},
    {SCALING_COLL_GATHER, 1, 96, 62 * M, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N},
    {SCALING_COLL_GATHER, 1, 48, 200 * M, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_N},   /* a looser G bound too */
    {SCALING_COLL_SCATTER, 1, 48, 42 * M, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_SNP}, /* Prob. 13 */
    {SCALING_COLL_GATHERV, 1, 48, 42 * M, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NP},  /* Prob. 10 */
};

static void test_init(void)
{
    scaling_bounds b;
    MG_CHECK_INT(scaling_bounds_init(&b, "Open MPI", "4.1.4", paper, 6), 0);
    MG_CHECK_STR(b.mpi_impl, "Open MPI");
    MG_CHECK_STR(b.mpi_version, "4.1.4");
    MG_CHECK_INT(b.first[SCALING_COLL_GATHER], 0);
    MG_CHECK_INT(b.count[SCALING_COLL_GATHER], 4);
    MG_CHECK_INT(b.first[SCALING_COLL_GATHERV], 5);
    MG_CHECK_INT(b.count[SCALING_COLL_BCAST], 0);
    /* What can bound a collective at all: its entries, or the artificial bound. */
    MG_CHECK_INT(scaling_bounds_covers(&b, SCALING_COLL_GATHER), 1);
    MG_CHECK_INT(scaling_bounds_covers(&b, SCALING_COLL_BCAST), 0);
    MG_CHECK_INT(scaling_bounds_covers(&b, SCALING_COLL_COUNT), 0);
    MG_CHECK_INT(scaling_bounds_covers(NULL, SCALING_COLL_GATHER), 0);
    MG_CHECK_INT(scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 5), 0);
    MG_CHECK_INT(scaling_bounds_covers(&b, SCALING_COLL_BCAST), 1);
    MG_CHECK_INT(
        scaling_bounds_init(&b, "a very long implementation name over 32 bytes", NULL, NULL, 0), 0);
    MG_CHECK_INT(strlen(b.mpi_impl), 31);
    MG_CHECK_STR(b.mpi_version, "");
    /* Entries of one collective must be adjacent. */
    scaling_bounds_entry split[3] = {paper[0], paper[4], paper[1]};
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", split, 3), MG_ERROR_EINVAL);
    MG_CHECK_INT(b.count[SCALING_COLL_GATHER], 0); /* left cleared */
    scaling_bounds_entry bad = paper[0];
    bad.type_size = 0;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", &bad, 1), MG_ERROR_EINVAL);
    bad = paper[0];
    bad.coll = SCALING_COLL_COUNT;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", &bad, 1), MG_ERROR_EINVAL);
    bad = paper[0];
    bad.form = SCALING_BOUNDS_FORM_COUNT;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", &bad, 1), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", NULL, 2), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_init(NULL, "x", "1", NULL, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NP, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_COUNT, 1), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_set_artificial(NULL, SCALING_BOUNDS_FORM_NP, 1), MG_ERROR_EINVAL);
}

static void test_class_g_lookup(void)
{
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", paper, 6);
    scaling_bounds_limit lim;
    /* Prob. 10: n P > 2016M; at P = 768 the safe n is 2.625M (Table 4.12's original n_s). */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 1, 768, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2016 * M / 768);
    MG_CHECK_INT(lim.n_max * 8, 21 * M);
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_G);
    MG_CHECK_INT(lim.form, SCALING_BOUNDS_FORM_NP);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 8, 768, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2016 * M / 768); /* s-free */
    /* Prob. 13: s n P > 2016 MB: at s = 4, P = 96 the safe n is 2016M / 384. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_SCATTER, 4, 96, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2016 * M / 384);
    /* No entry: unbounded. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_BCAST, 1, 4, &lim), 0);
    MG_CHECK(lim.n_max == UINT64_MAX);
    MG_CHECK_INT(lim.by, 0);
    /* The artificial bound adds to the table; the tighter one wins. */
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NP, 4 * 768);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 1, 768, &lim), 0);
    MG_CHECK_INT(lim.n_max, 4);
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_ARTIFICIAL);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_BCAST, 1, 768, &lim), 0);
    MG_CHECK_INT(lim.n_max, 4);
    /* Saturation: a product past 2^64 does not wrap. */
    MG_CHECK(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNP, UINT64_MAX, 2, 2) == UINT64_MAX);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SN, 3, 5, 7), 15);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_N, 3, 5, 7), 5);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_BCAST, 0, 768, &lim), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_COUNT, 1, 768, &lim), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_nmax(NULL, SCALING_COLL_BCAST, 1, 768, &lim), MG_ERROR_EINVAL);
}

/* The (P - 1) forms' products and safe counts: Prob. 9's Gatherv, n (P - 1) <= INT_MAX. */
static void test_p_minus_1_forms(void)
{
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 3, 5, 7), 30);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNPM1, 3, 5, 7), 90);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 3, 5, 1), 0);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNPM1, UINT64_MAX, UINT64_MAX, 1), 0);
    MG_CHECK_INT(scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 3, 5, 0), 0);
    MG_CHECK(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNPM1, UINT64_MAX, 2, 3) == UINT64_MAX);
    MG_CHECK(scaling_bounds_form_value(SCALING_BOUNDS_FORM_NPM1, 1, UINT64_MAX, 3) == UINT64_MAX);
    /* Three 64-bit factors pass 2^128: saturated, not wrapped. */
    MG_CHECK(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNPM1, UINT64_MAX, UINT64_MAX, UINT64_MAX) ==
             UINT64_MAX);
    MG_CHECK(scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNP, UINT64_MAX, UINT64_MAX, UINT64_MAX) ==
             UINT64_MAX);
    static const scaling_bounds_entry prob9[] = {
        {SCALING_COLL_GATHERV, 1, 4, 715827882, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NPM1},
        {SCALING_COLL_SCATTERV, 2, 4, 357913941, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_SNPM1},
    };
    scaling_bounds b;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", prob9, 2), 0);
    scaling_bounds_limit lim;
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 1, 8, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2147483646 / 7); /* not n_s / 2 */
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_G);
    MG_CHECK_INT(lim.form, SCALING_BOUNDS_FORM_NPM1);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 8, 4, &lim), 0);
    MG_CHECK_INT(lim.n_max, 715827882); /* s-free */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 1, 2, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2147483646);
    /* One process: no other rank's data, nothing bounds n. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHERV, 1, 1, &lim), 0);
    MG_CHECK(lim.n_max == UINT64_MAX);
    MG_CHECK_INT(lim.by, 0);
    /* s n (P - 1) <= 2 * 357913941 * 3: at s = 4, P = 8, n <= 2147483646 / 28. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_SCATTERV, 4, 8, &lim), 0);
    MG_CHECK_INT(lim.n_max, 2147483646 / 28);
    MG_CHECK_INT(lim.form, SCALING_BOUNDS_FORM_SNPM1);
    /* s (P - 1) past 2^64: even n = 1 is over. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_SCATTERV, 1ull << 63, 4, &lim), 0);
    MG_CHECK_INT(lim.n_max, 0);
    /* The artificial bound in a (P - 1) form. */
    MG_CHECK_INT(scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_NPM1, 100), 0);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_BCAST, 1, 3, &lim), 0);
    MG_CHECK_INT(lim.n_max, 50);
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_ARTIFICIAL);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_BCAST, 1, 1, &lim), 0);
    MG_CHECK(lim.n_max == UINT64_MAX);
    /* A Class G entry of a (P - 1) form tested at P = 1 bounds nothing and is refused; a Class X
     * entry's form is not used. */
    scaling_bounds_entry one = prob9[0];
    one.nprocs = 1;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", &one, 1), MG_ERROR_EINVAL);
    one.cls = SCALING_BOUNDS_CLASS_X;
    MG_CHECK_INT(scaling_bounds_init(&b, "x", "1", &one, 1), 0);
}

/* One table of names, both ways, for every form. */
static void test_form_names(void)
{
    static const char *const names[SCALING_BOUNDS_FORM_COUNT] = {
        [SCALING_BOUNDS_FORM_NP] = "nP", [SCALING_BOUNDS_FORM_SNP] = "snP",       [SCALING_BOUNDS_FORM_SN] = "sn",
        [SCALING_BOUNDS_FORM_N] = "n",   [SCALING_BOUNDS_FORM_SNPM1] = "sn(P-1)", [SCALING_BOUNDS_FORM_NPM1] = "n(P-1)"};
    MG_CHECK_STR(scaling_bounds_form_names[0], "nP"); /* --bound-form's default is the first choice */
    MG_CHECK(scaling_bounds_form_names[SCALING_BOUNDS_FORM_COUNT] == NULL);
    for (int f = 0; f < SCALING_BOUNDS_FORM_COUNT; f++) {
        scaling_bounds_form back = SCALING_BOUNDS_FORM_COUNT;
        MG_CHECK_STR(scaling_bounds_form_name((scaling_bounds_form)f), names[f]);
        MG_CHECK_INT(scaling_bounds_form_parse(names[f], &back), 0);
        MG_CHECK_INT(back, f);
    }
    scaling_bounds_form form = SCALING_BOUNDS_FORM_SN;
    MG_CHECK_INT(scaling_bounds_form_parse("n(P-2)", &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_form_parse("NP", &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_form_parse("", &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_bounds_form_parse(NULL, &form), MG_ERROR_EINVAL);
    MG_CHECK_INT(form, SCALING_BOUNDS_FORM_SN); /* untouched */
    MG_CHECK_STR(scaling_bounds_form_name(SCALING_BOUNDS_FORM_COUNT), "n");
}

static void test_class_x_lookup(void)
{
    scaling_bounds b;
    scaling_bounds_init(&b, "MPICH", "3.1.3", paper, 6);
    scaling_bounds_limit lim;
    /* Exactly tested. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 1, 96, &lim), 0);
    MG_CHECK_INT(lim.n_max, 62 * M);
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_X);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 2, 48, &lim), 0);
    MG_CHECK_INT(lim.n_max, 68 * M);
    /* Between tested points: the smallest bound tested at a harder (s, P). */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 1, 64, &lim), 0);
    MG_CHECK_INT(lim.n_max, 62 * M);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 1, 8, &lim), 0);
    MG_CHECK_INT(lim.n_max, 62 * M);
    /* Past them: Eq. 4.23's s n P rule; at P = 192 and 768 it gives Table 4.13's 31M and 7.75M. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 1, 192, &lim), 0);
    MG_CHECK_INT(lim.n_max, 31 * M);
    MG_CHECK_INT(lim.form, SCALING_BOUNDS_FORM_SNP);
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 1, 768, &lim), 0);
    MG_CHECK_INT(lim.n_max * 4, 31 * M);
    /* s = 4, P = 1024: the tightest of the three extrapolations, 5952M / 4096 (124M * 48 and
     * 62M * 96 against 68M * 2 * 48 = 6528M). */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 4, 1024, &lim), 0);
    MG_CHECK_INT(lim.n_max, 124 * M * 48 / 4096);
    /* s = 8, P = 8: neither harder nor easier than any tested point: uncovered, and the looser
     * G entry (n <= 200M) is all that bounds it. */
    MG_CHECK_INT(scaling_bounds_nmax(&b, SCALING_COLL_GATHER, 8, 8, &lim), 0);
    MG_CHECK_INT(lim.n_max, 200 * M);
    MG_CHECK_INT(lim.by, SCALING_BOUNDS_LIMIT_G | SCALING_BOUNDS_LIMIT_X_UNCOVERED);
}

static void test_check(void)
{
    scaling_bounds b;
    scaling_bounds_init(&b, "x", "1", paper, 6);
    scaling_check_trigger t;
    /* Detector X: Gather at (1, 96) with n = 62M + 1. */
    scaling_args g = {.coll = SCALING_COLL_GATHER, .nprocs = 96, .rank = 3, .type_size = 1};
    g.count = 62 * M + 1;
    MG_CHECK_INT(scaling_check(&b, &g, NULL, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_X);
    MG_CHECK_INT(t.n, 62 * M + 1);
    g.count = 62 * M;
    MG_CHECK_INT(scaling_check(&b, &g, NULL, &t), 0);
    MG_CHECK_INT(t.fired, 0);
    /* G and X at the same bound both fire. */
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 62 * M);
    g.count = 62 * M + 1;
    MG_CHECK_INT(scaling_check(&b, &g, NULL, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_X | SCALING_CHECK_FIRED_G);
    /* Detector G on an irregular call: the largest count against n P <= 2016M at P = 4. */
    scaling_bounds_init(&b, "x", "1", paper, 6);
    int counts[4] = {1, 504 * M + 1, 0, 2}, displs[4] = {0, 1, 504 * M + 2, 504 * M + 2};
    int64_t scratch[4];
    memset(scratch, 0x77, sizeof scratch);
    scaling_args gv = {.coll = SCALING_COLL_GATHERV, .nprocs = 4, .type_size = 1, .count = 1};
    gv.counts_a = counts, gv.displs_a = displs;
    MG_CHECK_INT(scaling_check(&b, &gv, scratch, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    MG_CHECK_INT(t.n, 504 * M + 1);
    MG_CHECK(t.true_a == NULL);
    MG_CHECK(scratch[0] == 0x7777777777777777LL); /* no write on the no-D path */
    /* A user error is passed through, not acted on. */
    counts[2] = -1;
    MG_CHECK_INT(scaling_check(&b, &gv, scratch, &t), 0);
    MG_CHECK_INT(t.user_error, 1);
    MG_CHECK_INT(t.fired, 0);
    MG_CHECK_INT(t.d_a.reason, SCALING_DISPL_NEGATIVE_COUNT);
    counts[2] = 0;
    MG_CHECK_INT(scaling_check(&b, &gv, NULL, &t), MG_ERROR_EINVAL); /* D needs scratch here */
    /* A non-root of Gatherv sees only its count. */
    scaling_args nr = {.coll = SCALING_COLL_GATHERV, .nprocs = 4, .rank = 1, .type_size = 1, .count = 7};
    MG_CHECK_INT(scaling_check(&b, &nr, NULL, &t), 0);
    MG_CHECK_INT(t.n, 7);
    /* Reduce_scatter: n is the total of the counts (G_b = s n); a negative count is a user error.
     */
    int rc[3] = {4, 5, 6};
    scaling_args rs = {.coll = SCALING_COLL_REDUCE_SCATTER, .nprocs = 3, .type_size = 4, .counts_a = rc};
    scaling_bounds_set_artificial(&b, SCALING_BOUNDS_FORM_N, 14);
    MG_CHECK_INT(scaling_check(&b, &rs, NULL, &t), 0);
    MG_CHECK_INT(t.n, 15);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_G);
    rc[1] = -5;
    MG_CHECK_INT(scaling_check(&b, &rs, NULL, &t), 0);
    MG_CHECK_INT(t.user_error, 1);
    MG_CHECK_INT(t.d_a.index, 1);
    /* Alltoallv: both vectors; in place only the receive one. */
    int sc[2] = {1, 1}, sd[2] = {0, 1}, rcv[2] = {1, 1}, rd[2] = {2147483000, -2147483000};
    int64_t s2[4];
    scaling_args av = {.coll = SCALING_COLL_ALLTOALLV, .nprocs = 2, .type_size = 1};
    av.counts_a = sc, av.displs_a = sd, av.counts_b = rcv, av.displs_b = rd;
    MG_CHECK_INT(scaling_check(&b, &av, s2, &t), 0);
    MG_CHECK_INT(t.fired, SCALING_CHECK_FIRED_D);
    MG_CHECK(t.true_a == NULL);
    MG_CHECK(t.true_b == s2 + 2);
    MG_CHECK_INT(s2[3], 2147484296LL);
    av.in_place = 1;
    av.counts_a = av.displs_a = NULL;
    MG_CHECK_INT(scaling_check(&b, &av, s2, &t), 0);
    MG_CHECK(t.true_a == t.true_b && t.true_b == s2 + 2);
    MG_CHECK_INT(scaling_check(NULL, &av, s2, &t), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_check(&b, NULL, s2, &t), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(test_classify_table_4_9);
    MG_RUN(test_classify_p_minus_1);
    MG_RUN(test_init);
    MG_RUN(test_class_g_lookup);
    MG_RUN(test_p_minus_1_forms);
    MG_RUN(test_form_names);
    MG_RUN(test_class_x_lookup);
    MG_RUN(test_check);
    MG_TEST_END();
}
