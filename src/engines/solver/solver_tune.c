/* Input tuning: two-stage binary search for the smallest consistent bounds (solver_tune.h). */
#include "solver_tune.h"

#include <stdlib.h>

#include "mg_error.h"

/* The query's predicates followed by the bounds tuning has fixed so far (all[0..nfixed)), with
 * room for one stage's trial bounds after them. */
typedef struct tuner {
    solver_z3 *s;
    const path_log *log;
    const solver_z3_targets *t;
    const sym_expr_pred **all;
    size_t npreds, nfixed;
    int64_t *scratch;
    int64_t *model; /* the last satisfiable check's values: they satisfy every fixed bound */
    uint32_t checks;
    const int64_t *const *avoid; /* solutions that were runs already made (solver_tune.h) */
    size_t navoid;
} tuner;

/* Points all[] past the query's predicates at the fixed bounds (the list may have moved). */
static void fix(tuner *k, const sym_expr_pred_list *fixed)
{
    for (size_t i = 0; i < fixed->n; i++)
        k->all[k->npreds + i] = &fixed->items[i];
    k->nfixed = k->npreds + fixed->n;
}

/* 1 when the fixed predicates and trial's are satisfiable (a check over its budget, or out of
 * memory, counts as not); the model is then kept. */
static int holds(tuner *k, sym_expr_pred_list *trial, int rc)
{
    int sat = 0;
    for (size_t i = 0; rc == 0 && i < trial->n; i++)
        k->all[k->nfixed + i] = &trial->items[i];
    if (rc == 0) {
        rc = solver_z3_check(k->s, k->log->vars, k->log->nvars, k->all, k->nfixed + trial->n, k->t,
                             &sat, k->scratch);
        k->checks++;
    }
    sym_expr_pred_list_free(trial);
    if (rc == 0 && sat)
        for (uint32_t v = 0; v < k->log->nvars; v++)
            k->model[v] = k->scratch[v];
    return rc == 0 && sat;
}

/* 1 when the fixed predicates and v <= bound for every v of vars[0..n) are satisfiable. */
static int consistent(tuner *k, const uint32_t *vars, uint32_t n, int64_t bound)
{
    sym_expr_pred_list trial;
    sym_expr_pred_list_init(&trial);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        rc = sym_expr_pred_list_push_bound(&trial, vars[i], SYM_EXPR_LE, bound);
    return holds(k, &trial, rc);
}

/* 1 when the fixed predicates allow -m <= v <= m. */
static int within(tuner *k, uint32_t v, int64_t m)
{
    sym_expr_pred_list trial;
    sym_expr_pred_list_init(&trial);
    int rc = sym_expr_pred_list_push_bound(&trial, v, SYM_EXPR_LE, m);
    if (rc == 0)
        rc = sym_expr_pred_list_push_bound(&trial, v, SYM_EXPR_GE, -m);
    return holds(k, &trial, rc);
}

/* 1 when the fixed predicates allow v == x. */
static int allows(tuner *k, uint32_t v, int64_t x)
{
    sym_expr_pred_list trial;
    sym_expr_pred_list_init(&trial);
    return holds(k, &trial, sym_expr_pred_list_push_bound(&trial, v, SYM_EXPR_EQ, x));
}

/* Algorithm 3: the lowest upper bound in (0, bound] that vars[0..n) can all keep. */
static int64_t lowest_bound(tuner *k, const uint32_t *vars, uint32_t n, int64_t bound)
{
    int64_t lower = 0, upper = bound;
    while (lower + 1 < upper) {
        int64_t mid = lower + (upper - lower) / 2;
        if (consistent(k, vars, n, mid))
            upper = mid;
        else
            lower = mid;
    }
    return upper;
}

