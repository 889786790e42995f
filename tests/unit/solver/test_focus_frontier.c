/* Unit tests of the frontier focus rule (focus_frontier.h, docs/design/concolic-solver.md §6.1) on
 * hand-built coverage: arm 2b+1 is branch b's true arm, 2b its false arm. */
#include <stdint.h>

#include "coverage_set.h"
#include "focus_frontier.h"
#include "mg_error.h"
#include "mg_test.h"

static coverage_set set_of(const uint32_t *arms, size_t n)
{
    coverage_set s;
    coverage_set_init(&s);
    MG_CHECK_INT(coverage_set_add(&s, arms, n), 0);
    return s;
}

/* The shape that left histogram's report uncovered: branches 0 and 1 (input checks) are met by
 * every rank, both arms covered; branch 2 (`report == 0`, only the root reaches it) has its true
 * arm covered and its false arm not. The search's focus is rank 1, whose heavy path never holds
 * branch 2: the rule moves the focus to the root, and back off it once a heavy run on it has
 * logged the branch. */
static void test_root_only_arm(void)
{
    uint32_t both[] = {0, 1, 2, 3}, root[] = {0, 1, 2, 3, 5};
    coverage_set common = set_of(both, 4), on_root = set_of(root, 5), covered = set_of(root, 5);
    focus_frontier f = {0};
    MG_CHECK_INT(focus_frontier_observe(&f, 1, &common, 1), 0); /* rank 1 was the focus */
    MG_CHECK_INT(focus_frontier_observe(&f, 0, &on_root, 0), 0);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 0), 1);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 1), 0);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 2, 1), 0);
    /* np 1 is all the next run has: rank 0 either way */
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 1, 1), 0);
    /* a heavy run on the root logged branch 2: nothing left that only a focus change can give */
    MG_CHECK_INT(focus_frontier_observe(&f, 0, &on_root, 1), 0);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 0), 0);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 2, 1), 1);
    coverage_set_free(&common);
    coverage_set_free(&on_root);
    coverage_set_free(&covered);
    focus_frontier_free(&f);
    MG_CHECK_INT(f.nranks, 0);
}

/* Scores count arms whose sibling nobody covered; covering the sibling removes the arm. */
static void test_sibling_covered(void)
{
    uint32_t r2[] = {1, 3, 7}, cov[] = {1, 3, 7};
    coverage_set a = set_of(r2, 3), covered = set_of(cov, 3);
    focus_frontier f = {0};
    MG_CHECK_INT(focus_frontier_observe(&f, 2, &a, 0), 0);
    MG_CHECK_INT(f.nranks, 3);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 2), 3);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 0), 0); /* seen, nothing reached */
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 9), 0); /* never seen */
    uint32_t more[] = {0, 6};
    MG_CHECK_INT(coverage_set_add(&covered, more, 2), 0); /* branches 0 and 3 now both ways */
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 2), 1);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 3, 0), 2);
    /* a rank at or past np is not a candidate */
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 2, 1), 1);
    /* nothing anywhere and prev past np: rank 0 */
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 2, 5), 0);
    coverage_set_free(&a);
    coverage_set_free(&covered);
    focus_frontier_free(&f);
}

/* Ties keep prev when it is among the best, else go to the lowest rank; a higher score wins. */
static void test_ties(void)
{
    uint32_t one[] = {9}, two[] = {9, 11};
    coverage_set s1 = set_of(one, 1), s2 = set_of(two, 2), covered = set_of(two, 2);
    focus_frontier f = {0};
    MG_CHECK_INT(focus_frontier_observe(&f, 1, &s1, 0), 0);
    MG_CHECK_INT(focus_frontier_observe(&f, 3, &s1, 0), 0);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 4, 3), 3);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 4, 0), 1);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 4, 2), 1);
    MG_CHECK_INT(focus_frontier_observe(&f, 2, &s2, 0), 0);
    MG_CHECK_INT(focus_frontier_pick(&f, &covered, 4, 3), 2);
    /* observing the same arms again changes nothing */
    MG_CHECK_INT(focus_frontier_observe(&f, 2, &s2, 0), 0);
    MG_CHECK_INT(focus_frontier_score(&f, &covered, 2), 2);
    MG_CHECK_INT(focus_frontier_observe(&f, UINT32_MAX, &s1, 0), MG_ERROR_EINVAL);
    coverage_set_free(&s1);
    coverage_set_free(&s2);
    coverage_set_free(&covered);
    focus_frontier_free(&f);
}

int main(void)
{
    MG_RUN(test_root_only_arm);
    MG_RUN(test_sibling_covered);
    MG_RUN(test_ties);
    MG_TEST_END();
}
