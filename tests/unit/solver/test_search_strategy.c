/* Unit tests of the search strategies over a simulated execution tree
 * (docs/design/concolic-solver.md §7; dissertation §2.2.2). The simulated program has one branch
 * per input bit, in order, so a path is the bit string and negating constraint k flips bit k and
 * keeps the rest (the values of variables outside the slice are kept, as the solver does). */
#include <stdint.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "search_snapshot.h"
#include "search.h"

#include <stdlib.h>

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
        MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), MG_ERROR_EINVAL);
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
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), MG_ERROR_ESTATE);
    search_observe(s, path, 3);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 2);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 1);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    MG_CHECK_INT(search_next(s, &cov, NULL, &rng, &c), MG_ERROR_EINVAL);
    MG_CHECK_INT(search_next(s, NULL, &cfg, &rng, &c), MG_ERROR_EINVAL);
    coverage_set_free(&cov);
    search_destroy(s);
}

/* CREST's CFG search: a run that covers nothing new is searched below its path from after the
 * negated constraint, cfg_depth levels deep, and dropped beyond; one that covers something new
 * becomes the only path. */
static void test_cfg_levels(void)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_CFG;
    p.cfg_depth = 1;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    mg_rng rng;
    mg_rng_seed(&rng, 5);
    search_step path[4], other[4];
    path_of(15, 4, path); /* 0T 1T 2T 3T */
    coverage_set cov;
    coverage_set_init(&cov);
    uint32_t arms[7] = {0, 1, 2, 3, 5, 6, 7}; /* 2F (arm 4) uncovered */
    coverage_set_add(&cov, arms, 7);
    uint32_t dist[8] = {2, 5, 4, 5, 0, 5, 1, 5}; /* 0F at 2, 1F at 4, 3F at 1 */
    search_cfg cfg = {dist, 8};
    uint32_t level;
    search_choice c;
    MG_CHECK_INT(search_observe_run(s, path, 4, 1, &level), 0);
    MG_CHECK_INT(level, 0);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 2); /* 2F: uncovered */
    path_of(11, 4, other);    /* 0T 1T 2F 3T: nothing new, pushed, searched from constraint 3 */
    MG_CHECK_INT(search_observe_run(s, other, 4, 0, &level), 0);
    MG_CHECK_INT(level, 1);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.level, 1);
    MG_CHECK_INT(c.index, 3);                                    /* 3F at 1 */
    MG_CHECK_INT(search_observe_run(s, other, 4, 0, &level), 0); /* past the depth: dropped */
    MG_CHECK_INT(level, SEARCH_DISCARDED);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0); /* level 1 is spent: the base again */
    MG_CHECK_INT(c.level, 0);
    MG_CHECK_INT(c.index, 3);                                    /* the base's 3F at 1 */
    MG_CHECK_INT(search_observe_run(s, other, 4, 1, &level), 0); /* something new: the only path */
    MG_CHECK_INT(level, 0);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.level, 0);
    MG_CHECK_INT(c.index, 3);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0); /* skipped (unsatisfiable): 0F next */
    MG_CHECK_INT(c.index, 0);
    search_destroy(s);

    /* depth 0: a fruitless run is dropped at once */
    p.cfg_depth = 0;
    MG_CHECK_INT(search_create(&p, &s), 0);
    MG_CHECK_INT(search_observe_run(s, path, 4, 1, &level), 0);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(search_observe_run(s, other, 4, 0, &level), 0);
    MG_CHECK_INT(level, SEARCH_DISCARDED);
    MG_CHECK_INT(search_next(s, &cov, &cfg, &rng, &c), 0);
    MG_CHECK_INT(c.index, 3);
    search_destroy(s);

    /* bounded DFS ignores covered_new */
    search_params_default(&p);
    MG_CHECK_INT(search_create(&p, &s), 0);
    MG_CHECK_INT(search_observe_run(s, path, 4, 0, &level), 0);
    search_next(s, NULL, NULL, NULL, &c);
    MG_CHECK_INT(search_observe_run(s, other, 4, 0, &level), 0);
    MG_CHECK_INT(level, 1);
    coverage_set_free(&cov);
    search_destroy(s);
}

/* real_builds' library under loop reduction (§2.4.3), as tuning solves it: input n, a loop
 * `for (i = 0; i < n; i++)` (branch 0: its first test, then its exit, the only tests recorded)
 * and then `assert(n != bug)` (branch 1). The path of n >= 1 is (0 true, 0 false, 1 n != bug);
 * tuned, the negation of the exit (n <= trips) is n + 1, of the first test n = 0, and of the
 * assertion satisfiable only on the path of n = bug (the exit bounds n; from bug it is n = 1).
 * Returns the path's length. */
