/* Allocation failure in every constructor of the hang engine: the test binary wraps malloc/calloc
 * (linker --wrap) and fails the Nth allocation for N = 1, 2, ... until the call succeeds; each
 * failure must return MG_ERROR_ENOMEM, leave the output untouched and leak nothing (ASan build). */
#include <stdlib.h>

#include "hang_ecdf.h"
#include "hang_model.h"
#include "hang_sets.h"
#include "hang_timeout.h"
#include "hang_watch.h"
#include "mg_error.h"
#include "mg_test.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);

static long countdown = -1; /* allocations left before the failing one; -1: never fail */

static int should_fail(void)
{
    if (countdown < 0)
        return 0;
    return countdown-- == 0;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    return should_fail() ? NULL : __real_calloc(n, m);
}

/* Runs attempt() with the k-th allocation failing, k = 0, 1, ...; returns how many failed. */
static int fail_each(int (*attempt)(void))
{
    for (long k = 0; k < 64; k++) {
        countdown = k;
        int rc = attempt();
        int exhausted = countdown >= 0; /* the call made fewer than k + 1 allocations */
        countdown = -1;
        if (rc == MG_ERROR_OK && exhausted)
            return (int)k;
        MG_CHECK_INT(rc, MG_ERROR_ENOMEM);
        if (rc == MG_ERROR_OK)
            return -1;
    }
    return -1;
}

static size_t model_ranks;

static int model_attempt(void)
{
    struct hang_model_params p;
    hang_model_params_default(&p);
    struct hang_model *m = NULL;
    int rc = hang_model_create(&p, model_ranks, 1, &m);
    MG_CHECK((rc == MG_ERROR_OK) == (m != NULL));
    hang_model_destroy(m);
    return rc;
}

static int timeout_attempt(void)
{
    struct hang_timeout_params p;
    hang_timeout_params_default(&p);
    struct hang_timeout *t = NULL;
    int rc = hang_timeout_create(&p, 1000, 1, &t);
    MG_CHECK((rc == MG_ERROR_OK) == (t != NULL));
    hang_timeout_destroy(t);
    return rc;
}

static int ecdf_attempt(void)
{
    struct hang_ecdf e = {0};
    int rc = hang_ecdf_init(&e, 11);
    MG_CHECK((rc == MG_ERROR_OK) == (e.weight != NULL));
    hang_ecdf_free(&e);
    return rc;
}

static int watch_attempt(void)
{
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    struct hang_watch_detector det = hang_watch_detector_model(NULL); /* never called by create */
    struct hang_watch *w = NULL;
    int rc = hang_watch_create(&p, &det, 1000, &w);
    MG_CHECK((rc == MG_ERROR_OK) == (w != NULL));
    hang_watch_destroy(w);
    return rc;
}

static void every_allocation_failure_is_reported(void)
{
    /* model: itself, the sets (struct, ranks), the ECDF, the runs window, the pending buffer */
    model_ranks = 1000000;
    MG_CHECK_INT(fail_each(model_attempt), 6);
    /* few ranks: the sets also allocate their shuffle scratch */
    model_ranks = 30;
    MG_CHECK_INT(fail_each(model_attempt), 7);
    /* timeout: itself, the sets (struct, ranks) */
    MG_CHECK_INT(fail_each(timeout_attempt), 3);
    MG_CHECK_INT(fail_each(ecdf_attempt), 1);
    /* watch: itself, the still reference and previous scan, the scans, the view, the CPU marks,
     * records and conduct, the faulty ranks, the polling holds, the own time summed and owed,
     * the ranks read inside MPI */
    MG_CHECK_INT(fail_each(watch_attempt), 13);
}

int main(void)
{
    MG_RUN(every_allocation_failure_is_reported);
    MG_TEST_END();
}
