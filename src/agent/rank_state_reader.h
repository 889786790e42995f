/* Reading the state ranks publish in shared memory (src/wire/rank_state.h) without stopping
 * them, and removing what a crashed job left in /dev/shm. */
#ifndef MG_RANK_STATE_READER_H
#define MG_RANK_STATE_READER_H

#include "rank_state.h"

/* Maps the segment of (token, rank) read-only. The mapping stays valid after the rank unlinks it at
 * MPI_Finalize. MG_ERROR_ENOENT while the rank has not published yet; MG_ERROR_EVERSION for another
 * layout. */
int rank_state_reader_open(const char *token, int rank, const rank_state **out);
void rank_state_reader_close(const rank_state *state);

/* Removes every state segment of the job's token still in /dev/shm; returns how many it removed. */
int rank_state_reader_remove_all(const char *token);

#endif
