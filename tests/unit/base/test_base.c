/* Unit tests of mg_base: error texts and the seeded generator. */
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"

static void error_texts_cover_every_code(void)
{
    for (int c = 0; c > -MG_ERROR_CODE_COUNT; c--)
        MG_CHECK(strcmp(mg_strerror(c), "unknown error") != 0);
    MG_CHECK_STR(mg_strerror(1), "unknown error");
    MG_CHECK_STR(mg_strerror(-MG_ERROR_CODE_COUNT), "unknown error");
    MG_CHECK_STR(mg_strerror(MG_EFORMAT), "malformed input");
}

static void rng_is_reproducible_and_uniform(void)
{
    mg_rng a, b;
    mg_rng_seed(&a, 42);
    mg_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++)
        MG_CHECK(mg_rng_next(&a) == mg_rng_next(&b));
    int buckets[10] = {0};
    for (int i = 0; i < 100000; i++)
        buckets[mg_rng_below(&a, 10)]++;
    for (int i = 0; i < 10; i++)
        MG_CHECK(buckets[i] > 9500 && buckets[i] < 10500);
    MG_CHECK_INT(mg_rng_below(&a, 0), 0);
    double sum = 0, sq = 0;
    for (int i = 0; i < 100000; i++) {
        double x = mg_rng_normal(&a);
        sum += x;
        sq += x * x;
    }
    MG_CHECK_NEAR(sum / 100000, 0.0, 0.02);
    MG_CHECK_NEAR(sq / 100000, 1.0, 0.03);
}

int main(void)
{
    MG_RUN(error_texts_cover_every_code);
    MG_RUN(rng_is_reproducible_and_uniform);
    MG_TEST_END();
}
