/* Detector D and the recovery of Eq. 4.9-4.11, exhaustively: layouts generated in 64 bits,
 * truncated to int as an application would store them, recovered and compared; and the user errors
 * no wrap explains (docs/collectives-engine.md §2). */
#include <limits.h>
#include <stdlib.h>

#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"
#include "scaling_displ.h"

enum { MAXP = 1024, RANDOM_LAYOUTS = 60000, SENTINEL = 0x5a };

static int trunc32(int64_t v)
{
    return (int)(int32_t)(uint32_t)(uint64_t)v;
}

/* Truncates true[0..P) and checks the detector's verdict and recovery against it. */
static int roundtrip(const int *counts, const int64_t *truth, uint32_t P, unsigned flags)
{
    static int displs[MAXP];
    static int64_t got[MAXP];
    int wrapped = 0, negative = 0;
    for (uint32_t i = 0; i < P; i++) {
        displs[i] = trunc32(truth[i]);
        wrapped |= truth[i] > INT_MAX;
        negative |= displs[i] < 0;
    }
    memset(got, SENTINEL, sizeof got);
    scaling_displ_result r;
    if (scaling_displ_check(counts, displs, P, 8, flags, got, &r) != 0)
        return 0;
    if (!negative) {
        /* Clean: no wrap can hide behind non-negative values (steps <= INT_MAX), no scratch write.
         */
        return !wrapped && r.verdict == SCALING_DISPL_CLEAN &&
               ((unsigned char *)got)[0] == SENTINEL;
    }
    if (r.verdict != SCALING_DISPL_OVERFLOW)
        return 0;
    uint32_t first = P;
    for (uint32_t i = 0; i < P && first == P; i++)
        if (displs[i] < 0)
            first = i;
    if (r.index != first)
        return 0;
    int64_t extent = 0;
    for (uint32_t i = 0; i < P; i++) {
        if (got[i] != truth[i])
            return 0;
        int64_t end = truth[i] + (counts ? counts[i] : 0);
        extent = end > extent ? end : extent;
    }
    return r.extent_elems == extent;
}

/* A random layout: counts from a mix of scales, gaps such that every step stays <= INT_MAX. */
static uint32_t random_layout(mg_rng *rng, int *counts, int64_t *truth)
{
    static const uint32_t sizes[] = {1, 2, 3, 4, 7, 16, 64, 255, 1024};
    uint32_t P = sizes[mg_rng_below(rng, 9)];
    int scale = (int)mg_rng_below(rng, 4);
    int64_t at = (int64_t)mg_rng_below(rng, (uint64_t)INT_MAX + 1);
    if (mg_rng_below(rng, 2))
        at = (int64_t)mg_rng_below(rng, 1000);
    for (uint32_t i = 0; i < P; i++) {
        int64_t c;
        switch (scale) {
        case 0:
            c = (int64_t)mg_rng_below(rng, 10);
            break;
        case 1:
            c = (int64_t)mg_rng_below(rng, 1u << 24);
            break;
        case 2:
            c = INT_MAX - (int64_t)mg_rng_below(rng, 1000);
            break;
        default:
            c = (int64_t)mg_rng_below(rng, (uint64_t)INT_MAX + 1);
            break;
        }
        if (mg_rng_below(rng, 6) == 0)
            c = 0;
        counts[i] = (int)c;
        truth[i] = at;
        int64_t room = INT_MAX - c;
        int64_t gap = mg_rng_below(rng, 3) == 0 ? (int64_t)mg_rng_below(rng, (uint64_t)room + 1)
                                                : 0;
        at += c + gap;
    }
    return P;
}

static void test_random_layouts(void)
{
    static int counts[MAXP];
    static int64_t truth[MAXP];
    mg_rng rng;
    mg_rng_seed(&rng, 4242);
    int bad = 0, overflowed = 0;
    uint32_t most_wraps = 0;
    for (int k = 0; k < RANDOM_LAYOUTS; k++) {
        uint32_t P = random_layout(&rng, counts, truth);
        if (!roundtrip(counts, truth, P, SCALING_DISPL_DISJOINT))
            bad++;
        overflowed += truth[P - 1] > INT_MAX;
        uint32_t w = (uint32_t)((truth[P - 1] + ((int64_t)1 << 31)) >> 32);
        most_wraps = w > most_wraps ? w : most_wraps;
    }
    MG_CHECK_INT(bad, 0);
    MG_CHECK(overflowed > RANDOM_LAYOUTS / 4);
    MG_CHECK(most_wraps >= 100); /* several wraps in one array are exercised, not just one */
}

/* Every 4-rank layout whose steps come from a grid of boundary values, uniform counts equal to the
 * step (packed) and from zero counts (gaps only). */
static void test_grid_layouts(void)
{
    static const int64_t steps[] = {0, 1, 2, (1 << 30), INT_MAX - 1, INT_MAX};
    static const int64_t starts[] = {0, 1, INT_MAX - 1, INT_MAX};
    enum { NS = 6, NST = 4 };
    int bad = 0, cases = 0;
    for (int s0 = 0; s0 < NST; s0++)
        for (int a = 0; a < NS; a++)
            for (int b = 0; b < NS; b++)
                for (int c = 0; c < NS; c++)
                    for (int packed = 0; packed < 2; packed++) {
                        int64_t truth[4] = {starts[s0], 0, 0, 0};
                        truth[1] = truth[0] + steps[a];
                        truth[2] = truth[1] + steps[b];
                        truth[3] = truth[2] + steps[c];
                        int counts[4] = {0, 0, 0, 0};
                        if (packed) {
                            counts[0] = (int)steps[a];
                            counts[1] = (int)steps[b];
                            counts[2] = (int)steps[c];
                        }
                        cases++;
                        bad += !roundtrip(counts, truth, 4, SCALING_DISPL_DISJOINT);
                    }
    MG_CHECK_INT(cases, 4 * 6 * 6 * 6 * 2);
    MG_CHECK_INT(bad, 0);
}

