/* Batched readings over the agent protocol (agent_proto.h, READ and READINGS): the front
 * asks each agent, in one frame, for every rank it wants of it now, and the agent answers them all
 * in one frame. `mpiguard hang`'s front (src/agent/hang_remote.c), its agents
 * (src/agent/hang_agent.c) and the simulator (src/sim) run this same code (docs/hang.md, "Many
 * nodes"). */
#ifndef MG_AGENT_READS_H
#define MG_AGENT_READS_H

#include "agent_proto.h"

#include <stddef.h>
#include <stdint.h>

/* What a READ request wants of each rank, first in its payload. The values are rank_probe.h's
 * (RANK_PROBE_CPU_TIME, RANK_PROBE_GAP_ONLY), which an agent hands its probe as they came:
 * GAP_ONLY, a verification retake, is answered under ptrace without stopping the rank
 * (docs/design/hang.md). */
typedef enum agent_reads_kind {
    AGENT_READS_PLAIN = 0,    /* where the rank is */
    AGENT_READS_CPU_TIME = 1, /* that and its CPU time */
    AGENT_READS_GAP_ONLY = 3, /* its CPU time and counter; where it is may be the last seen */
} agent_reads_kind;

/* How an agent reads one of its ranks: fills out (out->rank is set, the rest zeroed) or marks it
 * unseen. Called once per asked rank, in the request's order, with the request's kind. */
typedef void (*agent_reads_fn)(void *ctx, int32_t rank, int kind, agent_proto_reading *out);

/* Agent side: answers a READ request (its payload in request) with a finished READINGS frame in
 * reply (not the request's buffer), one reading per asked rank through read. Errors, with err
 * naming the problem: MG_ERROR_EFORMAT (another type, an unknown kind, or a count the payload does
 * not hold), MG_ERROR_ENOMEM. */
int agent_reads_answer(agent_proto_msg_type type, agent_proto_cursor *request, agent_reads_fn read,
                       void *ctx, agent_proto_buf *reply, char *err, size_t errlen);

/* The kind and ranks a READ request asks for, without consuming request: up to max ranks into
 * ranks, their number into *count. For a relay of an agent tree, which reads them from the agents
 * below it in one round before it answers (agent_reads_answer). Errors, with err naming the
 * problem: MG_ERROR_EFORMAT (another type, an unknown kind, a count the payload does not hold or
 * past max). */
int agent_reads_ranks(agent_proto_msg_type type, const agent_proto_cursor *request, int *kind,
                      int *ranks, size_t max, size_t *count, char *err, size_t errlen);

/* Front side: one agent's part of a round. */
typedef struct agent_reads_ask {
    int fd;               /* the agent's connection (a blocking socket; its receive timeout
                             bounds the wait for the answer) */
    const int32_t *ranks; /* the ranks asked of it */
    size_t count;
    agent_proto_reading *out; /* count readings, in the order of ranks */
    int rc; /* after the round: MG_ERROR_OK, MG_ERROR_EIO (gone, or no answer in time),
               MG_ERROR_EFORMAT/MG_ERROR_EVERSION (a malformed answer) */
} agent_reads_ask;

/* Groups the count ranks of ranks (NULL: ranks 0..count-1) by agent for a round: asks[a] gets the
 * ranks with owner[r] == a (owner has nranks entries; -1 and ranks out of range are skipped) in
 * their order, its ranks in grouped and its readings' room in out (count entries each). Each
 * ask's fd is the caller's, set before; an ask whose fd is negative (a lost agent) gets none. */
void agent_reads_group(agent_reads_ask *asks, size_t nagents, const int *owner, size_t nranks,
                       const int *ranks, size_t count, int32_t *grouped, agent_proto_reading *out);

/* What rounds cost on the wire, both ways, headers included. */
typedef struct agent_reads_stats {
    uint64_t rounds, frames, bytes;
} agent_reads_stats;

/* One round of readings of kind (agent_reads_kind): sends every ask with a count its request
 * frame, then takes the answers in the same order, so the agents read their ranks at the same
 * time. An ask that fails leaves its readings unseen and the others unaffected; err names the
 * first malformed answer. An agent whose answer has not begun within its socket's receive timeout
 * (SO_RCVTIMEO) of the requests' sending fails (MG_ERROR_EIO): silent agents cost the round one
 * timeout, not one each. buf is scratch. Adds to stats when not NULL. Returns MG_ERROR_OK, or
 * MG_ERROR_ENOMEM (nothing sent). */
int agent_reads_round(agent_reads_ask *asks, size_t n, int kind, agent_proto_buf *buf,
                      agent_reads_stats *stats, char *err, size_t errlen);

/* A reading of rank that says nothing: its agent could not look at it, or did not answer. */
agent_proto_reading agent_reads_unseen(int32_t rank);

#endif
