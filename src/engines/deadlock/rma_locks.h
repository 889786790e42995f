/* Passive-target lock waits in the wait-for model (issue 28 item 5). Both MPIs here block in
 * MPI_Win_lock and MPI_Win_lock_all, never later in an access, flush or unlock, while another
 * rank holds a conflicting lock (measured: docs/check-measurements-rma.md), so the model blocks
 * a rank at the entry of those calls and its own exit record ends the wait: the exit is the
 * grant. A lock is held from that exit until the entry of the matching Win_unlock or
 * Win_unlock_all. In the wait-for graph the waiting rank needs every holder of a conflicting lock
 * on its target (AND): an exclusive request conflicts with any holder, a shared one (and
 * Lock_all, shared on every target) with exclusive holders. With no conflicting holder the
 * waiter can proceed and has no arc; so a lock cycle (A holds T's lock and waits in a Recv from
 * B, B waits for T's lock) is a cycle of the graph. The capture module includes it for the lock
 * type its records carry. Design: docs/design/check-classes.md "One-sided communication". */
#ifndef RMA_LOCKS_H
#define RMA_LOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "check_event.h"

/* The lock type a Win_lock record carries in `count` (Win_lock_all's is shared). */
enum { RMA_LOCKS_SHARED = 0, RMA_LOCKS_EXCLUSIVE = 1 };
/* The target of Win_lock_all's hold and request: every member of the window. */
#define RMA_LOCKS_EVERY_TARGET (-1)

/* One lock a rank holds. */
typedef struct rma_locks_hold {
    uint32_t comm;        /* comm_table index of the window's id */
    int32_t target, rank; /* world ranks; target RMA_LOCKS_EVERY_TARGET for Lock_all */
    uint8_t exclusive;
} rma_locks_hold;

/* The locks held now, zeroed to start. */
typedef struct rma_locks {
    rma_locks_hold *holds;
    size_t n, cap;
} rma_locks;

/* A lock request as the model waits on it. */
typedef struct rma_locks_request {
    uint32_t comm;
    int32_t target, rank; /* target RMA_LOCKS_EVERY_TARGET for Lock_all */
    uint8_t exclusive;
} rma_locks_request;

/* 1 for the functions whose records change locks or wait for one. Pure. */
int rma_locks_about(uint16_t func);
/* 1 and *req for the entry of Win_lock (to a target other than MPI_PROC_NULL) or Win_lock_all
 * on window comm; 0 for any other record. Pure. */
int rma_locks_request_of(const check_event *ev, uint32_t comm, rma_locks_request *req);
/* Applies a record of the window comm: the exit of a granted Win_lock or Win_lock_all adds the
 * caller's hold, the entry of Win_unlock or Win_unlock_all and the exit of Win_free drop it.
 * Other records are ignored. Errors: MG_ERROR_ENOMEM (the hold is not kept: its waiters get no
 * arc). */
int rma_locks_record(rma_locks *l, uint32_t comm, const check_event *ev);
/* The next holder at or after *from whose lock conflicts with req: 1, its world rank in *holder
 * and *from past it; 0 when there is none. Start with *from = 0. */
int rma_locks_next_blocker(const rma_locks *l, const rma_locks_request *req, size_t *from,
                           int32_t *holder);
/* A deep copy into *dst (for probing). Errors: MG_ERROR_ENOMEM (*dst empty). */
int rma_locks_clone(const rma_locks *src, rma_locks *dst);
void rma_locks_free(rma_locks *l);

#endif