/* The paper's Gatherv: 1024 ranks of 3 MiB each overflow at rank 683. */
static void test_packed_uniform(void)
{
    static int counts[1024], displs[1024];
    static int64_t got[1024];
    int64_t at = 0;
    for (int i = 0; i < 1024; i++) {
        counts[i] = 3 << 20;
        displs[i] = trunc32(at);
        at += counts[i];
    }
    scaling_displ_result r;
    MG_CHECK_INT(scaling_displ_check(counts, displs, 1024, 1, SCALING_DISPL_DISJOINT, got, &r), 0);
    MG_CHECK_INT(r.verdict, SCALING_DISPL_OVERFLOW);
    MG_CHECK_INT(r.index, 683); /* 683 * 3 MiB = 2049 MiB > INT_MAX: the first negative */
    MG_CHECK_INT(r.wraps, 1);   /* 1023 * 3 MiB = 3069 MiB < 2^31 + 2^32: one wrap */
    MG_CHECK_INT(got[1023], 1023LL * (3 << 20));
    MG_CHECK_INT(r.max_count, 3 << 20);
    MG_CHECK_INT(r.total_count, 1024LL * (3 << 20));
    MG_CHECK_INT(r.extent_elems, 1024LL * (3 << 20));
}

static void expect_error(const int *counts, const int *displs, uint32_t P, uint64_t extent,
                         unsigned flags, scaling_displ_reason reason, uint32_t index)
{
    int64_t got[8];
    scaling_displ_result r;
    MG_CHECK_INT(scaling_displ_check(counts, displs, P, extent, flags, got, &r), 0);
    MG_CHECK_INT(r.verdict, SCALING_DISPL_USER_ERROR);
    MG_CHECK_INT(r.reason, reason);
    MG_CHECK_INT(r.index, index);
}

static void test_user_errors(void)
{
    int c3[3] = {1, -4, 1}, z3[3] = {0, 0, 0};
    int d_ok[3] = {0, 1, 2};
    expect_error(c3, d_ok, 3, 1, 0, SCALING_DISPL_NEGATIVE_COUNT, 1);
    /* Negative first displacement: no earlier value tells how many wraps happened. */
    int d_first[3] = {-5, 0, 1};
    expect_error(z3, d_first, 3, 1, 0, SCALING_DISPL_NEGATIVE_FIRST, 0);
    /* A small decrease is a real descending layout, not a wrap (which drops by more than 2^31). */
    int d_desc[3] = {0, -5, -10};
    expect_error(z3, d_desc, 3, 1, 0, SCALING_DISPL_DESCENDING, 1);
    /* After a wrap, a jump of almost 2^32 upwards matches no step <= INT_MAX. */
    int d_jump[4] = {0, 100, -2147483600, 2147483000};
    expect_error(NULL, d_jump, 4, 1, 0, SCALING_DISPL_BIG_STEP, 3);
    /* Receive segments that overlap after recovery. */
    int c_ov[2] = {20, 1}, d_ov[2] = {2147483640, -2147483646};
    expect_error(c_ov, d_ov, 2, 1, SCALING_DISPL_DISJOINT, SCALING_DISPL_OVERLAP, 1);
    /* ... which a send side may do. */
    int64_t got[2];
    scaling_displ_result r;
    MG_CHECK_INT(scaling_displ_check(c_ov, d_ov, 2, 1, 0, got, &r), 0);
    MG_CHECK_INT(r.verdict, SCALING_DISPL_OVERFLOW);
    MG_CHECK_INT(got[1], 2147483650LL);
    /* Byte offsets past int64 with a huge extent. */
    int d_far[2] = {2147483000, -2147483000};
    expect_error(NULL, d_far, 2, (uint64_t)1 << 40, 0, SCALING_DISPL_TOO_FAR, 1);
}

static void test_arguments(void)
{
    int c[2] = {1, 1}, d[2] = {0, 1}, neg[2] = {2147483000, -2147483000};
    int64_t got[2];
    scaling_displ_result r;
    MG_CHECK_INT(scaling_displ_check(c, NULL, 2, 1, 0, got, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_displ_check(c, d, 0, 1, 0, got, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_displ_check(c, d, 2, 0, 0, got, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_displ_check(c, d, 2, 1, 0, got, NULL), MG_ERROR_EINVAL);
    /* No scratch is needed until a displacement is negative. */
    MG_CHECK_INT(scaling_displ_check(c, d, 2, 1, 0, NULL, &r), 0);
    MG_CHECK_INT(r.verdict, SCALING_DISPL_CLEAN);
    MG_CHECK_INT(r.extent_elems, 2);
    MG_CHECK_INT(scaling_displ_check(c, neg, 2, 1, 0, NULL, &r), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(test_packed_uniform);
    MG_RUN(test_user_errors);
    MG_RUN(test_arguments);
    MG_RUN(test_grid_layouts);
    MG_RUN(test_random_layouts);
    MG_TEST_END();
}
