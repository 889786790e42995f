/* Unit tests of the search strategies over a simulated execution tree (docs/concolic-solver.md
 * §7; dissertation §2.2.2). The simulated program has one branch per input bit, in order, so a
 * path is the bit string and negating constraint k flips bit k and keeps the rest (the values
 * of variables outside the slice are kept, as the solver does). */
#include <stdint.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "search_strategy.h"

#define BITS 3
#define MAX_LEVELS 16

static void path_of(uint32_t input, uint32_t n, search_step *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = (search_step){i, (uint8_t)((input >> i) & 1)};
}

/* Drives a DFS-like strategy to exhaustion; returns the number of runs; seen[input] counts
 * visits. The caller keeps one input per stack level, as a driver keeps one log per level. */
static int drive(search_state *s, uint32_t nbits, int seen[1 << BITS], uint32_t max_runs)
{
    uint32_t inputs[MAX_LEVELS];
    search_step path[BITS];
    inputs[0] = 0;
    path_of(0, nbits, path);
    MG_CHECK_INT(search_observe(s, path, nbits), 0);
    seen[0]++;
    int runs = 1;
    for (uint32_t guard = 0; guard < max_runs; guard++) {
        search_choice c;
        MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
        if (c.exhausted)
            return runs;
        MG_CHECK(c.level < MAX_LEVELS - 1);
        uint32_t next = inputs[c.level] ^ (1u << c.index);
        inputs[c.level + 1] = next;
        path_of(next, nbits, path);
        MG_CHECK_INT(search_observe(s, path, nbits), 0);
        seen[next]++;
        runs++;
    }
    return -1;
}

static void test_dfs_visits_every_path_once(void)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_DFS;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    int seen[1 << BITS] = {0};
    MG_CHECK_INT(drive(s, BITS, seen, 100), 1 << BITS);
    for (int i = 0; i < 1 << BITS; i++)
        MG_CHECK_INT(seen[i], 1);
    MG_CHECK_INT(search_bound(s), 0);
    search_choice c;
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    search_destroy(s);
}

/* The DFS order itself: 000, then 100, 110, 111, 101, then 010, 011, then 001. */
static void test_dfs_order(void)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_DFS;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    static const uint32_t expect_level[7] = {0, 1, 2, 1, 0, 1, 0};
    static const uint32_t expect_index[7] = {0, 1, 2, 2, 1, 2, 2};
    uint32_t inputs[MAX_LEVELS] = {0};
    search_step path[BITS];
    path_of(0, BITS, path);
    search_observe(s, path, BITS);
    for (int i = 0; i < 7; i++) {
        search_choice c;
        MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
        MG_CHECK_INT(c.exhausted, 0);
        MG_CHECK_INT(c.level, expect_level[i]);
        MG_CHECK_INT(c.index, expect_index[i]);
        inputs[c.level + 1] = inputs[c.level] ^ (1u << c.index);
        path_of(inputs[c.level + 1], BITS, path);
        search_observe(s, path, BITS);
    }
    search_destroy(s);
}

/* A fixed bound of 2 never negates constraint 2: 4 of the 8 paths. Skipped choices (an
 * unsatisfiable negation: no observe) move on. */
static void test_bounded_and_skips(void)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_BOUNDED_DFS;
    p.fixed_bound = 2;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    int seen[1 << BITS] = {0};
    MG_CHECK_INT(drive(s, BITS, seen, 100), 4);
    MG_CHECK_INT(seen[4], 0);
    MG_CHECK_INT(seen[3], 1);
    search_destroy(s);

    MG_CHECK_INT(search_create(&p, &s), 0);
    search_step path[BITS];
    path_of(0, BITS, path);
    search_observe(s, path, BITS);
    search_choice c;
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.index, 0);
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0); /* 0 was unsatisfiable */
    MG_CHECK_INT(c.index, 1);
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    search_destroy(s);
}

/* Phase one is plain DFS for dfs_phase_runs runs; then the bound is the longest path rounded
 * up to a multiple of bound_round, strictly above it. */
static void test_two_phases(void)
{
    search_params p;
    search_params_default(&p);
    p.dfs_phase_runs = 3;
    p.bound_round = 4;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    search_step path[10];
    path_of(0, 10, path);
    MG_CHECK_INT(search_observe(s, path, 5), 0);
    MG_CHECK_INT(search_bound(s), 0);
    search_choice c;
    search_next(s, NULL, NULL, NULL, &c);
    MG_CHECK_INT(search_observe(s, path, 8), 0); /* the longest: 8 */
    MG_CHECK_INT(search_bound(s), 0);
    search_next(s, NULL, NULL, NULL, &c);
    MG_CHECK_INT(search_observe(s, path, 6), 0);
    MG_CHECK_INT(search_bound(s), 12); /* 8 rounded up strictly: 12 */
    search_next(s, NULL, NULL, NULL, &c);
    MG_CHECK_INT(search_observe(s, path, 10), 0); /* phase two: the bound stays */
    MG_CHECK_INT(search_bound(s), 12);
    search_destroy(s);

    /* the defaults: 50 phase-one runs, multiples of 100 */
    search_params_default(&p);
    MG_CHECK_INT(search_create(&p, &s), 0);
    for (int i = 0; i < 50; i++) {
        MG_CHECK_INT(search_bound(s), 0);
        search_observe(s, path, i == 10 ? 7 : 3);
    }
    MG_CHECK_INT(search_bound(s), 100);
    search_destroy(s);
}

