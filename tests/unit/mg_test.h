/* A minimal unit-test harness: each test is a function; checks record failures with file:line and
 * the program ends with the plain "N passed, N failed" line and a non-zero status on any failure.
 */
#ifndef MG_TEST_H
#define MG_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int mg_test_checks_failed;
static int mg_test_passed, mg_test_failed;

#define MG_CHECK(cond)                                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            mg_test_checks_failed++;                                                               \
        }                                                                                          \
    } while (0)

#define MG_CHECK_INT(actual, expected)                                                             \
    do {                                                                                           \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                            \
        if (a_ != e_) {                                                                            \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #actual, a_, \
                    e_);                                                                           \
            mg_test_checks_failed++;                                                               \
        }                                                                                          \
    } while (0)

#define MG_CHECK_NEAR(actual, expected, tol)                                                       \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (!(fabs(a_ - e_) <= (tol))) {                                                           \
            fprintf(stderr, "%s:%d: %s is %.10g, expected %.10g (+-%g)\n", __FILE__, __LINE__,     \
                    #actual, a_, e_, (double)(tol));                                               \
            mg_test_checks_failed++;                                                               \
        }                                                                                          \
    } while (0)

#define MG_CHECK_STR(actual, expected)                                                             \
    do {                                                                                           \
        const char *a_ = (actual), *e_ = (expected);                                               \
        if (!a_ || strcmp(a_, e_) != 0) {                                                          \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual, \
                    a_ ? a_ : "(null)", e_);                                                       \
            mg_test_checks_failed++;                                                               \
        }                                                                                          \
    } while (0)

#define MG_RUN(test_fn)                                                                            \
    do {                                                                                           \
        int before_ = mg_test_checks_failed;                                                       \
        test_fn();                                                                                 \
        if (mg_test_checks_failed == before_) {                                                    \
            mg_test_passed++;                                                                      \
        } else {                                                                                   \
            mg_test_failed++;                                                                      \
            fprintf(stderr, "FAIL %s\n", #test_fn);                                                \
        }                                                                                          \
    } while (0)

#define MG_TEST_END()                                                                              \
    do {                                                                                           \
        printf("%d passed, %d failed\n", mg_test_passed, mg_test_failed);                          \
        return mg_test_failed ? 1 : 0;                                                             \
    } while (0)

#endif