/* The single variable of the negated constraint, or UINT32_MAX when it has none or several. */
static uint32_t single_var(const sym_expr_pred *target)
{
    uint32_t var = UINT32_MAX;
    const sym_expr *sides[2] = {&target->lhs, &target->rhs};
    for (int side = 0; side < 2; side++)
        for (uint32_t i = 0; i < sides[side]->nterms; i++) {
            uint32_t v = sides[side]->terms[i].var;
            if (var != UINT32_MAX && v != var)
                return UINT32_MAX;
            var = v;
        }
    return var;
}

int solver_tune_names_only_mpi(const path_log *log, const sym_expr_pred *target)
{
    const sym_expr *sides[2] = {&target->lhs, &target->rhs};
    for (int side = 0; side < 2; side++)
        for (uint32_t i = 0; i < sides[side]->nterms; i++)
            if (!sym_var_is_mpi(log->vars[sides[side]->terms[i].var].kind))
                return 0;
    return 1;
}

/* The bounds leave a choice the solver makes by its state (a resumed campaign's fresh context
 * chose 0 where the uninterrupted one chose -8 under the same bound), so each tuned variable in
 * turn is fixed to the value nearest zero that the ones before allow, the positive one on a tie:
 * a lexicographic minimum, the same from any solver state. The model satisfies the fixed
 * predicates on entry and on return; a check over its budget makes a value farther from zero,
 * never an inconsistent one. Returns 0 or MG_ERROR_ENOMEM. */
static int canonical(tuner *k, sym_expr_pred_list *fixed, const uint32_t *tuned, uint32_t ntuned)
{
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < ntuned; i++) {
        uint32_t v = tuned[i];
        int64_t x = k->model[v], lower = -1, upper = x >= 0 ? x : x == INT64_MIN ? INT64_MAX : -x;
        while (lower + 1 < upper) {
            int64_t mid = lower + (int64_t)(((uint64_t)upper - (uint64_t)lower) / 2);
            fix(k, fixed);
            if (within(k, v, mid))
                upper = mid;
            else
                lower = mid;
        }
        /* The model holds v within [-upper, upper], at -upper or +upper unless a check ran out. */
        fix(k, fixed);
        if (upper > 0 && k->model[v] != upper)
            (void)allows(k, v, upper);
        rc = sym_expr_pred_list_push_bound(fixed, v, SYM_EXPR_EQ, k->model[v]);
    }
    fix(k, fixed);
    return rc;
}

/* Keeps the variable the negation is about (Stage II's, else the slice's first tuned one) off
 * its value in each avoided solution, and replaces values by a solution of the query that does
 * so. 1 when there is one; 0 when not (a check over its budget counts as none), or MG_ERROR_ENOMEM.
 */
static int avoid_repeats(tuner *k, sym_expr_pred_list *fixed, const uint32_t *tuned,
                         uint32_t ntuned, uint32_t symb, int symb_tuned, int64_t *values)
{
    if (ntuned == 0)
        return 0;
    uint32_t v = symb_tuned ? symb : tuned[0];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < k->navoid; i++)
        rc = sym_expr_pred_list_push_bound(fixed, v, SYM_EXPR_NE, k->avoid[i][v]);
    if (rc)
        return rc;
    fix(k, fixed);
    sym_expr_pred_list none;
    sym_expr_pred_list_init(&none);
    if (!holds(k, &none, 0))
        return 0;
    for (uint32_t w = 0; w < k->log->nvars; w++)
        values[w] = k->model[w];
    return 1;
}

/* Stages I and II over the solved values (Algorithm 1), then the canonical values under their
 * bounds. Returns 0 or MG_ERROR_ENOMEM; values are replaced only by a consistent tuned solution. */
