/* A relay of `mpiguard hang`'s agent tree (docs/hang.md "Many nodes"): between the front and a
 * share of the node agents, so that the front holds one connection per relay, not per agent. It
 * answers a round's request for its ranks by reading them from its agents in one round of its own
 * (agent_relay_answer, the simulator's relay code), passes a stack request to the rank's agent and
 * its answer back, and a signal or bye to all of them. */
#ifndef MG_HANG_RELAY_H
#define MG_HANG_RELAY_H

#include <stddef.h>

/* Serves the front on up until it says bye or goes away, then says bye to the nbelow agents on
 * below (connections that already passed AUTH and HELLO), whose ranks child_of says (per rank of
 * the nranks: the index in below of its agent, or -1). An agent below that fails is not asked
 * again; its ranks read as unseen and its stacks as empty. Closes every descriptor it was given.
 * Returns 0, MG_ERROR_ENOMEM, or MG_ERROR_EFORMAT when the front sent a malformed request (err says
 * which). */
int hang_relay_run(int up, int *below, size_t nbelow, const int *child_of, size_t nranks, char *err,
                   size_t errlen);

#endif
