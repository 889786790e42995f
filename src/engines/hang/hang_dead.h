/* A rank that dies while the job runs (docs/hang.md "A rank that dies"): which rank died first,
 * whether every exit has been heard of, and when a death ends the watch. Decisions only: the
 * caller reads the ranks' processes, exit events and published states, and passes its own time. */
#ifndef HANG_DEAD_H
#define HANG_DEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One rank as the caller read it. */
struct hang_dead_rank {
    bool found;     /* its process is known (a pid) */
    bool exit_seen; /* its exit was announced (wait status and time below) */
    bool gone;      /* its process is gone, as /proc says where no exit is announced */
    bool published; /* it published its state (the state module): the two below are read */
    bool finalized; /* it called MPI_Finalize */
    bool aborting;  /* its last MPI call is MPI_Abort: it ended the job on purpose */
    bool in_mpi;    /* published: it was inside an MPI call when it ended */
    int signal;     /* exit_seen: the signal that killed it, 0 for an exit */
    uint64_t when;  /* exit_seen: when, in the announcer's clock (the end of its exit) */
    bool ordered;   /* the kernel's order of the start of its exit is known: */
    uint64_t order; /* smaller began first (comparable across the ranks) */
};

/* The rank that died: gone without MPI_Finalize by its published state (MPI_Abort is no death),
 * or without one, killed by a signal; -1 when none. When several died, the first to begin its
 * exit where the kernel's order of every death is known; else a death that may follow another's
 * (SIGABRT raised inside an MPI call: a library that found a peer gone, whose own exit can end
 * before the dead peer's) comes after every other, and the first to die (smallest when) is named
 * within each kind. *all_seen (may be NULL) says whether every found rank's exit was announced. */
int hang_dead_first(const struct hang_dead_rank *ranks, size_t n, bool *all_seen);

/* How long a rank may be dead while the job runs on before the watch ends on it: a launcher that
 * ends a job after a rank's death does so within a second. */
#define HANG_DEAD_GRACE_S 3.0

/* Follows the dead rank step by step: since when the same death has lasted. */
struct hang_dead_watch {
    double since; /* negative: no rank dead at the last step */
};

/* Starts following: no rank dead. */
void hang_dead_watch_init(struct hang_dead_watch *w);

/* Feeds the dead rank read at now (-1: none): true once a rank has been dead for
 * HANG_DEAD_GRACE_S while the job runs on, when the watch reports it and ends. */
bool hang_dead_watch_feed(struct hang_dead_watch *w, int dead, double now);

#endif