#define RPATH 6

static void test_random_strategies(void)
{
    for (int kind = SEARCH_RANDOM_BRANCH; kind <= SEARCH_UNIFORM_RANDOM; kind++) {
        search_params p;
        search_params_default(&p);
        p.kind = kind;
        search_state *s;
        MG_CHECK_INT(search_create(&p, &s), 0);
        mg_rng rng;
        mg_rng_seed(&rng, 11);
        search_step path[RPATH];
        path_of(0, RPATH, path);
        search_observe(s, path, RPATH);
        int chosen[RPATH] = {0};
        search_choice c;
        for (int i = 0; i < RPATH; i++) {
            MG_CHECK_INT(search_next(s, NULL, NULL, &rng, &c), 0);
            MG_CHECK_INT(c.exhausted, 0);
            MG_CHECK_INT(c.level, 0);
            MG_CHECK(c.index < RPATH);
            chosen[c.index % RPATH]++;
        }
        for (int i = 0; i < RPATH; i++)
            MG_CHECK_INT(chosen[i], 1);
        MG_CHECK_INT(search_next(s, NULL, NULL, &rng, &c), 0);
        MG_CHECK_INT(c.exhausted, 1);
        /* a new path starts afresh */
        MG_CHECK_INT(search_observe(s, path, RPATH), 0);
        MG_CHECK_INT(search_next(s, NULL, NULL, &rng, &c), 0);
        MG_CHECK_INT(c.exhausted, 0);
        MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), MG_EINVAL);
        search_destroy(s);
    }
}

/* Path 0T 1T 2T. 2F is uncovered (score 0); 1F is 1 branch from an uncovered one; 0F none. */
static void test_cfg(void)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_CFG;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    mg_rng rng;
    mg_rng_seed(&rng, 3);
    search_step path[3];
    path_of(7, 3, path);
    coverage_set cov;
    coverage_set_init(&cov);
    uint32_t arms[5] = {coverage_arm(0, 1), coverage_arm(0, 0), coverage_arm(1, 1),
                        coverage_arm(1, 0), coverage_arm(2, 1)};
    coverage_set_add(&cov, arms, 5);
    uint32_t dist[6];
    for (int i = 0; i < 6; i++)
        dist[i] = 5;
    dist[coverage_arm(0, 0)] = UINT32_MAX;
    dist[coverage_arm(1, 0)] = 1;
    search_cfg cfg = {dist, 6};
    search_choice c;
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), MG_ESTATE);
    search_observe(s, path, 3);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 2);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 1);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    MG_CHECK_INT(search_next(s, &cov, NULL, &rng, &c), MG_EINVAL);
    MG_CHECK_INT(search_next(s, NULL, &cfg, &rng, &c), MG_EINVAL);
    coverage_set_free(&cov);
    search_destroy(s);
}

static void test_bad_params(void)
{
    search_params p;
    search_params_default(&p);
    search_state *s = NULL;
    p.kind = SEARCH_KIND_END;
    MG_CHECK_INT(search_create(&p, &s), MG_EINVAL);
    p.kind = SEARCH_DFS;
    p.bound_round = 0;
    MG_CHECK_INT(search_create(&p, &s), MG_EINVAL);
    MG_CHECK_INT(search_create(NULL, &s), MG_EINVAL);
    p.bound_round = 100;
    MG_CHECK_INT(search_create(&p, &s), 0);
    search_choice c;
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), MG_ESTATE);
    MG_CHECK_INT(search_observe(s, NULL, 3), MG_EINVAL);
    MG_CHECK_INT(search_observe(s, NULL, 0), 0); /* an empty path is a path */
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, NULL), MG_EINVAL);
    search_destroy(s);
    search_destroy(NULL);
}

int main(void)
{
    MG_RUN(test_dfs_visits_every_path_once);
    MG_RUN(test_dfs_order);
    MG_RUN(test_bounded_and_skips);
    MG_RUN(test_two_phases);
    MG_RUN(test_random_strategies);
    MG_RUN(test_cfg);
    MG_RUN(test_bad_params);
    MG_TEST_END();
}
