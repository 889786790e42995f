/* Simulated node agents that serve the simulated ranks' readings over the real agent protocol
 * (agent_reads.h; docs/hang-simulation.md "Over the agent protocol"): one socketpair per node of
 * node_size ranks, the front's side grouped and read by the same round code as `mpiguard hang`'s
 * front (src/agent/hang_remote.c), the agents' side answered by the same code as its agents, on a
 * thread of their own, so that the agents read their ranks while the front waits, as across nodes;
 * optionally through a level of relays (an agent tree). Only the agents owning a rank of a round
 * are asked. */
#ifndef SIM_AGENTS_H
#define SIM_AGENTS_H

#include "agent_reads.h"

#include <stddef.h>

struct sim_agents;

/* ceil(nranks / node_size) node agents, rank r on agent r / node_size. fanout > 0 makes a tree:
 * the front then talks to relays of fanout node agents each, which read the ranks asked of them
 * from their node agents in one round (agent_reads_ranks) before they answer; 0: the front talks to
 * the node agents. 0, MG_ERROR_EINVAL (a size of 0), MG_ERROR_ENOMEM, MG_ERROR_ESYS (no socketpair
 * or thread: too few file descriptors). */
int sim_agents_create(size_t nranks, size_t node_size, size_t fanout, struct sim_agents **out);
/* Says bye to every agent, joins their thread and frees a. */
void sim_agents_destroy(struct sim_agents *a);

/* One round: the count ranks of ranks (NULL: 0..count-1) read through their agents, read called on
 * the agents' thread for each one (with ctx), into out in the order of ranks. 0; MG_ERROR_ENOMEM;
 * MG_ERROR_EIO when an agent did not answer (the front's error text in err). */
int sim_agents_read(struct sim_agents *a, const int *ranks, size_t count, int with_cpu_time,
                    agent_reads_fn read, void *ctx, agent_proto_reading *out, char *err,
                    size_t errlen);

/* Rounds (the front's), frames and bytes so far on every level, and the wall time the front's
 * rounds took, seconds. */
void sim_agents_stats(const struct sim_agents *a, agent_reads_stats *stats, double *seconds);

#endif
