/* Unit tests of mg_array_reserve: each branch of the growth (first allocation, doubling, a need
 * far past double, the clamp at the largest size, overflow refusal) and a failed realloc, which
 * the test injects by wrapping realloc at link time (-Wl,--wrap=realloc). */
#include <stdint.h>
#include <stdlib.h>

#include "mg_array.h"
#include "mg_error.h"
#include "mg_test.h"

static int fail_next;       /* the next realloc returns NULL */
static int reallocs;        /* realloc calls seen */
static size_t last_request; /* bytes the last realloc asked for */

void *__real_realloc(void *p, size_t n);

void *__wrap_realloc(void *p, size_t n)
{
    reallocs++;
    last_request = n;
    if (fail_next) {
        fail_next = 0;
        return NULL;
    }
    return __real_realloc(p, n);
}

static void first_allocation_gets_the_minimum(void)
{
    int *a = NULL;
    size_t cap = 0;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, 0, sizeof *a), MG_ERROR_OK);
    MG_CHECK(a == NULL && cap == 0); /* nothing needed, nothing allocated */
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, 1, sizeof *a), MG_ERROR_OK);
    MG_CHECK(a != NULL);
    MG_CHECK_INT(cap, MG_ARRAY_MIN_CAP);
    free(a);
}

static void growth_doubles_and_keeps_the_contents(void)
{
    int *a = NULL;
    size_t cap = 0;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, MG_ARRAY_MIN_CAP, sizeof *a), MG_ERROR_OK);
    for (int i = 0; i < (int)cap; i++)
        a[i] = i;
    int before = reallocs;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, cap, sizeof *a), MG_ERROR_OK);
    MG_CHECK_INT(reallocs, before); /* a need within the capacity does not reallocate */
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, cap + 1, sizeof *a), MG_ERROR_OK);
    MG_CHECK_INT(cap, 2 * MG_ARRAY_MIN_CAP);
    int same = 1;
    for (int i = 0; i < (int)MG_ARRAY_MIN_CAP; i++)
        same &= a[i] == i;
    MG_CHECK(same);
    free(a);
}

static void need_far_above_double_rounds_up(void)
{
    int *a = NULL;
    size_t cap = 0;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, 1, sizeof *a), MG_ERROR_OK);
    int before = reallocs;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, 1000, sizeof *a), MG_ERROR_OK);
    MG_CHECK_INT(cap, 1024); /* 16 doubled until it holds 1000, in one realloc */
    MG_CHECK_INT(reallocs, before + 1);
    free(a);
}

static void overflow_is_refused_unchanged(void)
{
    int *a = NULL;
    size_t cap = 0;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, 4, sizeof *a), MG_ERROR_OK);
    int *kept = a;
    size_t kept_cap = cap;
    int before = reallocs;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, SIZE_MAX / sizeof *a + 1, sizeof *a),
                 MG_ERROR_ERANGE);
    MG_CHECK(a == kept && cap == kept_cap);
    MG_CHECK_INT(reallocs, before); /* refused before any allocation */
    free(a);
}

/* Doubling past the largest count stops at it; the (failing) realloc shows the size asked. */
static void growth_stops_at_the_largest_size(void)
{
    size_t elem = 8, max = SIZE_MAX / elem;
    void *a = NULL;
    size_t cap = max / 2 + 1;
    fail_next = 1;
    MG_CHECK_INT(mg_array_reserve(&a, &cap, cap + 1, elem), MG_ERROR_ENOMEM);
    MG_CHECK(last_request == max * elem);
    size_t huge = SIZE_MAX / 4; /* fewer than MG_ARRAY_MIN_CAP of these fit */
    cap = 0;
    fail_next = 1;
    MG_CHECK_INT(mg_array_reserve(&a, &cap, 1, huge), MG_ERROR_ENOMEM);
    MG_CHECK(last_request == (SIZE_MAX / huge) * huge);
    MG_CHECK(a == NULL && cap == 0);
}

static void failed_realloc_leaves_the_array(void)
{
    int *a = NULL;
    size_t cap = 0;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, MG_ARRAY_MIN_CAP, sizeof *a), MG_ERROR_OK);
    a[0] = 42;
    int *kept = a;
    fail_next = 1;
    MG_CHECK_INT(mg_array_reserve((void **)&a, &cap, cap + 1, sizeof *a), MG_ERROR_ENOMEM);
    MG_CHECK(a == kept);
    MG_CHECK_INT(cap, MG_ARRAY_MIN_CAP);
    MG_CHECK_INT(a[0], 42);
    free(a);
}

int main(void)
{
    MG_RUN(first_allocation_gets_the_minimum);
    MG_RUN(growth_doubles_and_keeps_the_contents);
    MG_RUN(need_far_above_double_rounds_up);
    MG_RUN(overflow_is_refused_unchanged);
    MG_RUN(growth_stops_at_the_largest_size);
    MG_RUN(failed_realloc_leaves_the_array);
    MG_TEST_END();
}
