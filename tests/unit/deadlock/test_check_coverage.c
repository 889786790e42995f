/* Unit tests of check_coverage (what `mpiguard check` concludes of the ranks it observed once the
 * job ended, and how long it waits for the agents' streams), with made-up counts and times. */
#include "check_coverage.h"
#include "mg_test.h"

#define S 1000000000ULL

/* On one node the observation's own verdicts stand: 3 of 4 observed, 1 found blind. */
static void one_node_keeps_the_verdicts(void)
{
    check_coverage c = check_coverage_of(4, 4, 3, 1, 0);
    MG_CHECK_INT(c.blind, 1);
    MG_CHECK_INT(c.unreported, 0);
    MG_CHECK_INT(c.nothing_seen, 0);
}

/* Across nodes a rank no agent reported is as blind as one found blind: 8 ranks, 5 observed, 1
 * found blind, 2 never reported. */
static void across_nodes_an_unreported_rank_is_blind(void)
{
    check_coverage c = check_coverage_of(8, 8, 5, 1, 1);
    MG_CHECK_INT(c.unreported, 2);
    MG_CHECK_INT(c.blind, 3);
    MG_CHECK_INT(c.nothing_seen, 0);
}

/* A job of which nothing was seen is never clean: one blind rank at least, on one node or many. */
static void nothing_seen_is_not_clean(void)
{
    for (int across = 0; across < 2; across++) {
        check_coverage c = check_coverage_of(0, 0, 0, 0, across);
        MG_CHECK_INT(c.nothing_seen, 1);
        MG_CHECK_INT(c.blind, 1);
        MG_CHECK_INT(c.unreported, 0);
    }
    /* ranks found by the session but none sent its world size: seen, so not "nothing seen" */
    check_coverage c = check_coverage_of(0, 2, 0, 2, 0);
    MG_CHECK_INT(c.nothing_seen, 0);
    MG_CHECK_INT(c.blind, 2);
}

/* The streams are waited for until they ended, for 30 s at most. */
static void streams_waited_for_30_s(void)
{
    MG_CHECK_INT(check_coverage_wait_streams(10 * S, 10 * S, 0), 1);
    MG_CHECK_INT(check_coverage_wait_streams(10 * S, 40 * S - 1, 0), 1);
    MG_CHECK_INT(check_coverage_wait_streams(10 * S, 40 * S, 0), 0);
    MG_CHECK_INT(check_coverage_wait_streams(10 * S, 11 * S, 1), 0);
}

int main(void)
{
    MG_RUN(one_node_keeps_the_verdicts);
    MG_RUN(across_nodes_an_unreported_rank_is_blind);
    MG_RUN(nothing_seen_is_not_clean);
    MG_RUN(streams_waited_for_30_s);
    MG_TEST_END();
}
