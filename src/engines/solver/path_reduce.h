/* Constraint-set reduction for loops (docs/design/concolic-solver.md §3; dissertation §2.4.3): a
 * branch's constraint is kept only the first time the branch is met and whenever its outcome flips,
 * since within one loop the repeated same-outcome constraints are subsumed by the first one. That
 * holds while the constraint is over the same inputs; one over other inputs (a second read of an
 * input file, the next value a reading loop marks) constrains values no kept constraint of the
 * branch does, so it is kept too, up to PATH_REDUCE_MAX_FRESH times per branch (a loop summing
 * marked values meets new inputs on every trip). */
#ifndef PATH_REDUCE_H
#define PATH_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "path_log.h"

/* The last outcome seen per branch id (open addressing). Owns its tables. */
#define PATH_REDUCE_MAX_FRESH 64

typedef struct path_reduce {
    uint32_t *ids;
    uint8_t *state;   /* 0 empty slot, 1 last outcome false, 2 last outcome true */
    uint32_t *inputs; /* a hash of the variables of the constraint last kept */
    uint8_t *fresh;   /* constraints kept for other variables alone */
    size_t cap, used;
} path_reduce;

/* Sizes the table for about `expected` distinct branches (it grows past that). MG_ENOMEM. */
int path_reduce_init(path_reduce *pr, size_t expected);
void path_reduce_free(path_reduce *pr);
/* The runtime's filter: *record = 1 when this outcome of branch_id, constraint pred, must be
 * logged (first time met, the outcome differs from the last one, or pred is over other variables
 * than the constraint last kept, within PATH_REDUCE_MAX_FRESH), else 0. MG_ENOMEM when the table
 * cannot grow (state unchanged, *record = 1 so nothing is lost); MG_EINVAL for bad arguments. */
int path_reduce_admit(path_reduce *pr, uint32_t branch_id, int taken, const sym_pred *pred,
                      int *record);
/* The same reduction applied to a recorded path: keep[0..*nkeep) receives the indices kept, in
 * order (keep must hold n entries). MG_ENOMEM, MG_EINVAL. */
int path_reduce_apply(const path_branch *in, uint32_t n, uint32_t *keep, uint32_t *nkeep);

#endif
