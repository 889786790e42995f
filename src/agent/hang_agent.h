/* A per-node agent of hang detection (docs/hang.md, "Many nodes"): finds the job's ranks on this
 * node, tells the front which it owns, then answers the front's questions about them until told to
 * stop. It does nothing between questions, so agents that own no sampled rank cost nothing. */
#ifndef MG_HANG_AGENT_H
#define MG_HANG_AGENT_H

#include "rank_probe.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hang_agent_params {
    const char *host; /* the front's address */
    int port;
    const char *token; /* the job's MPIGUARD_JOB_TOKEN */
    const uint8_t
        *secret; /* the run's AGENT_PROTO_SECRET_BYTES, sent first (agent_proto.h, AUTH) */
    rank_probe_kind kind;
    int first_rank, last_rank; /* own only these (several agents standing in for nodes); -1: all */
    double discover_seconds;   /* how long to wait for the ranks to appear */
} hang_agent_params;

/* Runs the agent to its end. Returns 0 when the front said bye or went away after saying hello;
 * MG_ERROR_ENOENT (no rank found), MG_ERROR_EIO (cannot reach the front) with a message in err. */
int hang_agent_run(const hang_agent_params *p, char *err, size_t errlen);

#endif
