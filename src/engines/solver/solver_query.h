/* Internal to src/engines/solver: no other folder includes it (docs/architecture.md). */
/* A solver query for negating one constraint of a path: its dependent slice in path order, the
 * negated constraint last, and the domain, cap and MPI-semantics constraints of each variable
 * placed just before the first constraint that mentions it, so consecutive DFS queries share a
 * long prefix for the incremental solver (docs/design/concolic-solver.md §4-§5; dissertation
 * §2.3.2, §2.4.1, §3.2.1). */
#ifndef SOLVER_QUERY_H
#define SOLVER_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "mpi_semantics.h"
#include "path_log.h"
#include "solver_z3.h"

/* preds points into the path's branches and into `own`; it is valid while both live. */
typedef struct solver_query {
    sym_expr_pred_list own;      /* semantics constraints and the negated target */
    const sym_expr_pred **preds; /* the conjunction, in assertion order */
    size_t npreds;
    uint32_t *solve; /* variables the query constrains: these get new values */
    uint32_t nsolve;
    uint32_t *keep; /* world ranks/sizes that no path constraint of the query mentions */
    uint32_t nkeep;
} solver_query;

/* Builds the query that negates log->branches[target]. MG_ERROR_EINVAL for target past the path or
 * a malformed log (variable or communicator out of range); MG_ERROR_ENOMEM. On failure *q is empty.
 */
int solver_query_build(const path_log *log, uint32_t target, const mpi_semantics_params *p,
                       solver_query *q);
void solver_query_free(solver_query *q);

/* What a check of q solves and keeps (solver_z3_check's targets); valid while q lives. */
solver_z3_targets solver_query_targets(const solver_query *q);

/* Builds and checks the query. values (log->nvars entries) receives the next inputs: solved
 * values for the query's variables, the old value for every other one. *sat as in
 * solver_z3_check; errors as solver_query_build and solver_z3_check (an unsatisfiable negation
 * is not an error: *sat = 0, and the caller asks its strategy for the next constraint). */
int solver_query_solve(solver_z3 *s, const path_log *log, uint32_t target,
                       const mpi_semantics_params *p, int *sat, int64_t *values);

/* solver_query_solve, then input tuning of a satisfiable solution (solver_tune.h); *checks
 * (may be NULL) receives the checks tuning added. With avoid (navoid > 0: tuned solutions of
 * the same query that were runs already made, the last of them in values on entry), tuning's
 * own check replaces the solver's first one and *sat says whether another solution was found
 * (solver_tune). */
int solver_query_solve_tuned(solver_z3 *s, const path_log *log, uint32_t target,
                             const mpi_semantics_params *p, const int64_t *const *avoid,
                             size_t navoid, int *sat, int64_t *values, uint32_t *checks);

/* For a negation that is unsatisfiable because an earlier constraint of its slice already
 * decides its branch (HPL's driver tests `L1notran != 0` after HPL_pdinfo's own check of the
 * same input took `L1notran == 0`): the arm is reached by a path that leaves the logged one at
 * that earlier constraint. The slice's longest prefix with which the negation is satisfiable
 * (bisection), the negation of the slice constraint that follows it, and the negation of
 * target, tuned; *at receives that constraint's branch index. *sat is 0 when the negation is
 * unsatisfiable on its own. *checks receives the solver checks made. Errors as
 * solver_query_solve. */
int solver_query_solve_earlier(solver_z3 *s, const path_log *log, uint32_t target,
                               const mpi_semantics_params *p, int *sat, int64_t *values,
                               uint32_t *at, uint32_t *checks);

#endif
