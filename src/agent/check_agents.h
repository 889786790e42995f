/* The sources of `mpiguard check`'s records, started as its options ask: the agent in this
 * process, agent processes on this machine or one per node streaming to a listener the run's
 * secret guards, or the leaves of a tree of detectors; as hang's front starts its agents
 * (hang_remote.c), through agent_start.h. docs/design/check.md "How it is built". */
#ifndef MG_CHECK_AGENTS_H
#define MG_CHECK_AGENTS_H

#include "check_feed.h"
#include "job.h"

/* What the options of `mpiguard check` ask for. */
typedef struct check_agents_params {
    const char *agent_launcher; /* words that start one agent per node, or NULL */
    long agents;                /* agent processes on this machine; 0: the agent in this process */
    long detector_leaves;       /* leaves of the tree of detectors, each under one agent; 0: none */
    int verbose;                /* the node agents say what they found and when (-v) */
} check_agents_params;

/* The processes a run started: agents, and leaves. */
typedef struct check_agents {
    job_handle **jobs;
    int njobs;
} check_agents;

/* Starts the sources of f's records (f->job started, its token known) as p asks, setting f->agent
 * or f->remote: with p->agent_launcher, one agent per node behind its words, owning every rank of
 * its node and judging each, streaming to a listener on this node's address the others reach (with
 * detector_leaves K, each through a leaf it starts beside it); with detector_leaves K alone, per
 * share k of K an agent draining its rings into a leaf over a socketpair and the leaf streaming to
 * this process; with agents N, N agents on this machine, each owning share k of N (a block of
 * ranks), streaming over the loopback; else the agent in this process. Returns MG_ERROR_OK, or an
 * error (said, those of the agent processes; what started is left to check_agents_stop). */
int check_agents_start(check_agents *a, check_feed *f, const check_agents_params *p);

/* Ends the processes of a and the listener of f (f->remote set to NULL); a may be zeroed. */
void check_agents_stop(check_agents *a, check_feed *f);

#endif
