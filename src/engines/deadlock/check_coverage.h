/* What `mpiguard check` concludes of the ranks it observed once the job ended, never silent: a
 * rank no agent told of, or a job of which nothing was seen, counts as not observed, so that such
 * a run is never read as clean; and how long the end of the agents' streams is waited for. The
 * decisions of the end of the check watch (src/cli/check_watch.c drives them). Pure: no I/O,
 * times in nanoseconds passed in. docs/check.md "Across nodes". */
#ifndef CHECK_COVERAGE_H
#define CHECK_COVERAGE_H

#include <stdint.h>

/* The end of the observation: what the watch says, and what the verdict counts. */
typedef struct check_coverage {
    int unreported;   /* across nodes: ranks no agent reported, neither observed nor found blind */
    int nothing_seen; /* no rank of the job was seen at all */
    int blind;        /* ranks the verdict counts as not observed */
} check_coverage;

/* The coverage of a job of `world` ranks as the records told it (0: none came) and `found` ranks
 * found by the session, of which the observation judged `observed` observed and `blind` not;
 * across_nodes: the ranks were judged by their nodes' agents (--agent-launcher). */
check_coverage check_coverage_of(int world, int found, int observed, int blind, int across_nodes);

/* 1 while the watch, the job over, still waits (since `since`, at `now`) for the agents' streams
 * to end; streams_ended: every expected agent closed its stream, or every rank was told of. */
int check_coverage_wait_streams(uint64_t since, uint64_t now, int streams_ended);

#endif