static uint32_t loop_path(uint32_t n, uint32_t bug, search_step *out)
{
    uint32_t k = 0;
    if (n > 0)
        out[k++] = (search_step){0, 1};
    out[k++] = (search_step){0, 0};
    out[k++] = (search_step){1, n != bug};
    return k;
}

/* The run of n: its arms covered, its path observed with whether it covered a new arm; returns
 * the level it was put at. */
static uint32_t loop_run(search_state *s, coverage_set *cov, uint32_t x, uint32_t bug)
{
    search_step path[3];
    uint32_t n = loop_path(x, bug, path), arms[3], level = 0;
    int fresh = 0;
    for (uint32_t i = 0; i < n; i++) {
        arms[i] = coverage_arm(path[i].branch_id, path[i].taken);
        fresh |= !coverage_set_contains(cov, arms[i]);
    }
    MG_CHECK_INT(coverage_set_add(cov, arms, n), 0);
    MG_CHECK_INT(search_observe_run(s, path, n, fresh, &level), 0);
    return level;
}

/* A DFS from n = 4 on that program, covering as a campaign does; *bug_run is the run of n = bug
 * (0: none). Returns the runs made before the search was exhausted (or max). */
static uint32_t loop_campaign(uint32_t max, uint32_t bug, uint32_t *bug_run)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_BOUNDED_DFS;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    coverage_set cov = {0};
    uint32_t inputs[64] = {4}, runs = 1;
    *bug_run = 0;
    loop_run(s, &cov, 4, bug);
    while (runs < max) {
        search_choice c;
        MG_CHECK_INT(search_next(s, &cov, NULL, NULL, &c), 0);
        if (c.exhausted)
            break;
        MG_CHECK(c.level < 63);
        uint32_t from = inputs[c.level];
        search_step was[3];
        MG_CHECK(c.index < loop_path(from, bug, was));
        if (was[c.index].branch_id == 1 && from != bug)
            continue; /* unsatisfiable: no run */
        uint32_t x = was[c.index].branch_id == 1 ? 1 : was[c.index].taken ? 0 : from + 1;
        inputs[loop_run(s, &cov, x, bug)] = x;
        runs++;
        if (x == bug && !*bug_run)
            *bug_run = runs;
    }
    coverage_set_free(&cov);
    search_destroy(s);
    return runs;
}

/* The exit a run folded into its parent's place is negated (n = 5, 6, 7: the assertion at run
 * 5), and only while an arm after it is uncovered: the loop is not lengthened past the bug. */
static void test_dfs_folded_loop_exit(void)
{
    uint32_t bug = 0, runs = loop_campaign(40, 7, &bug);
    MG_CHECK_INT(bug, 5);
    MG_CHECK(runs < 10);
}

/* An arm past the loop that no trip count reaches (the assertion holds for every n): after n = 4,
 * 0 and 5 the folded exit is negated twice in a row without new coverage (n = 6, 7), then the
 * search ends rather than lengthening the loop run after run (heat, runs 38-56); without the
 * bound it does to the run limit. */
static void test_dfs_folded_exit_barren(void)
{
    uint32_t bug = 0, runs = loop_campaign(40, UINT32_MAX, &bug);
    MG_CHECK_INT(bug, 0);
    MG_CHECK_INT(runs, 5);
}

/* One step of a driver over the simulated tree: choose, flip the bit, observe. inputs holds one
 * input per level, as a driver holds one log per level. Returns the choice (exhausted or not). */
static search_choice step(search_state *s, mg_rng *rng, const coverage_set *cov,
                          const search_cfg *cfg, uint32_t *inputs, uint32_t nbits)
{
    search_choice c;
    search_step path[8];
    MG_CHECK_INT(search_next(s, cov, cfg, rng, &c), 0);
    if (c.exhausted)
        return c;
    uint32_t next = inputs[c.level] ^ (1u << c.index), level = 0;
    path_of(next, nbits, path);
    MG_CHECK_INT(search_observe_run(s, path, nbits, (next & 1) == 0, &level), 0);
    if (level != SEARCH_DISCARDED)
        inputs[level] = next;
    return c;
}

/* A state restored from its snapshot makes the same choices as the original, to the end of the
 * tree, for every strategy (the rng is the caller's: copied with it). */
