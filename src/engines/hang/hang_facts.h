/* What the culprit search (hang_culprit.h) takes of one rank at a hang's verdict, decided from what
 * the watch saw of it, its stack (rank_stack.h) and the wait it published (rank_state.h): whether
 * it computes inside its MPI call, and which world ranks its call waits on (docs/hang.md "The
 * culprit"). Pure: reads the caller's data (a published segment's atomics once each, the rank may
 * be writing it meanwhile), writes the caller's output; thread-safe. */
#ifndef HANG_FACTS_H
#define HANG_FACTS_H

#include "hang_culprit.h"
#include "hang_watch.h"
#include "rank_stack.h"
#include "rank_state.h"

#include <stdbool.h>
#include <stdint.h>

/* What the watch saw of one rank at the verdict. */
struct hang_facts_seen {
    bool live, in_mpi;
    bool stopped; /* named by the watch: stopped from outside in every scan */
    bool spun;    /* named by the watch: spun inside MPI */
};

/* Fills *out for world rank r from seen, its stack st (possibly empty), the base name of the
 * application's executable (app: frames of it inside an MPI call are computation) and its
 * published state (NULL: none published, e.g. under the ptrace sampler). */
void hang_facts_rank(const struct hang_facts_seen *seen, const rank_stack *st, const char *app,
                     const rank_state *state, int r, struct hang_culprit_rank *out);

/* Whether the communicator id comm is MPI_COMM_WORLD or one with the same ranks, as state lists
 * them (its world_like[]). */
bool hang_facts_world_like(const rank_state *state, uint64_t comm);

/* Where comm stands among state's world-like communicators (0: MPI_COMM_WORLD, then in the order
 * they were created), -1 when not there. Unlike the id, the same on every rank: a communicator
 * with every world rank is created by a collective call of every rank, so each lists them in one
 * order, while an id is a handle's bits, under Open MPI an address that differs from process to
 * process (ASLR: issue 29's poll-transfer false alarm). */
int hang_facts_world_index(const rank_state *state, uint64_t comm);

/* What a rank blocked in a call of the given kind (not UNKNOWN) waits on, from the state it
 * published: its peer and tag, and its communicator as its world index, comparable between ranks
 * (hang_watch.c in_flight); UNKNOWN on a communicator not known to be the world's. */
struct hang_watch_wait hang_facts_watch_wait(const rank_state *state,
                                             enum hang_watch_wait_kind kind);

/* What a rank polling its requests (MPI_Test*) waits on: its posted slots folded into one
 * REQUESTS wait (hang_watch.h), its communicator as a world index; UNKNOWN when it posted none,
 * or posted on communicators not all one of the world's. */
struct hang_watch_wait hang_facts_watch_requests(const rank_state *state);

#endif
