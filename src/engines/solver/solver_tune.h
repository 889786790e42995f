/* Internal to src/engines/solver: no other folder includes it (docs/architecture.md). */
/* Input tuning (dissertation §3.3, Algorithms 1-3; docs/design/concolic-solver.md §5.1): the
 * smallest values that still satisfy a negation, in place of the first model Z3 gives (n = 1234567
 * where n = 101 takes the same arm and runs far shorter) and of the caps users set by hand. */
#ifndef SOLVER_TUNE_H
#define SOLVER_TUNE_H

#include <stdint.h>

#include "path_log.h"
#include "solver_query.h"
#include "solver_z3.h"

/* Tunes values, a solution of query q (targets t) just found, in two stages on the query's
 * incremental dependent slice: (I) the lowest bound B in (0, L], L the largest solved value (at
 * least 1), such
 * that every tuned variable
 * <= B is still consistent (binary search), the excluded variables fixed at their solved
 * values; (II) when the negated constraint has a single variable and it is tuned, the lowest
 * bound of that variable alone in (0, B]. Each tuned variable, in the slice's order, is then
 * fixed to the value nearest zero the bounds and the variables before it allow (the positive one
 * on a tie; binary search on its magnitude): a lexicographic minimum, which any solver state
 * (a resumed campaign's fresh context) gives alike.
 * Excluded (never tuned): the MPI variables (world and communicator sizes, Type-2 of §3.3.2:
 * more processes run shorter; ranks, which the MPI semantics and the focus rule choose). A
 * negation whose variables are all excluded
 * (a new focus or process count) is not tuned: the slice's inputs keep the solver's values. A
 * tuning check over its budget counts as inconsistent, so the values stay a solution (farther
 * from the tuned one). *checks (may be NULL) receives the solver checks tuning made.
 * avoid[0..navoid) (log->nvars values each): tuned solutions of this query that were runs
 * already made. The smallest values lead back to them whenever the search returns to the
 * constraint (a loop's entry tunes to one trip again and again), so tuning starts instead from
 * a solution that keeps the negation's variable (Stage II's, else the slice's first tuned one)
 * off each of their values, and tunes it as above: the next smallest values, as canonical. The
 * chapter (Algorithm 1) tunes each solution once and has no memory of runs; a repeated run
 * covers nothing, and the solver's own model, the other way out, is as large as tuning is
 * there to avoid and depends on the solver's state. *sat is 0 when no such solution exists
 * (or its check is over its budget) or the negation has no tuned variable, 1 otherwise. values
 * is a solution on entry (with avoid, the last avoided one: its ranks and sizes are kept).
 * MG_ERROR_ENOMEM (values are then the untuned ones). solver_query_solve_tuned is the way in. */
int solver_tune(solver_z3 *s, const path_log *log, const solver_query *q,
                const solver_z3_targets *t, const int64_t *const *avoid, size_t navoid,
                int64_t *values, int *sat, uint32_t *checks);

/* 1 when every variable of the negated constraint target is an MPI variable (a rank or a size). */
int solver_tune_names_only_mpi(const path_log *log, const sym_expr_pred *target);

#endif
