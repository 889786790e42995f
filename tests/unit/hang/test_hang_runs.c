/* Unit tests of the runs test (docs/design/hang.md "The model"; ParaStack §3.1 worked example). */
#include "hang_runs.h"
#include "mg_error.h"
#include "mg_test.h"

/* The paper's 16 samples of S_out for 10 processes. */
static const double paper[16] = {0.2, 0.1, 0.1, 0.2, 0.1, 0.1, 0.0, 0.0,
                                 0.8, 0.9, 1.0, 0.8, 0.9, 0.1, 0.9, 0.9};

static void paper_example_is_not_random(void)
{
    struct hang_runs_params p;
    hang_runs_params_default(&p);
    MG_CHECK_NEAR(p.alpha, 0.05, 0);
    MG_CHECK_INT(p.small_limit, 20);
    struct hang_runs_result r;
    MG_CHECK_INT(hang_runs_test(paper, 16, &p, &r), MG_ERROR_OK);
    MG_CHECK_NEAR(r.boundary, 0.44375, 1e-12);
    MG_CHECK_INT(r.n1, 7);
    MG_CHECK_INT(r.n0, 9);
    MG_CHECK_INT(r.runs, 4);
    MG_CHECK(r.exact);
    MG_CHECK_NEAR(r.lower, 4, 0);
    MG_CHECK_NEAR(r.upper, 14, 0);
    MG_CHECK(!r.random);
}

/* Counts runs of every arrangement of n1 ones among n bits, by brute force. */
static void enumerate(size_t n1, size_t n0, double *hist, size_t hist_len)
{
    size_t n = n1 + n0, total = 0;
    for (size_t i = 0; i < hist_len; i++)
        hist[i] = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if ((size_t)__builtin_popcount(mask) != n1)
            continue;
        size_t runs = 1;
        for (size_t b = 1; b < n; b++)
            runs += ((mask >> b) & 1u) != ((mask >> (b - 1)) & 1u);
        hist[runs]++;
        total++;
    }
    for (size_t i = 0; i < hist_len; i++)
        hist[i] /= (double)total;
}

static void exact_pmf_matches_enumeration(void)
{
    static const size_t cases[][2] = {{1, 1}, {2, 2}, {3, 2}, {3, 4}, {4, 5}, {6, 6}, {2, 9}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double hist[20], sum = 0;
        enumerate(cases[c][0], cases[c][1], hist, 20);
        for (size_t r = 0; r < 20; r++) {
            double p;
            MG_CHECK_INT(hang_runs_pmf(cases[c][0], cases[c][1], r, &p), MG_ERROR_OK);
            MG_CHECK_NEAR(p, hist[r], 1e-12);
            sum += p;
        }
        MG_CHECK_NEAR(sum, 1.0, 1e-12);
    }
    double p;
    MG_CHECK_INT(hang_runs_pmf(7, 9, 4, &p), MG_ERROR_OK);
    MG_CHECK_NEAR(p, 96.0 / 11440.0, 1e-15); /* 2 C(6,1) C(8,1) / C(16,7) */
}

/* Swed-Eisenhart table entries at 0.05, and "no region" cases. */
static void critical_values_match_the_tables(void)
{
    static const int table[][4] = {
        {7, 9, 4, 14}, {5, 5, 2, 10}, {10, 10, 6, 16}, {20, 20, 14, 28}, {2, 12, 2, 6}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int lo, hi;
        MG_CHECK_INT(hang_runs_critical((size_t)table[i][0], (size_t)table[i][1], 0.05, &lo, &hi),
                     MG_ERROR_OK);
        MG_CHECK_INT(lo, table[i][2]);
        MG_CHECK_INT(hi, table[i][3]);
    }
    int lo, hi;
    /* 2 + 2: every R has probability >= 1/6, so nothing can be rejected at 0.05. */
    MG_CHECK_INT(hang_runs_critical(2, 2, 0.05, &lo, &hi), MG_ERROR_OK);
    MG_CHECK_INT(lo, 1);
    MG_CHECK_INT(hi, 5);
    /* The definition itself, checked against enumeration for 7 + 9. */
    double hist[20];
    enumerate(7, 9, hist, 20);
    double below = 0, below_next;
    for (int r = 0; r <= 4; r++)
        below += hist[r];
    below_next = below + hist[5];
    MG_CHECK(below <= 0.025 && below_next > 0.025);
}

