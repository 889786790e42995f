/* A relay of an agent tree (docs/hang.md "Many nodes"; docs/hang-simulation.md "Over the agent
 * protocol"): between the front and a share of the node agents, it answers a READ request by
 * reading the ranks asked of it from the agents below it in one round of the same kind
 * (agent_reads_round), then answering with what they said (agent_reads_answer). The simulator's
 * relays and `mpiguard hang`'s (src/agent/hang_relay.h) run this code. */
#ifndef MG_AGENT_RELAY_H
#define MG_AGENT_RELAY_H

#include "agent_reads.h"

/* A relay: the agents below it and what its rounds need. */
typedef struct agent_relay {
    agent_reads_ask *below; /* the caller's: one per agent below, its fd set (negative: lost) */
    size_t nbelow;
    const int *child_of; /* the caller's: per rank, the index in below of its agent, or -1 */
    size_t nranks;
    /* scratch of nranks entries each: the ranks asked, grouped, their readings, and per rank
     * what the agents below answered */
    int *ranks;
    int32_t *grouped;
    agent_proto_reading *out, *table;
    agent_proto_buf buf;
    agent_reads_stats stats; /* the rounds below */
} agent_relay;

/* Allocates r's scratch for a world of nranks; below, nbelow and child_of are set by the caller.
 * 0 or MG_ERROR_ENOMEM (then agent_relay_free is still safe). */
int agent_relay_init(agent_relay *r, size_t nranks);
void agent_relay_free(agent_relay *r);
/* Answers one READ request (type, its payload in request) into the finished frame
 * reply. A rank the relay does not own, or whose agent below failed, reads as unseen; such an ask's
 * rc says why (MG_ERROR_EIO: gone or silent), and the rank of a failed or already lost (fd
 * negative) agent also reads as lost. Errors: MG_ERROR_EFORMAT (agent_reads_ranks),
 * MG_ERROR_ENOMEM. */
int agent_relay_answer(agent_relay *r, agent_proto_msg_type type, agent_proto_cursor *request,
                       agent_proto_buf *reply, char *err, size_t errlen);

#endif
