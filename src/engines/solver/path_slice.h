/* Internal to src/engines/solver: no other folder includes it (docs/architecture.md). */
/* The dependent slice of a negated constraint (docs/design/concolic-solver.md §3; dissertation
 * §3.2.1 and its footnote: constraints are dependent when they share variables, transitively). Only
 * the slice is solved; every other variable keeps its previous value. */
#ifndef PATH_SLICE_H
#define PATH_SLICE_H

#include <stdint.h>

#include "path_log.h"
#include "sym_var.h"

/* Indices (ascending, all < target) of the branches of path[0..target) whose constraints are
 * connected to path[target]'s through shared variables. The world rank, world size and
 * communicator-size variables count as one group because the MPI-semantics constraints (§2.3.2)
 * relate them. out must hold target entries. MG_ERROR_EINVAL for target >= n, a variable id >=
 * nvars or NULL arguments; MG_ERROR_ENOMEM. */
int path_slice(const sym_var *vars, uint32_t nvars, const path_log_branch *path, uint32_t n,
               uint32_t target, uint32_t *out, uint32_t *nout);

#endif
