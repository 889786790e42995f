/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Post/start/complete/wait as messages of the wait-for model (issue 28 item 5): each PSCW call is
 * a set of buffered sends or blocking receives on the window's own communicator id, one per rank
 * of its group, with a tag no program can use there (the window id carries no user traffic).
 * MPI_Win_post sends "posted" to every origin of its group; MPI_Win_start waits for "posted" from
 * every target of its group (both MPIs here block in Win_start until the posts arrived; MPI 3.1
 * §11.5.2 allows it, so a program that needs Win_start to return first is erroneous, as MUST
 * treats it); MPI_Win_complete sends "completed" to every target; MPI_Win_wait waits for
 * "completed" from every origin of its post group (AND). A PSCW deadlock is then a cycle of the
 * point-to-point wait-for graph. The capture module puts the group (world ranks) in the record's
 * ranks[]. Design: docs/design/check-classes.md "One-sided communication". */
#ifndef RMA_WAITS_H
#define RMA_WAITS_H

#include <stdint.h>

/* What one PSCW call does in the model. */
typedef struct rma_waits_role_kind {
    uint8_t waits; /* 1: blocking receives from every rank of the group; 0: buffered sends */
    int32_t tag;   /* the message's tag on the window's communicator */
} rma_waits_role_kind;

/* 1 and *role for Win_post, Win_start, Win_complete and Win_wait; 0 for any other function.
 * Pure. */
int rma_waits_role(uint16_t func, rma_waits_role_kind *role);

#endif
