/* Unit tests of mg_base: error texts, the seeded generator and rank lists. */
#include "mg_error.h"
#include "mg_ranks.h"
#include "mg_rng.h"
#include "mg_test.h"

static void error_texts_cover_every_code(void)
{
    for (int c = 0; c > -MG_ERROR_CODE_COUNT; c--)
        MG_CHECK(strcmp(mg_error_string(c), "unknown error") != 0);
    MG_CHECK_STR(mg_error_string(1), "unknown error");
    MG_CHECK_STR(mg_error_string(-MG_ERROR_CODE_COUNT), "unknown error");
    MG_CHECK_STR(mg_error_string(MG_ERROR_EFORMAT), "malformed input");
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

static void formats_rank_lists(void)
{
    char buf[64];
    int ranks[] = {7, 0, 1, 2, 4, 5, 6, 9, 2};
    mg_ranks_format(ranks, 9, buf, sizeof buf);
    MG_CHECK_STR(buf, "0-2,4-7,9");
    int one[] = {3};
    mg_ranks_format(one, 1, buf, sizeof buf);
    MG_CHECK_STR(buf, "3");
    mg_ranks_format(NULL, 0, buf, sizeof buf);
    MG_CHECK_STR(buf, "");
    int many[40];
    for (int i = 0; i < 40; i++)
        many[i] = 3 * i;
    char small[16];
    mg_ranks_format(many, 40, small, sizeof small);
    MG_CHECK(strstr(small, "...") != NULL);
    MG_CHECK(strlen(small) < sizeof small);
}

int main(void)
{
    MG_RUN(error_texts_cover_every_code);
    MG_RUN(rng_is_reproducible_and_uniform);
    MG_RUN(formats_rank_lists);
    MG_TEST_END();
}
