/* The constraints every solution must obey besides the path: value domains of the input kinds,
 * input caps (§2.4.1), and the inherent MPI-semantics relations among ranks and sizes (§2.3.2)
 * (docs/design/concolic-solver.md §4; spec: dissertation §2.3.2, §2.4.1). */
#ifndef MPI_SEMANTICS_H
#define MPI_SEMANTICS_H

#include <stdint.h>

#include "sym_expr.h"
#include "sym_var.h"

typedef struct mpi_semantics_params {
    int64_t max_np; /* upper bound of the process count (the CLI's --max-np) */
    int apply_caps; /* 1: add value <= cap for variables marked _with_limit */
} mpi_semantics_params;

/* Defaults: max_np 16 (the dissertation's experiments cap the process count at 16), caps on. */
void mpi_semantics_params_default(mpi_semantics_params *p);

/* 1 for the kinds tied together by the world relations: world rank, world size, and the sizes
 * of other communicators (bounded by the world size). */
int mpi_semantics_world_kind(int kind);

/* Appends the constraints of one non-world variable entering a query: its kind's domain (bounds
 * that are the full int64 range are omitted), its cap, and for a communicator rank
 * 0 <= y < size of that communicator (a concrete value, as in §2.3.2). MG_ERROR_EINVAL for a var id
 * past nvars, a world-group var, or a comm index past ncomms; MG_ERROR_ENOMEM (l keeps what was
 * appended before the failure). */
int mpi_semantics_var(const sym_var *vars, uint32_t nvars, const sym_var_comm *comms,
                      uint32_t ncomms, uint32_t var, const mpi_semantics_params *p,
                      sym_expr_pred_list *l);

/* Appends the world block once for all world-group variables: every world rank equal to the
 * first (x0 = xi), every world size equal to the first (z0 = zi), 0 <= x0 < z0,
 * 1 <= z0 <= max_np, and each communicator size c with 1 <= c <= z0 (or max_np when no world
 * size is marked). Caps of these variables apply too. MG_ERROR_EINVAL for NULL or max_np < 1;
 * MG_ERROR_ENOMEM. */
int mpi_semantics_world(const sym_var *vars, uint32_t nvars, const mpi_semantics_params *p,
                        sym_expr_pred_list *l);

#endif
