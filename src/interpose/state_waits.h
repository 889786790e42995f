/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The wait-for half of the "state" module: what each blocking call waits for (a peer, a root, a
 * whole communicator, requests), published in the rank-state segment (rank_state.h) by observers
 * of the blocking calls. Needs mpi.h. */
#ifndef MG_STATE_WAITS_H
#define MG_STATE_WAITS_H

#include "rank_state.h"

#include <stdbool.h>

/* Installs the observers that publish into s (borrowed until state_waits_remove), where no other
 * module owns them: a call another module observes publishes nothing (RANK_STATE_WAIT_NOTHING). */
void state_waits_install(rank_state *s);
void state_waits_remove(void);
/* Whether fn waits for the requests posted (RANK_STATE_WAIT_REQUESTS), which the state module's
 * enter hook publishes itself while the observers are installed. */
bool state_waits_on_requests(mpi_function_ids_fn fn);

#endif
