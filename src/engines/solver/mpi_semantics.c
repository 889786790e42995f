/* Domain, cap and MPI-semantics constraints (docs/design/concolic-solver.md §4, dissertation
 * §2.3.2). */
#include "mpi_semantics.h"

#include "mg_error.h"

void mpi_semantics_params_default(mpi_semantics_params *p)
{
    p->max_np = 16;
    p->apply_caps = 1;
}

int mpi_semantics_world_kind(int kind)
{
    return kind == SYM_VAR_RANK_WORLD || kind == SYM_VAR_SIZE_WORLD || kind == SYM_VAR_SIZE_COMM;
}

static int push_cap(const sym_var *v, const mpi_semantics_params *p, sym_expr_pred_list *l)
{
    if (!p->apply_caps || !v->has_cap)
        return 0;
    return sym_expr_pred_list_push_bound(l, v->id, SYM_EXPR_LE, v->cap);
}

int mpi_semantics_var(const sym_var *vars, uint32_t nvars, const sym_var_comm *comms,
                      uint32_t ncomms, uint32_t var, const mpi_semantics_params *p,
                      sym_expr_pred_list *l)
{
    if (!vars || !p || !l || var >= nvars || mpi_semantics_world_kind(vars[var].kind))
        return MG_ERROR_EINVAL;
    const sym_var *v = &vars[var];
    int64_t lo, hi;
    if (sym_var_kind_domain(v->kind, &lo, &hi, NULL, NULL) != 0)
        return MG_ERROR_EINVAL;
    if (v->kind == SYM_VAR_RANK_COMM) {
        if (!comms || v->comm >= ncomms)
            return MG_ERROR_EINVAL;
        hi = (int64_t)comms[v->comm].size - 1;
    }
    int rc = 0;
    if (lo != INT64_MIN)
        rc = sym_expr_pred_list_push_bound(l, var, SYM_EXPR_GE, lo);
    if (rc == 0 && hi != INT64_MAX)
        rc = sym_expr_pred_list_push_bound(l, var, SYM_EXPR_LE, hi);
    if (rc == 0)
        rc = push_cap(v, p, l);
    return rc;
}

/* First variable of a kind, or UINT32_MAX. */
static uint32_t first_of(const sym_var *vars, uint32_t nvars, int kind)
{
    for (uint32_t i = 0; i < nvars; i++)
        if (vars[i].kind == kind)
            return i;
    return UINT32_MAX;
}

/* One world variable: equal to the kind's first (anchor), or the anchor's own bounds. */
static int world_var(const sym_var *v, uint32_t x0, uint32_t z0, const mpi_semantics_params *p,
                     sym_expr_pred_list *l)
{
    int rc = push_cap(v, p, l);
    if (rc != 0)
        return rc;
    switch (v->kind) {
    case SYM_VAR_RANK_WORLD:
        if (v->id != x0)
            return sym_expr_pred_list_push_relation(l, v->id, SYM_EXPR_EQ, x0);
        rc = sym_expr_pred_list_push_bound(l, x0, SYM_EXPR_GE, 0);
        if (rc == 0 && z0 != UINT32_MAX)
            rc = sym_expr_pred_list_push_relation(l, x0, SYM_EXPR_LT, z0);
        if (rc == 0 && z0 == UINT32_MAX)
            rc = sym_expr_pred_list_push_bound(l, x0, SYM_EXPR_LT, p->max_np);
        return rc;
    case SYM_VAR_SIZE_WORLD:
        if (v->id != z0)
            return sym_expr_pred_list_push_relation(l, v->id, SYM_EXPR_EQ, z0);
        rc = sym_expr_pred_list_push_bound(l, z0, SYM_EXPR_GE, 1);
        return rc ? rc : sym_expr_pred_list_push_bound(l, z0, SYM_EXPR_LE, p->max_np);
    default: /* SYM_VAR_SIZE_COMM */
        rc = sym_expr_pred_list_push_bound(l, v->id, SYM_EXPR_GE, 1);
        if (rc == 0 && z0 != UINT32_MAX)
            return sym_expr_pred_list_push_relation(l, v->id, SYM_EXPR_LE, z0);
        return rc ? rc : sym_expr_pred_list_push_bound(l, v->id, SYM_EXPR_LE, p->max_np);
    }
}

int mpi_semantics_world(const sym_var *vars, uint32_t nvars, const mpi_semantics_params *p,
                        sym_expr_pred_list *l)
{
    if ((!vars && nvars) || !p || !l || p->max_np < 1)
        return MG_ERROR_EINVAL;
    uint32_t x0 = first_of(vars, nvars, SYM_VAR_RANK_WORLD);
    uint32_t z0 = first_of(vars, nvars, SYM_VAR_SIZE_WORLD);
    for (uint32_t i = 0; i < nvars; i++) {
        if (!mpi_semantics_world_kind(vars[i].kind))
            continue;
        int rc = world_var(&vars[i], x0, z0, p, l);
        if (rc != 0)
            return rc;
    }
    return 0;
}
