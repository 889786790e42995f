/* The per-rank state the interposition library publishes in shared memory for the `shm` sampler of
 * hang detection (docs/hang.md): read by the monitor without stopping the rank. Versioned: a reader
 * rejects a segment whose magic or version differs. Needs no mpi.h. */
#ifndef MG_RANK_STATE_H
#define MG_RANK_STATE_H

#include "mpi_function_ids.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RANK_STATE_MAGIC 0x5352474dU /* "MGRS" */
#define RANK_STATE_VERSION 3U

typedef struct rank_state {
    uint32_t magic;
    uint32_t version;
    int32_t rank;
    int32_t size;
    int32_t pid;
    uint32_t reserved;
    _Atomic uint32_t threads_in_mpi; /* threads inside an MPI call now: IN_MPI when > 0 */
    _Atomic uint32_t
        current_fn;         /* mpi_function_ids_fn id of the latest outermost MPI call entered */
    _Atomic uint64_t calls; /* outermost MPI calls completed: a moving counter is progress */
    _Atomic uint32_t finalized; /* 1 once MPI_Finalize was entered */
    /* What the pending blocking call waits for (the wait-for relation at hang time, docs/hang.md
     * "The culprit"), stored on entry to a blocking call and never cleared: read it only while
     * threads_in_mpi > 0, as belonging to current_fn. Ranks are the communicator's, which is
     * published as its handle's bits (an id): a reader takes them for world ranks where the id is
     * one of world_like[], and leaves them untranslated elsewhere. */
    _Atomic uint32_t wait_on; /* enum rank_state_wait_on */
    _Atomic int32_t
        wait_peer; /* source, destination or root; MPI_ANY_SOURCE is RANK_STATE_PEER_ANY */
    _Atomic int32_t wait_tag; /* RANK_STATE_TAG_ANY for MPI_ANY_TAG */
    _Atomic uint32_t world_like_count;
    _Atomic uint64_t wait_comm;
    _Atomic uint64_t world_collectives; /* collectives entered on MPI_COMM_WORLD */
    /* The latest nonblocking operations posted, the peers a Wait/Waitall can be held by: slot
     * posted % RANK_STATE_POSTED is written next. */
    _Atomic uint32_t posted;
    _Atomic int32_t posted_peer[8];
    _Atomic int32_t posted_tag[8];
    _Atomic uint64_t posted_comm[8];
    /* Communicators whose ranks are MPI_COMM_WORLD's (world itself first, then those created
     * congruent to it: a dup, a Cartesian grid that keeps the order), up to 8. */
    _Atomic uint64_t world_like[8];
    /* Of calls, those that do not poll (class POLL: MPI_Test*, MPI_Iprobe), counted before calls:
     * a rank read inside its poll at every reading is making progress when this moved (hpcc's
     * MPIRandomAccess posts its sends and receives between polls: issue 29's shm false alarm). A
     * count of its own rather than of the polls, so that a reading racing the rank's increments
     * can never see calls that are not polls where there were none. */
    _Atomic uint64_t calls_not_polling;
} rank_state;

#define RANK_STATE_POSTED 8U
#define RANK_STATE_WORLD_LIKE 8U
#define RANK_STATE_PEER_ANY (-1)
#define RANK_STATE_TAG_ANY (-1)

/* What wait_peer means for the call in progress. */
enum rank_state_wait_on {
    RANK_STATE_WAIT_NOTHING = 0, /* nothing published (a call without a peer, or none yet) */
    RANK_STATE_WAIT_PEER,        /* a point-to-point peer of wait_comm (or RANK_STATE_PEER_ANY) */
    RANK_STATE_WAIT_ROOT,        /* the root of a collective on wait_comm */
    RANK_STATE_WAIT_ALL,         /* a collective on wait_comm without root: every rank of it */
    RANK_STATE_WAIT_REQUESTS     /* completion of requests: the peers of the posted slots */
};

/* The MPI function a rank was in or last called, as state (NULL: none published) says; NULL
 * when not known. */
static inline const char *mg_rank_state_function(const rank_state *state)
{
    unsigned fn = state ? atomic_load_explicit(&state->current_fn, memory_order_relaxed)
                        : MG_FN_COUNT;
    return fn < MG_FN_COUNT ? mpi_function_ids_name(fn) : NULL;
}

/* Name of the segment for a job token and rank, for shm_open: "/mpiguard-<token>-<rank>". */
#define RANK_STATE_NAME_FORMAT "/mpiguard-%s-%d"

#endif
