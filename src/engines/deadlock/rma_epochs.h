/* One rank's epochs on one window (issue 28 item 5): a pure state machine over the
 * synchronization calls and accesses of MPI 3.1 §11.5, which the capture module steps at the
 * entry of each call and whose problems it reports as flagged records (usage_args.h), as it
 * does for argument checks. Design: docs/design/check-classes.md "One-sided communication". */
#ifndef RMA_EPOCHS_H
#define RMA_EPOCHS_H

#include <stdint.h>

#include "usage_args.h"

/* What a call does to the epochs of its window. */
typedef enum rma_epochs_action {
    RMA_EPOCHS_FENCE = 0,  /* MPI_Win_fence without MPI_MODE_NOSUCCEED: ends an epoch, opens one */
    RMA_EPOCHS_FENCE_LAST, /* MPI_Win_fence with MPI_MODE_NOSUCCEED: ends the fence epoch only */
    RMA_EPOCHS_START,      /* opens an access epoch (PSCW) */
    RMA_EPOCHS_COMPLETE,   /* ends it */
    RMA_EPOCHS_POST,       /* opens an exposure epoch */
    RMA_EPOCHS_WAIT,       /* ends it */
    RMA_EPOCHS_LOCK,       /* opens a passive-target epoch on one target */
    RMA_EPOCHS_UNLOCK,     /* ends it */
    RMA_EPOCHS_LOCK_ALL,   /* opens a passive-target epoch on every target */
    RMA_EPOCHS_UNLOCK_ALL, /* ends it */
    RMA_EPOCHS_ACCESS,     /* Put, Get, Accumulate, ... to one target */
    /* Rput, Rget, Raccumulate, Rget_accumulate to one target: in a passive-target epoch only
     * (MPI 3.1 §11.3.5) */
    RMA_EPOCHS_REQUEST_ACCESS,
    RMA_EPOCHS_FLUSH,     /* Win_flush, Win_flush_local to one target: needs its lock or Lock_all */
    RMA_EPOCHS_FLUSH_ALL, /* Win_flush_all, Win_flush_local_all: need a lock or Lock_all */
    RMA_EPOCHS_FREE       /* MPI_Win_free: every epoch must be closed */
} rma_epochs_action;

/* The epochs one rank has open on one window. `locked` is caller storage of `targets` bytes (one
 * per rank of the window's group), zeroed with the rest when the window is made. */
typedef struct rma_epochs {
    uint8_t fence_open;     /* a fence opened an epoch that no later call closed */
    uint8_t fence_accessed; /* an access in that epoch: a fence must still complete it */
    uint8_t start_open, post_open, lock_all;
    uint32_t locks; /* targets locked now */
    uint8_t *locked;
    int32_t targets;
} rma_epochs;

/* Applies `action` (on `target`, a rank of the window's group, for RMA_EPOCHS_LOCK,
 * RMA_EPOCHS_UNLOCK, RMA_EPOCHS_ACCESS, RMA_EPOCHS_REQUEST_ACCESS and RMA_EPOCHS_FLUSH) and returns
 * the problem it shows, or USAGE_ARGS_OK. A call with a problem changes no state, except that an
 * epoch opened twice stays open once. A target outside the group (an argument error MPI reports, or
 * MPI_PROC_NULL) is not checked. O(1), allocation-free. */
usage_args_problem rma_epochs_step(rma_epochs *w, rma_epochs_action action, int32_t target);

#endif