static int tune(tuner *k, const solver_query *q, int64_t *values, int *sat)
{
    const path_log *log = k->log;
    uint32_t *tuned = malloc(((size_t)q->nsolve + 1) * sizeof *tuned), ntuned = 0;
    sym_expr_pred_list fixed;
    sym_expr_pred_list_init(&fixed);
    int rc = tuned ? 0 : MG_ERROR_ENOMEM;
    int64_t bound = -1;
    /* A negation of ranks and sizes alone asks for another focus or process count, none of
     * which is tuned: lowering the slice's inputs with it only pulls them to the smallest the new
     * count allows (heat.c's cells down to the process count, so the block split never has a
     * remainder, 5 arms fewer at run 60), so its solution stays the solver's. */
    if (solver_tune_names_only_mpi(log, q->preds[q->npreds - 1])) {
        *sat = !k->navoid;
        goto out;
    }
    for (uint32_t i = 0; rc == 0 && i < q->nsolve; i++) {
        uint32_t v = q->solve[i];
        if (sym_var_is_float(log->vars[v].kind))
            continue; /* not tuned (§3.4): a float rarely sets the problem's size */
        if (sym_var_is_mpi(log->vars[v].kind)) {
            rc = sym_expr_pred_list_push_bound(&fixed, v, SYM_EXPR_EQ, values[v]);
            continue;
        }
        tuned[ntuned++] = v;
    }
    uint32_t symb = single_var(q->preds[q->npreds - 1]);
    int symb_tuned = 0;
    for (uint32_t i = 0; i < ntuned; i++)
        symb_tuned |= tuned[i] == symb;
    if (rc == 0 && k->navoid) {
        rc = avoid_repeats(k, &fixed, tuned, ntuned, symb, symb_tuned, values);
        *sat = rc == 1;
        rc = rc == 1 ? 0 : rc;
    }
    if (rc || !*sat)
        goto out;
    for (uint32_t i = 0; i < ntuned; i++)
        if (values[tuned[i]] > bound)
            bound = values[tuned[i]];
    for (uint32_t v = 0; v < log->nvars; v++)
        k->model[v] = values[v];
    /* Both stages run whatever the solved values (a bound of 1 costs no check), so that the
     * bounds, and the values canonical() picks under them, do not depend on the solver's model. */
    fix(k, &fixed);
    int64_t multi = lowest_bound(k, tuned, ntuned, bound > 1 ? bound : 1);
    for (uint32_t i = 0; rc == 0 && i < ntuned; i++)
        rc = sym_expr_pred_list_push_bound(&fixed, tuned[i], SYM_EXPR_LE, multi);
    if (rc == 0 && symb_tuned) {
        fix(k, &fixed);
        int64_t single = lowest_bound(k, &symb, 1, multi);
        if (single < multi)
            rc = sym_expr_pred_list_push_bound(&fixed, symb, SYM_EXPR_LE, single);
    }
    if (rc == 0)
        rc = canonical(k, &fixed, tuned, ntuned);
    if (rc == 0)
        for (uint32_t v = 0; v < log->nvars; v++)
            values[v] = k->model[v];
out:
    sym_expr_pred_list_free(&fixed);
    free(tuned);
    return rc;
}

int solver_tune(solver_z3 *s, const path_log *log, const solver_query *q,
                const solver_z3_targets *t, const int64_t *const *avoid, size_t navoid,
                int64_t *values, int *sat, uint32_t *checks)
{
    if (checks)
        *checks = 0;
    *sat = !navoid;
    if (q->npreds == 0)
        return 0;
    tuner k = {s,
               log,
               t,
               malloc((q->npreds + 3 * (size_t)q->nsolve + navoid + 3) * sizeof *k.all),
               q->npreds,
               q->npreds,
               malloc(((size_t)log->nvars + 1) * sizeof *k.scratch),
               malloc(((size_t)log->nvars + 1) * sizeof *k.model),
               0,
               avoid,
               navoid};
    for (size_t i = 0; k.all && i < q->npreds; i++)
        k.all[i] = q->preds[i];
    int rc = k.all && k.scratch && k.model ? tune(&k, q, values, sat) : MG_ERROR_ENOMEM;
    if (checks)
        *checks = k.checks;
    free(k.all);
    free(k.scratch);
    free(k.model);
    return rc;
}
