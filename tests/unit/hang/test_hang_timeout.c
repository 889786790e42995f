/* Unit tests of the fixed timeout baseline (ParaStack Table 1). */
#include <limits.h>

#include "hang_timeout.h"
#include "mg_error.h"
#include "mg_test.h"

static void defaults_are_table_1_second_row(void)
{
    struct hang_timeout_params p;
    hang_timeout_params_default(&p);
    MG_CHECK_NEAR(p.interval, 0.4, 0);
    MG_CHECK_INT(p.k, 10);
    MG_CHECK_NEAR(p.low_fraction, 0.1, 0);
    MG_CHECK_INT(p.set_size, 10);
    MG_CHECK_INT(p.switch_every, 30);
}

static void k_low_observations_make_a_hang(void)
{
    struct hang_timeout_params p;
    hang_timeout_params_default(&p);
    p.k = 3;
    struct hang_timeout *t;
    MG_CHECK_INT(hang_timeout_create(&p, 100, 1, &t), MG_ERROR_OK);
    double d;
    MG_CHECK_INT(hang_timeout_next_delay(t, &d), MG_ERROR_OK);
    MG_CHECK_NEAR(d, 0.4, 0);
    static const size_t seq[] = {5, 1, 0, 2, 0, 1};
    static const enum hang_verdict_kind want[] = {HANG_VERDICT_NORMAL,     HANG_VERDICT_SUSPICIOUS,
                                                  HANG_VERDICT_SUSPICIOUS, HANG_VERDICT_NORMAL,
                                                  HANG_VERDICT_SUSPICIOUS, HANG_VERDICT_SUSPICIOUS};
    static const unsigned count[] = {0, 1, 2, 0, 1, 2};
    struct hang_verdict v;
    for (int i = 0; i < 6; i++) {
        MG_CHECK_INT(hang_timeout_observe(t, seq[i], i, &v), MG_ERROR_OK);
        MG_CHECK_INT(v.kind, want[i]);
        MG_CHECK_INT(v.suspicions, count[i]);
        MG_CHECK_INT(v.needed, 3);
    }
    MG_CHECK_INT(hang_timeout_observe(t, 0, 6, &v), MG_ERROR_OK);
    MG_CHECK_INT(v.kind, HANG_VERDICT_HANG);
    MG_CHECK_INT(v.suspicions, 3);
    MG_CHECK_INT(hang_timeout_observe(t, 0, 7, &v), MG_ERROR_ESTATE);
    MG_CHECK_INT(hang_timeout_resume(t), MG_ERROR_OK);
    MG_CHECK_INT(hang_timeout_resume(t), MG_ERROR_ESTATE);
    MG_CHECK_INT(hang_timeout_observe(t, 0, 7, &v), MG_ERROR_OK);
    MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(v.suspicions, 1);
    hang_timeout_destroy(t);
}

static void sets_alternate_like_the_model(void)
{
    struct hang_timeout_params p;
    hang_timeout_params_default(&p);
    struct hang_timeout *t;
    MG_CHECK_INT(hang_timeout_create(&p, 1000, 2, &t), MG_ERROR_OK);
    const int *r;
    size_t n;
    MG_CHECK_INT(hang_timeout_sampled(t, &r, &n), MG_ERROR_OK);
    MG_CHECK_INT(n, 10);
    int first = r[0];
    struct hang_verdict v;
    for (int i = 0; i < 30; i++)
        MG_CHECK_INT(hang_timeout_observe(t, 5, i, &v), MG_ERROR_OK);
    MG_CHECK_INT(hang_timeout_sampled(t, &r, &n), MG_ERROR_OK);
    MG_CHECK(r[0] != first);
    hang_timeout_destroy(t);
    /* few ranks: sets of 2, so "low" is 0 of 2 (1 of 2 = 0.5 is not low) */
    MG_CHECK_INT(hang_timeout_create(&p, 4, 2, &t), MG_ERROR_OK);
    MG_CHECK_INT(hang_timeout_sampled(t, &r, &n), MG_ERROR_OK);
    MG_CHECK_INT(n, 2);
    MG_CHECK_INT(hang_timeout_observe(t, 1, 0, &v), MG_ERROR_OK);
    MG_CHECK_INT(v.kind, HANG_VERDICT_NORMAL);
    MG_CHECK_INT(hang_timeout_observe(t, 0, 1, &v), MG_ERROR_OK);
    MG_CHECK_INT(v.kind, HANG_VERDICT_SUSPICIOUS);
    MG_CHECK_INT(hang_timeout_observe(t, 3, 2, &v), MG_ERROR_EINVAL);
    hang_timeout_destroy(t);
}

static void bad_arguments(void)
{
    struct hang_timeout_params p, q;
    hang_timeout_params_default(&p);
    struct hang_timeout *t = NULL;
    MG_CHECK_INT(hang_timeout_create(NULL, 10, 1, &t), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_create(&p, 0, 1, &t), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_create(&p, (size_t)INT_MAX + 1, 1, &t), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_create(&p, 10, 1, NULL), MG_ERROR_EINVAL);
    q = p, q.interval = 0;
    MG_CHECK_INT(hang_timeout_create(&q, 10, 1, &t), MG_ERROR_EINVAL);
    q = p, q.k = 0;
    MG_CHECK_INT(hang_timeout_create(&q, 10, 1, &t), MG_ERROR_EINVAL);
    q = p, q.low_fraction = 1.0;
    MG_CHECK_INT(hang_timeout_create(&q, 10, 1, &t), MG_ERROR_EINVAL);
    q = p, q.set_size = 0;
    MG_CHECK_INT(hang_timeout_create(&q, 10, 1, &t), MG_ERROR_EINVAL);
    q = p, q.switch_every = 0;
    MG_CHECK_INT(hang_timeout_create(&q, 10, 1, &t), MG_ERROR_EINVAL);
    MG_CHECK(t == NULL);
    MG_CHECK_INT(hang_timeout_create(&p, 100, 1, &t), MG_ERROR_OK);
    struct hang_verdict v;
    double d;
    const int *r;
    size_t n;
    MG_CHECK_INT(hang_timeout_observe(t, 1, 2.0, &v), MG_ERROR_OK);
    MG_CHECK_INT(hang_timeout_observe(t, 1, 1.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_observe(t, 11, 3.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_observe(t, 1, 3.0, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_observe(NULL, 1, 3.0, &v), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_next_delay(t, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_next_delay(NULL, &d), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_sampled(t, &r, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_sampled(NULL, &r, &n), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_timeout_resume(NULL), MG_ERROR_EINVAL);
    hang_timeout_destroy(t);
    hang_timeout_destroy(NULL);
}

int main(void)
{
    MG_RUN(defaults_are_table_1_second_row);
    MG_RUN(k_low_observations_make_a_hang);
    MG_RUN(sets_alternate_like_the_model);
    MG_RUN(bad_arguments);
    MG_TEST_END();
}
