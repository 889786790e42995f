/* Dependent-slice computation by union-find over variables (docs/design/concolic-solver.md §3). */
#include "path_slice.h"

#include <stdlib.h>

#include "mg_error.h"

static uint32_t root(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

static void join(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = root(parent, a);
    b = root(parent, b);
    if (a != b)
        parent[a] = b;
}

static int first_var(const sym_expr_pred *p, uint32_t *v)
{
    if (p->lhs.nterms) {
        *v = p->lhs.terms[0].var;
        return 1;
    }
    if (p->rhs.nterms) {
        *v = p->rhs.terms[0].var;
        return 1;
    }
    return 0;
}

static int vars_valid(const sym_expr *e, uint32_t nvars)
{
    for (uint32_t i = 0; i < e->nterms; i++)
        if (e->terms[i].var >= nvars)
            return 0;
    return 1;
}

static void join_expr(uint32_t *parent, const sym_expr *e, uint32_t anchor)
{
    for (uint32_t i = 0; i < e->nterms; i++)
        join(parent, e->terms[i].var, anchor);
}

static int world_group(int kind)
{
    return kind == SYM_VAR_RANK_WORLD || kind == SYM_VAR_SIZE_WORLD || kind == SYM_VAR_SIZE_COMM;
}

int path_slice(const sym_var *vars, uint32_t nvars, const path_log_branch *path, uint32_t n,
               uint32_t target, uint32_t *out, uint32_t *nout)
{
    if (!vars || !path || !nout || target >= n || (!out && target))
        return MG_ERROR_EINVAL;
    for (uint32_t i = 0; i <= target; i++)
        if (!vars_valid(&path[i].pred.lhs, nvars) || !vars_valid(&path[i].pred.rhs, nvars))
            return MG_ERROR_EINVAL;
    *nout = 0;
    uint32_t t;
    if (!first_var(&path[target].pred, &t))
        return 0;
    uint32_t *parent = malloc((size_t)nvars * sizeof *parent);
    if (!parent)
        return MG_ERROR_ENOMEM;
    uint32_t world = UINT32_MAX;
    for (uint32_t v = 0; v < nvars; v++) {
        parent[v] = v;
        if (world_group(vars[v].kind)) {
            if (world == UINT32_MAX)
                world = v;
            join(parent, v, world);
        }
    }
    for (uint32_t i = 0; i <= target; i++) {
        uint32_t a;
        if (!first_var(&path[i].pred, &a))
            continue;
        join_expr(parent, &path[i].pred.lhs, a);
        join_expr(parent, &path[i].pred.rhs, a);
    }
    uint32_t group = root(parent, t), k = 0;
    for (uint32_t i = 0; i < target; i++) {
        uint32_t a;
        if (first_var(&path[i].pred, &a) && root(parent, a) == group)
            out[k++] = i;
    }
    free(parent);
    *nout = k;
    return 0;
}
