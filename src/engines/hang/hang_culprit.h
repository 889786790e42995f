/* The culprit of a communication hang and the chain of evidence (issue 29 item 2; docs/hang.md
 * "The culprit"): from what each rank was seen doing at the verdict (its process state, its
 * innermost frames, its collective epoch, what its blocking call waits for), the ranks that hold
 * the others and the ranks that wait on them. Pure: reads the caller's arrays, writes the
 * caller's output; thread-safe. */
#ifndef HANG_CULPRIT_H
#define HANG_CULPRIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HANG_CULPRIT_MAX_PEERS = 8 };

/* What a blocked rank's call waits for, in world ranks. */
enum hang_culprit_wait {
    HANG_CULPRIT_WAIT_UNKNOWN =
        0,                   /* not published, or a communicator whose ranks are not translated */
    HANG_CULPRIT_WAIT_PEERS, /* on each of peers[0..npeers) */
    HANG_CULPRIT_WAIT_ALL /* on every other rank (a collective on the world, a receive from any) */
};

struct hang_culprit_rank {
    bool live;       /* alive at the verdict */
    bool in_mpi;     /* inside an MPI call */
    bool stopped;    /* stopped from outside in every scan (state T) */
    bool spun;       /* spun the CPU inside MPI while most ranks waited quietly */
    bool in_handler; /* its innermost frames are a signal handler or application code above the
                        MPI call: it computes there, it does not wait */
    bool collectives_known;
    uint64_t collectives;  /* collectives entered on the world */
    bool world_collective; /* its call is a collective on MPI_COMM_WORLD itself, the last of those
                              `collectives` counts (wait ALL, or PEERS: its root) */
    enum hang_culprit_wait wait;
    size_t npeers;
    int peers[HANG_CULPRIT_MAX_PEERS];
};

enum hang_culprit_reason {
    HANG_CULPRIT_NONE = 0,   /* nothing tells one rank from the others */
    HANG_CULPRIT_OUTSIDE,    /* outside MPI while the others wait inside (a computation hang) */
    HANG_CULPRIT_STOPPED,    /* stopped from outside, inside MPI or outside it */
    HANG_CULPRIT_IN_HANDLER, /* computing above its MPI call */
    HANG_CULPRIT_SPINNING,   /* spinning inside MPI */
    HANG_CULPRIT_BEHIND,     /* fewer collectives entered than the others: it never reached the one
                                they wait in */
    HANG_CULPRIT_WAITED_ON   /* the only ranks that everyone transitively waits on */
};

/* Per rank, in waits[] of hang_culprit_find. */
enum hang_culprit_link {
    HANG_CULPRIT_UNLINKED = 0,
    HANG_CULPRIT_IS_CULPRIT,
    HANG_CULPRIT_WAITS_DIRECTLY, /* its call waits on a culprit (a peer, a root, a collective) */
    HANG_CULPRIT_WAITS_THROUGH   /* on a rank that waits on a culprit, and so on */
};

struct hang_culprit_result {
    enum hang_culprit_reason reason;
    size_t nculprits; /* ranks marked IS_CULPRIT, 0 with reason NONE */
    int first;        /* the lowest culprit rank, -1 when none */
};

/* Finds the culprits of a hang among n ranks, by the first rule that singles out fewer ranks than
 * are live: a rank's own conduct (stopped, then outside MPI, in a handler, spinning: spun, unless
 * its published wait is for what has not come, a world collective some live rank has not entered,
 * or point-to-point peers each blocked in a call that does not exchange with it), the
 * collective epoch (the ranks that entered the fewest world collectives, when others wait in a
 * later one), the wait-for relation (the one sink of its condensation, when it is not every live
 * rank). links[r] (n of them) says how each rank relates to the culprits: through the wait-for
 * relation from any rank that waits on them. 0 ok; MG_ERROR_EINVAL on NULL, n == 0, a peer out of
 * [0, n); MG_ERROR_ENOMEM. links is left unspecified on failure. */
int hang_culprit_find(const struct hang_culprit_rank *ranks, size_t n, uint8_t *links,
                      struct hang_culprit_result *out);

#endif