static void normal_approximation_for_large_samples(void)
{
    struct hang_runs_params p;
    hang_runs_params_default(&p);
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i % 2;
    struct hang_runs_result r;
    MG_CHECK_INT(hang_runs_test(x, 100, &p, &r), MG_ERROR_OK);
    MG_CHECK(!r.exact);
    MG_CHECK_INT(r.runs, 100);
    /* mu = 51, sigma^2 = 2*50*50*(5000-100)/(100^2*99) = 24.7475, z = 1.959964 */
    MG_CHECK_NEAR((r.lower + r.upper) / 2, 51.0, 1e-9);
    MG_CHECK_NEAR((r.upper - r.lower) / 2, 1.959964 * sqrt(24.747474747), 1e-5);
    MG_CHECK(!r.random);
    /* 26 "+" runs (24 of length 2, 2 of length 1) and 25 "-" runs of length 2: R = 51 = mu. */
    size_t k = 0;
    for (int run = 0; run < 51; run++) {
        int len = (run % 2 == 1) ? 2 : (run < 4 ? 1 : 2);
        for (int j = 0; j < len; j++)
            x[k++] = (run % 2 == 0) ? 1.0 : 0.0;
    }
    MG_CHECK_INT(k, 100);
    MG_CHECK_INT(hang_runs_test(x, 100, &p, &r), MG_ERROR_OK);
    MG_CHECK_INT(r.n1, 50);
    MG_CHECK_INT(r.runs, 51);
    MG_CHECK(r.random);
    /* Forcing the normal path on the paper's example: mu = 8.875, sigma = 1.8557; 4 is outside. */
    p.small_limit = 5;
    MG_CHECK_INT(hang_runs_test(paper, 16, &p, &r), MG_ERROR_OK);
    MG_CHECK(!r.exact);
    MG_CHECK_NEAR((r.lower + r.upper) / 2, 8.875, 1e-9);
    MG_CHECK(!r.random);
}

static void one_sided_sequences_are_not_random(void)
{
    struct hang_runs_params p;
    hang_runs_params_default(&p);
    double zeros[16] = {0};
    struct hang_runs_result r;
    MG_CHECK_INT(hang_runs_test(zeros, 16, &p, &r), MG_ERROR_OK);
    MG_CHECK_INT(r.n1, 16);
    MG_CHECK_INT(r.n0, 0);
    MG_CHECK(!r.random);
    double one_high[16] = {0};
    one_high[3] = 1.0;
    MG_CHECK_INT(hang_runs_test(one_high, 16, &p, &r), MG_ERROR_OK);
    MG_CHECK_INT(r.n1, 1);
    MG_CHECK(!r.random);
}

static void bad_arguments(void)
{
    struct hang_runs_params p;
    hang_runs_params_default(&p);
    struct hang_runs_result r;
    double x[2] = {0, NAN};
    int lo, hi;
    double prob;
    MG_CHECK_INT(hang_runs_test(NULL, 2, &p, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_test(paper, 1, &p, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_test(paper, 16, NULL, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_test(paper, 16, &p, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_test(x, 2, &p, &r), MG_ERROR_EINVAL);
    p.alpha = 0;
    MG_CHECK_INT(hang_runs_test(paper, 16, &p, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_critical(7, 9, 1.0, &lo, &hi), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_critical(0, 9, 0.05, &lo, &hi), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_critical(7, 9, 0.05, NULL, &hi), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_pmf(600, 401, 10, &prob), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_pmf(7, 0, 2, &prob), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_runs_pmf(7, 9, 2, NULL), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(paper_example_is_not_random);
    MG_RUN(exact_pmf_matches_enumeration);
    MG_RUN(critical_values_match_the_tables);
    MG_RUN(normal_approximation_for_large_samples);
    MG_RUN(one_sided_sequences_are_not_random);
    MG_RUN(bad_arguments);
    MG_TEST_END();
}