static void test_snapshot_continues(void)
{
    for (int kind = 0; kind < SEARCH_KIND_END; kind++) {
        search_params p;
        search_params_default(&p);
        p.kind = kind;
        p.dfs_phase_runs = 4;
        p.bound_round = 3;
        search_state *a, *b;
        MG_CHECK_INT(search_create(&p, &a), 0);
        mg_rng ra, rb;
        mg_rng_seed(&ra, 9);
        coverage_set cov;
        coverage_set_init(&cov);
        uint32_t dist[12] = {0}, ia[MAX_LEVELS] = {0}, ib[MAX_LEVELS];
        search_cfg cfg = {dist, 12};
        search_step path[5];
        path_of(0, 5, path);
        MG_CHECK_INT(search_observe(a, path, 5), 0);
        for (int i = 0; i < 6; i++)
            step(a, &ra, &cov, &cfg, ia, 5);
        char *text, *again;
        size_t len, len2;
        MG_CHECK_INT(search_snapshot_write(a, &text, &len), 0);
        MG_CHECK_INT(search_snapshot_read(text, len, &b), 0);
        MG_CHECK_INT(search_snapshot_kind_of(b), kind);
        MG_CHECK_INT(search_snapshot_write(b, &again, &len2), 0);
        MG_CHECK(len == len2 && !strcmp(text, again));
        free(text);
        free(again);
        rb = ra;
        memcpy(ib, ia, sizeof ia);
        int same = 1, steps = 0;
        for (; steps < 200; steps++) {
            search_choice ca = step(a, &ra, &cov, &cfg, ia, 5);
            search_choice cb = step(b, &rb, &cov, &cfg, ib, 5);
            same &= ca.exhausted == cb.exhausted && ca.level == cb.level && ca.index == cb.index;
            if (ca.exhausted)
                break;
        }
        MG_CHECK(same);
        MG_CHECK_INT(search_bound(a), search_bound(b));
        search_destroy(a);
        search_destroy(b);
        coverage_set_free(&cov);
    }
}

/* Parses text after replacing the first occurrence of from with to. */
static int read_edited(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    MG_CHECK(at != NULL);
    size_t n = strlen(text) + strlen(to) + 1;
    char *copy = malloc(n);
    snprintf(copy, n, "%.*s%s%s", (int)(at ? at - text : 0), text, to, at ? at + strlen(from) : "");
    search_state *s = NULL;
    int rc = search_snapshot_read(copy, strlen(copy), &s);
    search_destroy(s);
    free(copy);
    return rc;
}

static void test_snapshot_errors(void)
{
    search_params p;
    search_params_default(&p);
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    search_step path[3];
    path_of(5, 3, path);
    search_observe(s, path, 3);
    search_choice c;
    search_next(s, NULL, NULL, NULL, &c); /* pending: index 0 of level 0 */
    char *text;
    size_t len;
    MG_CHECK_INT(search_snapshot_write(s, &text, &len), 0);
    MG_CHECK(strstr(text, "params 1 50 100 0 3\nstate 1 3 0 1 0 1\nlevel 3 1\nsteps 0 1 1 0 2 "
                          "1\ntried 0 0 0\nend\n"));
    MG_CHECK_INT(read_edited(text, "search-snapshot 1", "search-snapshot 2"), MG_ERROR_EVERSION);
    MG_CHECK_INT(read_edited(text, "params 1", "params 9"), MG_ERROR_EFORMAT); /* no such kind */
    MG_CHECK_INT(read_edited(text, "state 1 3 0 1 0", "state 1 3 0 1 3"),
                 MG_ERROR_EFORMAT);                                              /* past the path */
    MG_CHECK_INT(read_edited(text, "level 3 1", "level 3 4"), MG_ERROR_EFORMAT); /* next past the path */
    MG_CHECK_INT(read_edited(text, "steps 0 1", "steps 0 2"), MG_ERROR_EFORMAT); /* taken is 0 or 1 */
    MG_CHECK_INT(read_edited(text, "level 3 1", "level 400000 1"),
                 MG_ERROR_EFORMAT); /* a count past the text */
    MG_CHECK_INT(read_edited(text, "end\n", "end\nx"), MG_ERROR_EFORMAT);
    MG_CHECK_INT(read_edited(text, "end\n", ""), MG_ERROR_EFORMAT);
    search_state *back = NULL;
    MG_CHECK_INT(search_snapshot_read(text, len / 2, &back), MG_ERROR_EFORMAT);
    MG_CHECK(back == NULL);
    MG_CHECK_INT(search_snapshot_write(NULL, &text, &len), MG_ERROR_EINVAL);
    free(text);
    search_destroy(s);
}

/* An uncovered-dfs search that has observed the all-zero path, with arms already covered. */
static search_state *uncovered_search_at_zero(const uint32_t *arms, size_t narms,
                                              coverage_set *cov)
{
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_UNCOVERED_DFS;
    search_state *s;
    MG_CHECK_INT(search_create(&p, &s), 0);
    coverage_set_init(cov);
    MG_CHECK_INT(coverage_set_add(cov, arms, narms), 0);
    search_step path[BITS];
    path_of(0, BITS, path);
    MG_CHECK_INT(search_observe(s, path, BITS), 0);
    return s;
}

