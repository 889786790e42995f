/* Query assembly: slice, semantics constraints at first mention, negated target
 * (docs/design/concolic-solver.md §4). */
#include "solver_query.h"

#include "solver_tune.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"
#include "path_slice.h"

/* One conjunct: a path constraint (by branch index) or an owned one (by index in `own`). */
typedef struct item {
    int owned;
    size_t index;
} item;

/* How a query is built: the slice's constraints kept and the negations added, and what the build
 * found about the slice. */
typedef struct shape {
    int relax;                /* leave out the slice's constraints on process counts alone */
    uint32_t cut;             /* keep the slice's first cut constraints only (UINT32_MAX: all) */
    int flip;                 /* then the negation of the slice's constraint cut */
    size_t sizes;             /* the slice's constraints on process counts alone */
    uint32_t nslice, flipped; /* the slice's length; the branch index flip negated */
} shape;

typedef struct builder {
    const path_log *log;
    const mpi_semantics_params *p;
    shape *sh;
    solver_query *q;
    uint8_t *in_query;
    uint8_t *mentioned; /* by a path constraint or the negation, not only by semantics */
    item *items;
    size_t nitems, cap;
} builder;

static int add_item(builder *b, int owned, size_t index)
{
    int rc = mg_array_reserve((void **)&b->items, &b->cap, b->nitems + 1, sizeof *b->items);
    if (rc != 0)
        return rc;
    b->items[b->nitems++] = (item){owned, index};
    return 0;
}

/* Appends the owned predicates created since `from` as items. */
static int add_owned_since(builder *b, size_t from)
{
    int rc = 0;
    for (size_t i = from; rc == 0 && i < b->q->own.n; i++)
        rc = add_item(b, 1, i);
    return rc;
}

static void mark(builder *b, uint32_t v)
{
    b->in_query[v] = 1;
    b->q->solve[b->q->nsolve++] = v;
}

static int enter_var(builder *b, uint32_t v)
{
    const path_log *log = b->log;
    if (b->in_query[v])
        return 0;
    size_t from = b->q->own.n;
    int rc;
    if (mpi_semantics_world_kind(log->vars[v].kind)) {
        for (uint32_t i = 0; i < log->nvars; i++)
            if (mpi_semantics_world_kind(log->vars[i].kind) && !b->in_query[i])
                mark(b, i);
        rc = mpi_semantics_world(log->vars, log->nvars, b->p, &b->q->own);
    } else {
        mark(b, v);
        rc = mpi_semantics_var(log->vars, log->nvars, log->comms, log->ncomms, v, b->p, &b->q->own);
    }
    return rc ? rc : add_owned_since(b, from);
}

static int enter_expr_vars(builder *b, const sym_expr *e)
{
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < e->nterms; i++) {
        b->mentioned[e->terms[i].var] = 1;
        rc = enter_var(b, e->terms[i].var);
    }
    return rc;
}

static int enter_pred_vars(builder *b, const sym_expr_pred *p)
{
    int rc = enter_expr_vars(b, &p->lhs);
    return rc ? rc : enter_expr_vars(b, &p->rhs);
}

/* 1 when every variable of e is the size of a communicator. */
static int sizes_only_expr(const path_log *log, const sym_expr *e)
{
    for (uint32_t i = 0; i < e->nterms; i++) {
        int kind = log->vars[e->terms[i].var].kind;
        if (kind != SYM_VAR_SIZE_WORLD && kind != SYM_VAR_SIZE_COMM)
            return 0;
    }
    return 1;
}

static int sizes_only(const path_log *log, const sym_expr_pred *p)
{
    return p->lhs.nterms + p->rhs.nterms > 0 && sizes_only_expr(log, &p->lhs) &&
           sizes_only_expr(log, &p->rhs);
}

static int add_negation(builder *b, const sym_expr_pred *pred)
{
    sym_expr_pred neg;
    int rc = sym_expr_pred_negate(&neg, pred);
    if (rc == 0)
        rc = enter_pred_vars(b, &neg);
    if (rc == 0 && (rc = sym_expr_pred_list_push(&b->q->own, &neg)) == 0)
        return add_item(b, 1, b->q->own.n - 1);
    sym_expr_pred_free(&neg);
    return rc;
}

