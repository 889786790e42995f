/* A rank's published wait over the agent protocol (docs/hang.md, "The culprit" and "Many nodes"):
 * what its blocking call waits for (rank_state.h: on, peer, tag, communicator, the posted
 * operations, the world-like communicators, the world's collectives count), appended by a hang
 * agent to the STACK answer it gives at the verdict, so that the front's culprit search reads a
 * rank on another node as it reads one here. */
#ifndef MG_AGENT_WAITS_H
#define MG_AGENT_WAITS_H

#include "agent_proto.h"
#include "rank_state.h"

#include <stdbool.h>

/* Appends the wait published in state (NULL: nothing published, e.g. under the ptrace sampler or
 * before MPI_Init). Reads the segment's atomics once each; the rank may be writing it meanwhile, as
 * for a local reader. 0 or MG_ERROR_ENOMEM. */
int agent_waits_put(agent_proto_buf *b, const rank_state *state);

/* Takes a wait that agent_waits_put appended: *published says whether one was, and when it was,
 * *copy holds it (a plain copy, magic and version set, the fields no wait carries zeroed) for the
 * code that reads a local segment. Errors: MG_ERROR_EFORMAT (past the payload's end, an unknown
 * kind of wait, more world-like communicators than a segment holds, a world size outside 1..2^24);
 * *copy is then unspecified. */
int agent_waits_get(agent_proto_cursor *c, rank_state *copy, bool *published);

#endif