/* Negations for uncovered arms first, nearest the top of the stack: from 000 with both arms of
 * branch 0 covered, constraint 1 (DFS takes 0 first), then on 010's level constraint 2; with
 * every arm covered, bounded DFS goes on from the cursors: constraint 2 of 000, and then the
 * search is over in 4 runs (DFS makes 8): constraint 0 of 000 was passed, its arm covered. */
static void test_uncovered_dfs(void)
{
    coverage_set cov;
    uint32_t arms[4] = {coverage_arm(0, 0), coverage_arm(0, 1), coverage_arm(1, 0),
                        coverage_arm(2, 0)};
    search_state *s = uncovered_search_at_zero(arms, 4, &cov);
    uint32_t inputs[MAX_LEVELS] = {0};
    search_step path[BITS];
    search_choice c;
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), MG_ERROR_EINVAL);
    static const uint32_t expect_level[3] = {0, 1, 0};
    static const uint32_t expect_index[3] = {1, 2, 2};
    for (int i = 0; i < 3; i++) {
        MG_CHECK_INT(search_next(s, &cov, NULL, NULL, &c), 0);
        MG_CHECK_INT(c.exhausted, 0);
        MG_CHECK_INT(c.level, expect_level[i]);
        MG_CHECK_INT(c.index, expect_index[i]);
        inputs[c.level + 1] = inputs[c.level] ^ (1u << c.index);
        path_of(inputs[c.level + 1], BITS, path);
        MG_CHECK_INT(search_observe(s, path, BITS), 0);
        for (uint32_t b = 0; b < BITS; b++) {
            uint32_t arm = coverage_arm(b, path[b].taken);
            MG_CHECK_INT(coverage_set_add(&cov, &arm, 1), 0);
        }
        if (i == 1) /* run 2 (input 110) covered the last arm: DFS order from here */
            MG_CHECK_INT((int)cov.n, 6);
    }
    MG_CHECK_INT(search_next(s, &cov, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    search_destroy(s);
    coverage_set_free(&cov);
}

/* A level whose untried negations all aim at covered arms is given up for one below it that
 * aims at an uncovered arm: the choice is made there and the stack shrinks to it. */
static void test_uncovered_dfs_goes_down(void)
{
    coverage_set cov;
    uint32_t arms[5] = {coverage_arm(0, 0), coverage_arm(0, 1), coverage_arm(1, 0),
                        coverage_arm(2, 0), coverage_arm(2, 1)};
    search_state *s = uncovered_search_at_zero(arms, 5, &cov);
    MG_CHECK_INT(search_choose(s, 0, 0), 0); /* as a leave would; its run skips branch 1 */
    search_step other[2] = {{0, 1}, {2, 1}};
    MG_CHECK_INT(search_observe(s, other, 2), 0);
    MG_CHECK_INT(search_depth(s), 2);
    search_choice c;
    MG_CHECK_INT(search_next(s, &cov, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.level, 0); /* 000's constraint 1, for arm (1, 1); the top's aims at (2, 0) */
    MG_CHECK_INT(c.index, 1);
    MG_CHECK_INT(search_depth(s), 1);
    search_destroy(s);
    coverage_set_free(&cov);
}

static void test_bad_params(void)
{
    search_params p;
    search_params_default(&p);
    search_state *s = NULL;
    p.kind = SEARCH_KIND_END;
    MG_CHECK_INT(search_create(&p, &s), MG_ERROR_EINVAL);
    p.kind = SEARCH_DFS;
    p.bound_round = 0;
    MG_CHECK_INT(search_create(&p, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(search_create(NULL, &s), MG_ERROR_EINVAL);
    p.bound_round = 100;
    MG_CHECK_INT(search_create(&p, &s), 0);
    search_choice c;
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), MG_ERROR_ESTATE);
    MG_CHECK_INT(search_observe(s, NULL, 3), MG_ERROR_EINVAL);
    MG_CHECK_INT(search_observe(s, NULL, 0), 0); /* an empty path is a path */
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, &c), 0);
    MG_CHECK_INT(c.exhausted, 1);
    MG_CHECK_INT(search_next(s, NULL, NULL, NULL, NULL), MG_ERROR_EINVAL);
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
    MG_RUN(test_cfg_levels);
    MG_RUN(test_uncovered_dfs);
    MG_RUN(test_uncovered_dfs_goes_down);
    MG_RUN(test_dfs_folded_loop_exit);
    MG_RUN(test_dfs_folded_exit_barren);
    MG_RUN(test_snapshot_continues);
    MG_RUN(test_snapshot_errors);
    MG_RUN(test_bad_params);
    MG_TEST_END();
}