static int assemble(builder *b, const uint32_t *slice, uint32_t nslice, uint32_t target)
{
    int rc = 0;
    uint32_t n = nslice < b->sh->cut ? nslice : b->sh->cut;
    b->sh->nslice = nslice;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        if (sizes_only(b->log, &b->log->branches[slice[i]].pred)) {
            b->sh->sizes++;
            if (b->sh->relax)
                continue;
        }
        rc = enter_pred_vars(b, &b->log->branches[slice[i]].pred);
        if (rc == 0)
            rc = add_item(b, 0, slice[i]);
    }
    if (rc == 0 && b->sh->flip && n < nslice) {
        b->sh->flipped = slice[n];
        rc = add_negation(b, &b->log->branches[slice[n]].pred);
    }
    return rc ? rc : add_negation(b, &b->log->branches[target].pred);
}

static int resolve(builder *b)
{
    solver_query *q = b->q;
    q->preds = malloc((b->nitems ? b->nitems : 1) * sizeof *q->preds);
    if (!q->preds)
        return MG_ERROR_ENOMEM;
    for (size_t i = 0; i < b->nitems; i++)
        q->preds[i] = b->items[i].owned ? &q->own.items[b->items[i].index]
                                        : &b->log->branches[b->items[i].index].pred;
    q->npreds = b->nitems;
    for (uint32_t i = 0; i < q->nsolve; i++)
        if (!b->mentioned[q->solve[i]])
            q->keep[q->nkeep++] = q->solve[i];
    return 0;
}

void solver_query_free(solver_query *q)
{
    if (!q)
        return;
    sym_expr_pred_list_free(&q->own);
    free(q->preds);
    free(q->solve);
    free(q->keep);
    memset(q, 0, sizeof *q);
}

static int log_ok(const path_log *log)
{
    for (uint32_t i = 0; i < log->nvars; i++) {
        const sym_var *v = &log->vars[i];
        if (v->id != i || sym_var_check(v) != 0 ||
            (v->comm != SYM_VAR_NO_COMM && v->comm >= log->ncomms))
            return 0;
    }
    return 1;
}

static int build(const path_log *log, uint32_t target, const mpi_semantics_params *p, shape *sh,
                 solver_query *q)
{
    if (!q)
        return MG_ERROR_EINVAL;
    memset(q, 0, sizeof *q);
    if (!log || !p || target >= log->nbranches || !log_ok(log))
        return MG_ERROR_EINVAL;
    uint32_t nslice = 0;
    uint32_t *slice = malloc((target ? target : 1) * sizeof *slice);
    size_t nv = log->nvars ? log->nvars : 1;
    builder b = {log, p, sh, q, calloc(nv, 1), calloc(nv, 1), NULL, 0, 0};
    q->solve = malloc(nv * sizeof *q->solve);
    q->keep = malloc(nv * sizeof *q->keep);
    int rc = slice && b.in_query && b.mentioned && q->solve && q->keep ? 0 : MG_ERROR_ENOMEM;
    if (rc == 0)
        rc = path_slice(log->vars, log->nvars, log->branches, log->nbranches, target, slice,
                        &nslice);
    if (rc == 0)
        rc = assemble(&b, slice, nslice, target);
    if (rc == 0)
        rc = resolve(&b);
    free(slice);
    free(b.in_query);
    free(b.mentioned);
    free(b.items);
    if (rc != 0)
        solver_query_free(q);
    return rc;
}

int solver_query_build(const path_log *log, uint32_t target, const mpi_semantics_params *p,
                       solver_query *q)
{
    shape sh = {0, UINT32_MAX, 0, 0, 0, 0};
    return build(log, target, p, &sh, q);
}

solver_z3_targets solver_query_targets(const solver_query *q)
{
    return (solver_z3_targets){q->solve, q->nsolve, q->keep, q->nkeep};
}

/* Builds the query of shape sh and checks it (with avoid, tuning's check stands for the solver's:
 * solver_tune), then tunes a solution; tuning's checks are added to *checks. */
