/* The end of the check watch: coverage and the wait for the streams (check_coverage.h). */
#include "check_coverage.h"

/* Agent processes end once their ranks' streams ended: what they still send is the end of the
 * job. Bounded, so an agent that never connected cannot hold mpiguard; one that died has closed
 * its connection already. 5 s once cut off a live agent on a machine at load 47 (a rank's records
 * lost); the bound only costs time when an agent is missing. */
#define STREAMS_WAIT_NS 30000000000ULL

check_coverage check_coverage_of(int world, int found, int observed, int blind, int across_nodes)
{
    check_coverage c = {.nothing_seen = world == 0 && found == 0, .blind = blind};
    if (across_nodes && observed + blind < world) {
        c.unreported = world - observed - blind;
    }
    /* A job of which nothing was seen (its ranks on nodes this one cannot see, and no agent
     * there) is not clean; across nodes a rank no agent told of is as blind as one found blind. */
    if (across_nodes || c.nothing_seen) {
        c.blind = (world ? world : 1) - observed;
    }
    return c;
}

int check_coverage_wait_streams(uint64_t since, uint64_t now, int streams_ended)
{
    return !streams_ended && now - since < STREAMS_WAIT_NS;
}
