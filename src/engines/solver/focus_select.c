/* Next process count and focus from a solution, with rank-conflict resolution
 * (docs/design/concolic-solver.md §6; dissertation §2.3.3-§2.3.4). */
#include "focus_select.h"

#include "mg_error.h"

static int local_rank_of(const sym_var_comm *c, uint32_t global, int64_t *local)
{
    for (uint32_t i = 0; i < c->size; i++) {
        if (c->global[i] == global) {
            *local = i;
            return 1;
        }
    }
    return 0;
}

static int new_np(const sym_var *vars, uint32_t nvars, const int64_t *values, uint32_t prev,
                  uint32_t *np)
{
    *np = prev;
    for (uint32_t i = 0; i < nvars; i++) {
        if (vars[i].kind != SYM_VAR_SIZE_WORLD)
            continue;
        if (values[i] < 1 || values[i] > (int64_t)UINT32_MAX)
            return MG_ERROR_EINVAL;
        *np = (uint32_t)values[i];
        return 0;
    }
    return 0;
}

/* The focus implied by the most up-to-date rank value (§2.3.3). */
static int new_focus(const sym_var *vars, uint32_t nvars, const sym_var_comm *comms,
                     const int64_t *values, uint32_t prev, int64_t *focus, int *named)
{
    *named = 1;
    int64_t from_comm = -1;
    for (uint32_t i = 0; i < nvars; i++) {
        if (values[i] == vars[i].value)
            continue;
        if (vars[i].kind == SYM_VAR_RANK_WORLD) {
            *focus = values[i];
            return 0;
        }
        if (vars[i].kind == SYM_VAR_RANK_COMM && from_comm < 0) {
            const sym_var_comm *c = &comms[vars[i].comm];
            if (values[i] < 0 || values[i] >= (int64_t)c->size)
                return MG_ERROR_ERANGE;
            from_comm = c->global[values[i]];
        }
    }
    *focus = from_comm >= 0 ? from_comm : (int64_t)prev;
    *named = from_comm >= 0;
    return 0;
}

int focus_select(const sym_var *vars, uint32_t nvars, const sym_var_comm *comms, uint32_t ncomms,
                 const focus_select_setup *prev, int64_t *values, focus_select_setup *next,
                 int *solved)
{
    if ((!vars && nvars) || (!values && nvars) || !prev || !next)
        return MG_ERROR_EINVAL;
    for (uint32_t i = 0; i < nvars; i++)
        if (vars[i].kind == SYM_VAR_RANK_COMM && (!comms || vars[i].comm >= ncomms))
            return MG_ERROR_EINVAL;
    uint32_t np;
    int64_t focus;
    int named = 0;
    int rc = new_np(vars, nvars, values, prev->np, &np);
    if (rc == 0)
        rc = new_focus(vars, nvars, comms, values, prev->focus, &focus, &named);
    if (rc != 0)
        return rc;
    if (focus < 0 || focus >= (int64_t)np) {
        focus = 0;
        named = 0;
    }
    for (uint32_t i = 0; i < nvars; i++) {
        if (vars[i].kind == SYM_VAR_RANK_WORLD)
            values[i] = focus;
        else if (vars[i].kind == SYM_VAR_RANK_COMM)
            local_rank_of(&comms[vars[i].comm], (uint32_t)focus, &values[i]);
    }
    next->np = np;
    next->focus = (uint32_t)focus;
    if (solved)
        *solved = named;
    return 0;
}