static int check_shape(solver_z3 *s, const path_log *log, uint32_t target,
                       const mpi_semantics_params *p, shape *sh, int tune,
                       const int64_t *const *avoid, size_t navoid, int *sat, int64_t *values,
                       uint32_t *checks)
{
    solver_query q;
    int rc = build(log, target, p, sh, &q);
    if (rc != 0)
        return rc;
    solver_z3_targets t = solver_query_targets(&q);
    *sat = 1;
    if (!navoid)
        rc = solver_z3_check(s, log->vars, log->nvars, q.preds, q.npreds, &t, sat, values);
    uint32_t tuning = 0;
    if (rc == 0 && *sat && tune)
        rc = solver_tune(s, log, &q, &t, avoid, navoid, values, sat, &tuning);
    *checks += tuning;
    solver_query_free(&q);
    return rc;
}

static int solve(solver_z3 *s, const path_log *log, uint32_t target, const mpi_semantics_params *p,
                 int tune, const int64_t *const *avoid, size_t navoid, int *sat, int64_t *values,
                 uint32_t *checks)
{
    uint32_t tuning = 0;
    if (checks)
        *checks = 0;
    if (!s || !sat || !values || (navoid && !avoid))
        return MG_ERROR_EINVAL;
    /* A negation of an input that only the process counts' own constraints refuse is solved
     * again without them (docs/design/concolic-solver.md §4): a loop over the ranks, or a tree
     * broadcast's loop over their log2, leaves `size <= 2` on every later prefix, which would
     * keep an input that needs more processes (HPL's P x Q grid) at the count it ran with. The
     * run that follows says whether the arm is reached. */
    int rc = 0, relax = 0;
    do {
        shape sh = {relax, UINT32_MAX, 0, 0, 0, 0};
        rc = check_shape(s, log, target, p, &sh, tune, avoid, navoid, sat, values, &tuning);
        relax = !relax && rc == 0 && !*sat && sh.sizes &&
                !solver_tune_names_only_mpi(log, &log->branches[target].pred);
    } while (relax);
    if (checks)
        *checks = tuning;
    return rc;
}

int solver_query_solve(solver_z3 *s, const path_log *log, uint32_t target,
                       const mpi_semantics_params *p, int *sat, int64_t *values)
{
    return solve(s, log, target, p, 0, NULL, 0, sat, values, NULL);
}

int solver_query_solve_tuned(solver_z3 *s, const path_log *log, uint32_t target,
                             const mpi_semantics_params *p, const int64_t *const *avoid,
                             size_t navoid, int *sat, int64_t *values, uint32_t *checks)
{
    return solve(s, log, target, p, 1, avoid, navoid, sat, values, checks);
}

int solver_query_solve_earlier(solver_z3 *s, const path_log *log, uint32_t target,
                               const mpi_semantics_params *p, int *sat, int64_t *values,
                               uint32_t *at, uint32_t *checks)
{
    *checks = 0;
    if (!s || !sat || !values || !at)
        return MG_ERROR_EINVAL;
    /* The longest prefix of the slice that still allows the negation, by bisection: a shorter
     * prefix allows whatever a longer one does. */
    shape sh = {0, 0, 0, 0, 0, 0};
    int rc = check_shape(s, log, target, p, &sh, 0, NULL, 0, sat, values, checks);
    uint32_t lo = 0, hi = sh.nslice;
    for (*checks = 1; rc == 0 && *sat && hi - lo > 1; ++*checks) {
        sh.cut = lo + (hi - lo) / 2;
        rc = check_shape(s, log, target, p, &sh, 0, NULL, 0, sat, values, checks);
        if (*sat)
            lo = sh.cut;
        else
            hi = sh.cut;
        *sat = 1;
    }
    if (rc != 0 || !*sat || lo >= sh.nslice) {
        *sat = 0;
        return rc;
    }
    /* The prefix's models all break the constraint that ends it: the query that negates it too
     * is satisfiable. */
    sh.cut = lo;
    sh.flip = 1;
    ++*checks;
    rc = check_shape(s, log, target, p, &sh, 1, NULL, 0, sat, values, checks);
    *at = sh.flipped;
    return rc;
}
