/* An agent process of `mpiguard check`: with --agents N or --detector-leaves N, one of N on this
 * node owning share k of N (a block of ranks, check_agent_share_range); with --agent-launcher, the
 * one agent of its node, owning every rank there and judging whether each is observed
 * (observe_ranks.h), with --detector-leaves through a leaf it starts beside it. Either streams its
 * ranks' records to the detector over TCP, or to its leaf of the tree of detectors over an
 * inherited descriptor (record_stream.h), until its ranks' streams ended or the detector went away.
 * docs/design/check.md "How it is built"; docs/check.md "Across nodes". */
#ifndef MG_CHECK_AGENT_PROC_H
#define MG_CHECK_AGENT_PROC_H

#include "agent_proto.h"
#include "mg_mpi_flavor.h"

#include <stdint.h>

typedef struct check_agent_proc_params {
    const char *token; /* the job's MPIGUARD_JOB_TOKEN */
    int share, shares;
    const char *address;   /* the detector's ADDRESS:PORT, or NULL: */
    int output;            /* ... an inherited descriptor (a socket) to stream to instead */
    const uint8_t *secret; /* AGENT_PROTO_SECRET_BYTES, sent first (AUTH) */
    const char *library;   /* a node agent: the interposition library the ranks were given; NULL
                              for one of --agents N (the detector judges those ranks itself) */
    mg_mpi_flavor flavor;  /* a node agent: the job's MPI */
    /* a node agent under --detector-leaves: the job's nodes, one leaf each; 0: none. The agent
     * starts its node's leaf (agent_stage.h) once it found a rank there, on share k of leaves, the
     * block of ranks holding that rank; every rank of the node must be in that block */
    int leaves;
} check_agent_proc_params;

/* Runs the agent; returns the process exit status (0, or 70 when it could not start or the
 * detector vanished: the ranks then see a dead reader and never block on it). */
int check_agent_proc_run(const check_agent_proc_params *p);

#endif
