/* The detector of `mpiguard check` fed from its agents: the records the in-process agent drains
 * from this node's rings, or those the agent processes and the leaves of the tree of detectors
 * stream (check_remote.h), with what the feed keeps of each rank for the engine's check_policy
 * (its records, whether it is inside a call, whether its stream ended) and for the observation of
 * the ranks (which agent judged each; which were lost with their agent or leaf). The watch
 * (src/cli/check_watch.c) drains it and asks the policy. docs/design/check.md "How it is built". */
#ifndef MG_CHECK_FEED_H
#define MG_CHECK_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "check_agent.h"
#include "check_policy.h"
#include "check_remote.h"
#include "deadlock_detector.h"
#include "job_session.h"
#include "observe_ranks.h"
#include "site_resolver.h"
#include "tbon_root.h"

typedef struct check_feed {
    /* Set by the driver before the first drain. */
    job_session *job;
    int across_nodes;     /* the ranks are on other nodes, each judged by its node's agent */
    long leaves;          /* leaves of the tree of detectors; 0: none */
    int buffered_sends;   /* the detector's model of standard sends (dl_params) */
    int deciding;         /* the detector decides wildcards (dl_params) */
    check_agent *agent;   /* in-process agent, or NULL: */
    check_remote *remote; /* agent processes over TCP, or the leaves of the tree of detectors */
    site_resolver *sites;
    observe_ranks *observer; /* while the job is watched, else NULL */
    /* What the feed made and keeps. */
    tbon_root *answers; /* with leaves: what the root tells them */
    deadlock_detector *det;
    check_policy policy;    /* when to analyse, and the deadlock waiting to be confirmed */
    int world;              /* world size, once the first ring or agent told it */
    double world_at;        /* when (mg_clock_seconds) it was told */
    uint64_t *blocked;      /* each rank's blocked seq: as its agent last reported (remote), or as
                               its ring showed at the last reading (in-process agent) */
    uint8_t *captured;      /* ranks that sent at least one record */
    uint8_t *ended;         /* ranks whose stream ended */
    uint64_t *rank_records; /* records seen per rank */
    int *agent_of;          /* across nodes: per rank, 1 + the number of the agent that judged it */
    int newly_blind;        /* ranks found blind by their node's agent since the driver looked */
    uint64_t lost_ended;    /* records dropped by writers whose stream ended */
    uint64_t feed_errors;   /* records (or leaves' summaries) the detector refused */
    int failed;             /* out of memory, or a stream failed: the feed stopped */
    int broken; /* the detector refused records or failed an analysis: its view is partial */
    int too_many_leaves;    /* more leaves than the job's ranks */
    long leaves_known;      /* leaves whose share came (check_remote_sink.share) */
    int unfound_named;      /* the ranks no agent found were named (rank_observe_unfound) */
    double waiting_said_at; /* when the wait for ranks still to come was last said */
    uint64_t rejected_at;   /* check_feed_now() of the last call with invalid arguments read */
} check_feed;

/* The time of the detector and the policy: integer nanoseconds (deadlock_detector.h). */
uint64_t check_feed_now(void);
/* Drains what the rings (or the streams) hold now, waiting up to wait_ms for the first bytes of a
 * stream, feeds the detector and, with leaves, answers them. Returns the records read. */
size_t check_feed_drain(check_feed *f, int wait_ms);
/* How long the in-process reader may wait before its next drain, in ms: 20, but 1 within 0.2 s
 * of reading a call with invalid arguments, as its rank waited for that read before going on to
 * MPI (docs/check-measurements-overhead.md, "args"), and a program that ignores such an error
 * tends to repeat it. */
int check_feed_wait_ms(const check_feed *f);
/* What the policy reads of the ranks now: with the in-process agent, whether each rank is inside a
 * call with its ring drained is read from its ring at this moment. */
check_policy_readings check_feed_readings(check_feed *f);
/* Across nodes, whether every rank was judged by its agent, and the stream of each observed one
 * ended: nothing more is to come (an agent of a node without ranks never closes). */
int check_feed_all_told(const check_feed *f);
/* The agents' figures; from agent processes only the records lost are known. */
void check_feed_stats(const check_feed *f, check_agent_stats *out);
/* For observe_ranks_create (ctx: the feed): a rank's capture module started once its event ring
 * exists (the rank made it in MPI_Init), even before its first record, or once its records or its
 * stream's end came; -1 (not known yet) while agents on this machine still stream: a rank's ring
 * is removed when it ends, and its records may still be in an agent or held at a leaf, which
 * passes up neither the calls it matched nor the ends before its quiet time. */
int check_feed_ring_published(void *ctx, int rank);
/* Frees what the feed made and was given: the detector, the in-process agent, the call sites, and
 * what it kept of the ranks (not the remote streams, nor the job). */
void check_feed_destroy(check_feed *f);

#endif
