/* Constraint-set reduction for loops (docs/design/concolic-solver.md §3; dissertation §2.4.3): a
 * branch's constraint is kept only the first time the branch is met and whenever its outcome flips,
 * since within one loop the repeated same-outcome constraints are subsumed by the first one. */
#ifndef PATH_REDUCE_H
#define PATH_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "path_log.h"

/* The last outcome seen per branch id (open addressing). Owns its tables. */
typedef struct path_reduce {
    uint32_t *ids;
    uint8_t *state; /* 0 empty slot, 1 last outcome false, 2 last outcome true */
    size_t cap, used;
} path_reduce;

/* Sizes the table for about `expected` distinct branches (it grows past that). MG_ERROR_ENOMEM. */
int path_reduce_init(path_reduce *pr, size_t expected);
void path_reduce_free(path_reduce *pr);
/* The runtime's filter: *record = 1 when this outcome of branch_id must be logged (first time
 * met, or the outcome differs from the last one), else 0. MG_ERROR_ENOMEM when the table cannot
 * grow (state unchanged, *record = 1 so nothing is lost); MG_ERROR_EINVAL for bad arguments. */
int path_reduce_admit(path_reduce *pr, uint32_t branch_id, int taken, int *record);
/* The same reduction applied to a recorded path: keep[0..*nkeep) receives the indices kept, in
 * order (keep must hold n entries). MG_ERROR_ENOMEM, MG_ERROR_EINVAL. */
int path_reduce_apply(const path_log_branch *in, uint32_t n, uint32_t *keep, uint32_t *nkeep);

#endif
