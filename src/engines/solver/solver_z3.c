/* Z3 encoding of linear predicates (Int or bit-vector), prefix-sharing push/pop, model read-back
 * (docs/concolic-solver.md §5). The context is created with Z3_mk_context_rc: every AST this file
 * keeps past the next Z3 call is inc_ref'd by keep() and released by drop(). */
#include "solver_z3.h"

#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "mg_array.h"
#include "mg_error.h"
#include "solver_watchdog.h"

struct solver_z3 {
    solver_z3_params p;
    Z3_context ctx;   /* incremental mode only */
    Z3_solver solver; /* incremental mode only */
    sym_pred *frames; /* copy of the predicate asserted at each scope level */
    size_t nframes, cap;
    uint8_t *kinds; /* variable kinds the frames were encoded with */
    uint32_t nkinds;
    solver_watchdog *dog; /* timeout_ms and cancel; NULL when neither is set */
    solver_z3_stats stats;
};

/* Bit-vector width of a predicate side whose width is 0 (unbounded). */
#define BV_DEFAULT_WIDTH 64

void solver_z3_params_default(solver_z3_params *p)
{
    p->semantics = SOLVER_INT;
    p->rlimit = SOLVER_Z3_DEFAULT_RLIMIT;
    p->timeout_ms = SOLVER_Z3_DEFAULT_TIMEOUT_MS;
    p->incremental = 1;
    p->cancel = NULL;
}

/* Z3 errors are read back with Z3_get_error_code; the default handler would abort. */
static void ignore_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
}

static Z3_ast keep(Z3_context c, Z3_ast a)
{
    if (a)
        Z3_inc_ref(c, a);
    return a;
}

static void drop(Z3_context c, Z3_ast a)
{
    if (a)
        Z3_dec_ref(c, a);
}

/* ---- encoding: one context for one check ---- */

typedef struct enc {
    Z3_context c;
    int semantics;
    const sym_var *vars;
    uint32_t nvars;
    solver_watchdog *dog;
    int interrupted; /* the watchdog stopped a check: the context is not to be trusted again */
} enc;

static unsigned var_bits(const sym_var *v)
{
    unsigned bits = BV_DEFAULT_WIDTH;
    sym_var_kind_domain(v->kind, NULL, NULL, &bits, NULL);
    return bits;
}

static int var_signed(const sym_var *v)
{
    int is_signed = 1;
    sym_var_kind_domain(v->kind, NULL, NULL, NULL, &is_signed);
    return is_signed;
}

/* The sort is made last so it is still the context's most recent result (kept alive by Z3's
 * API trail) when Z3_mk_const consumes it. */
static Z3_ast var_const(const enc *e, uint32_t id)
{
    Z3_symbol name = Z3_mk_int_symbol(e->c, (int)id);
    Z3_sort sort = e->semantics == SOLVER_INT ? Z3_mk_int_sort(e->c)
                                              : Z3_mk_bv_sort(e->c, var_bits(&e->vars[id]));
    if (!sort)
        return NULL;
    return keep(e->c, Z3_mk_const(e->c, name, sort));
}

static Z3_ast numeral(const enc *e, int64_t v, unsigned width)
{
    if (e->semantics == SOLVER_INT)
        return keep(e->c, Z3_mk_int64(e->c, v, Z3_mk_int_sort(e->c)));
    uint64_t mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    return keep(e->c, Z3_mk_unsigned_int64(e->c, (uint64_t)v & mask, Z3_mk_bv_sort(e->c, width)));
}

/* A variable resized to `width` bits: extended by its kind's signedness, or truncated. */
static Z3_ast bv_var(const enc *e, uint32_t id, unsigned width)
{
    Z3_ast v = var_const(e, id);
    unsigned bits = var_bits(&e->vars[id]);
    if (!v || bits == width)
        return v;
    Z3_ast r;
    if (bits < width)
        r = var_signed(&e->vars[id]) ? Z3_mk_sign_ext(e->c, width - bits, v)
                                     : Z3_mk_zero_ext(e->c, width - bits, v);
    else
        r = Z3_mk_extract(e->c, width - 1, 0, v);
    r = keep(e->c, r);
    drop(e->c, v);
    return r;
}

static Z3_ast add2(const enc *e, Z3_ast a, Z3_ast b)
{
    Z3_ast args[2] = {a, b};
    return keep(e->c,
                e->semantics == SOLVER_INT ? Z3_mk_add(e->c, 2, args) : Z3_mk_bvadd(e->c, a, b));
}

static Z3_ast mul2(const enc *e, Z3_ast a, Z3_ast b)
{
    Z3_ast args[2] = {a, b};
    return keep(e->c,
                e->semantics == SOLVER_INT ? Z3_mk_mul(e->c, 2, args) : Z3_mk_bvmul(e->c, a, b));
}

/* constant + sum(coef * var), folded left; every partial result is owned and released. */
static Z3_ast encode_expr(const enc *e, const sym_expr *x, unsigned width)
{
    Z3_ast acc = numeral(e, x->constant, width);
    for (uint32_t i = 0; acc && i < x->nterms; i++) {
        Z3_ast v = e->semantics == SOLVER_INT ? var_const(e, x->terms[i].var)
                                              : bv_var(e, x->terms[i].var, width);
        Z3_ast k = numeral(e, x->terms[i].coef, width);
        Z3_ast m = v && k ? mul2(e, k, v) : NULL;
        Z3_ast sum = m ? add2(e, acc, m) : NULL;
        drop(e->c, v);
        drop(e->c, k);
        drop(e->c, m);
        drop(e->c, acc);
        acc = sum;
    }
    return acc;
}

static Z3_ast compare(const enc *e, int op, int is_unsigned, Z3_ast l, Z3_ast r)
{
    Z3_context c = e->c;
    int bv = e->semantics == SOLVER_BITVECTOR;
    switch (op) {
    case SYM_EQ:
        return Z3_mk_eq(c, l, r);
    case SYM_NE: {
        Z3_ast args[2] = {l, r};
        return Z3_mk_distinct(c, 2, args);
    }
    case SYM_LT:
        return !bv ? Z3_mk_lt(c, l, r) : is_unsigned ? Z3_mk_bvult(c, l, r) : Z3_mk_bvslt(c, l, r);
    case SYM_LE:
        return !bv ? Z3_mk_le(c, l, r) : is_unsigned ? Z3_mk_bvule(c, l, r) : Z3_mk_bvsle(c, l, r);
    case SYM_GT:
        return !bv ? Z3_mk_gt(c, l, r) : is_unsigned ? Z3_mk_bvugt(c, l, r) : Z3_mk_bvsgt(c, l, r);
    default: /* SYM_GE: solver_z3_check rejected every other value */
        return !bv ? Z3_mk_ge(c, l, r) : is_unsigned ? Z3_mk_bvuge(c, l, r) : Z3_mk_bvsge(c, l, r);
    }
}

static Z3_ast encode_pred(const enc *e, const sym_pred *p)
{
    unsigned width = p->width ? p->width : BV_DEFAULT_WIDTH;
    Z3_ast l = encode_expr(e, &p->lhs, width);
    Z3_ast r = l ? encode_expr(e, &p->rhs, width) : NULL;
    Z3_ast b = l && r ? keep(e->c, compare(e, p->op, p->is_unsigned, l, r)) : NULL;
    drop(e->c, l);
    drop(e->c, r);
    return b;
}

static int expr_vars_ok(const sym_expr *x, uint32_t nvars)
{
    for (uint32_t i = 0; i < x->nterms; i++)
        if (x->terms[i].var >= nvars)
            return 0;
    return 1;
}

static int z3_failed(Z3_context c)
{
    return Z3_get_error_code(c) != Z3_OK;
}

static int assert_pred(const enc *e, Z3_solver s, const sym_pred *p)
{
    Z3_ast b = encode_pred(e, p);
    if (!b || z3_failed(e->c)) {
        drop(e->c, b);
        return MG_ESOLVER;
    }
    Z3_solver_assert(e->c, s, b);
    drop(e->c, b);
    return z3_failed(e->c) ? MG_ESOLVER : 0;
}

/* ---- contexts, solvers, scopes ---- */

static int make_context(Z3_context *out)
{
    Z3_config cfg = Z3_mk_config();
    if (!cfg)
        return MG_ENOMEM;
    Z3_context c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!c)
        return MG_ESOLVER;
    Z3_set_error_handler(c, ignore_error);
    *out = c;
    return 0;
}

static int make_solver(Z3_context c, const solver_z3_params *sp, Z3_solver *out)
{
    Z3_solver s = Z3_mk_solver(c);
    if (!s)
        return MG_ESOLVER;
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    Z3_params_inc_ref(c, p);
    if (sp->rlimit)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), sp->rlimit);
    /* Z3 otherwise takes SIGINT for itself during a check (it only cancels the check): the
     * caller's handler and its cancel flag must see it. */
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
    if (z3_failed(c)) {
        Z3_solver_dec_ref(c, s);
        return MG_ESOLVER;
    }
    *out = s;
    return 0;
}

static void clear_frames(solver_z3 *s)
{
    for (size_t i = 0; i < s->nframes; i++)
        sym_pred_free(&s->frames[i]);
    s->nframes = 0;
}

static void pop_to(solver_z3 *s, size_t depth)
{
    if (s->nframes > depth)
        Z3_solver_pop(s->ctx, s->solver, (unsigned)(s->nframes - depth));
    while (s->nframes > depth)
        sym_pred_free(&s->frames[--s->nframes]);
}

int solver_z3_create(const solver_z3_params *p, solver_z3 **out)
{
    if (!p || !out || (p->semantics != SOLVER_INT && p->semantics != SOLVER_BITVECTOR))
        return MG_EINVAL;
    *out = NULL;
    solver_z3 *s = calloc(1, sizeof *s);
    if (!s)
        return MG_ENOMEM;
    s->p = *p;
    if ((p->timeout_ms || p->cancel) && solver_watchdog_create(p->timeout_ms, p->cancel, &s->dog)) {
        free(s);
        return MG_ESYS;
    }
    if (p->incremental) {
        int rc = make_context(&s->ctx);
        if (rc == 0)
            rc = make_solver(s->ctx, p, &s->solver);
        if (rc != 0) {
            if (s->ctx)
                Z3_del_context(s->ctx);
            solver_watchdog_destroy(s->dog);
            free(s);
            return rc;
        }
        s->stats.contexts = 1;
    }
    *out = s;
    return 0;
}

void solver_z3_destroy(solver_z3 *s)
{
    if (!s)
        return;
    clear_frames(s);
    free(s->frames);
    free(s->kinds);
    if (s->ctx) {
        Z3_solver_dec_ref(s->ctx, s->solver);
        Z3_del_context(s->ctx);
    }
    solver_watchdog_destroy(s->dog);
    free(s);
}

void solver_z3_get_stats(const solver_z3 *s, solver_z3_stats *out)
{
    *out = s->stats;
}

/* Frames encoded under other variable kinds (bit-vector widths) cannot be reused. */
static int same_kinds(const solver_z3 *s, const sym_var *vars, uint32_t nvars)
{
    uint32_t n = nvars < s->nkinds ? nvars : s->nkinds;
    for (uint32_t i = 0; i < n; i++)
        if (s->kinds[i] != vars[i].kind)
            return 0;
    return 1;
}

static int remember_kinds(solver_z3 *s, const sym_var *vars, uint32_t nvars)
{
    if (nvars > s->nkinds) {
        uint8_t *k = realloc(s->kinds, nvars);
        if (!k)
            return MG_ENOMEM;
        s->kinds = k;
    }
    for (uint32_t i = 0; i < nvars; i++)
        s->kinds[i] = vars[i].kind;
    if (nvars > s->nkinds)
        s->nkinds = nvars;
    return 0;
}

static int push_frame(solver_z3 *s, const enc *e, const sym_pred *p)
{
    int rc = mg_array_reserve((void **)&s->frames, &s->cap, s->nframes + 1, sizeof *s->frames);
    if (rc != 0)
        return rc;
    if (sym_pred_copy(&s->frames[s->nframes], p) != 0)
        return MG_ENOMEM;
    Z3_solver_push(s->ctx, s->solver);
    s->nframes++;
    s->stats.frames_pushed++;
    return assert_pred(e, s->solver, p);
}

/* Makes the scope stack equal to preds: keeps the common prefix, pops the rest, pushes the new. */
static int sync_frames(solver_z3 *s, const enc *e, const sym_pred *const *preds, size_t npreds)
{
    if (!same_kinds(s, e->vars, e->nvars))
        pop_to(s, 0);
    int rc = remember_kinds(s, e->vars, e->nvars);
    size_t common = 0;
    while (common < s->nframes && common < npreds &&
           sym_pred_equal(&s->frames[common], preds[common]))
        common++;
    pop_to(s, common);
    s->stats.frames_reused += common;
    for (size_t i = common; rc == 0 && i < npreds; i++)
        rc = push_frame(s, e, preds[i]);
    return rc;
}

static int read_value(const enc *e, Z3_model m, uint32_t id, int64_t *out)
{
    Z3_ast v = var_const(e, id), r = NULL;
    int rc = MG_ESOLVER;
    if (v && Z3_model_eval(e->c, m, v, true, &r) && r) {
        keep(e->c, r);
        if (e->semantics == SOLVER_INT) {
            int64_t x;
            if (Z3_get_numeral_int64(e->c, r, &x)) {
                *out = x;
                rc = 0;
            }
        } else {
            uint64_t u;
            unsigned bits = var_bits(&e->vars[id]);
            if (Z3_get_numeral_uint64(e->c, r, &u)) {
                unsigned shift = 64 - bits;
                *out = var_signed(&e->vars[id]) && shift ? (int64_t)(u << shift) >> shift
                                                         : (int64_t)u;
                rc = 0;
            }
        }
        drop(e->c, r);
    }
    drop(e->c, v);
    return rc;
}

static int unknown_reason(const enc *e, Z3_solver solver)
{
    Z3_string why = Z3_solver_get_reason_unknown(e->c, solver);
    return why && (strstr(why, "timeout") || strstr(why, "canceled") ||
                   strstr(why, "resource limit"))
               ? MG_ETIMEOUT
               : MG_ESOLVER;
}

/* Checks with every `keep` variable held at its old value; *r is Z3_L_FALSE if that failed. */
static int check_keeping(const enc *e, Z3_solver solver, const solver_z3_targets *t, Z3_lbool *r)
{
    Z3_ast *lits = calloc(t->nkeep, sizeof *lits);
    if (!lits)
        return MG_ENOMEM;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < t->nkeep; i++) {
        const sym_var *v = &e->vars[t->keep[i]];
        Z3_ast x = var_const(e, v->id), k = numeral(e, v->value, var_bits(v));
        lits[i] = x && k ? keep(e->c, Z3_mk_eq(e->c, x, k)) : NULL;
        drop(e->c, x);
        drop(e->c, k);
        if (!lits[i])
            rc = MG_ESOLVER;
    }
    if (rc == 0)
        *r = Z3_solver_check_assumptions(e->c, solver, t->nkeep, lits);
    for (uint32_t i = 0; i < t->nkeep; i++)
        drop(e->c, lits[i]);
    free(lits);
    return rc;
}

/* The checks of one query, under the watchdog when there is one. */
static int watched_checks(enc *e, Z3_solver solver, const solver_z3_targets *t, Z3_lbool *r)
{
    if (e->dog && solver_watchdog_cancelled(e->dog))
        return MG_ETIMEOUT;
    if (e->dog)
        solver_watchdog_arm(e->dog, e->c);
    *r = Z3_L_FALSE;
    int rc = t->nkeep ? check_keeping(e, solver, t, r) : 0;
    if (rc == 0 && *r == Z3_L_FALSE)
        *r = Z3_solver_check(e->c, solver);
    if (e->dog && solver_watchdog_disarm(e->dog)) {
        e->interrupted = 1;
        return rc ? rc : MG_ETIMEOUT;
    }
    return rc;
}

static int outcome(enc *e, Z3_solver solver, const solver_z3_targets *t, int *sat, int64_t *values)
{
    Z3_lbool r;
    int rc = watched_checks(e, solver, t, &r);
    if (rc != 0)
        return rc;
    if (r == Z3_L_FALSE) {
        *sat = 0;
        return 0;
    }
    if (r == Z3_L_UNDEF)
        return unknown_reason(e, solver);
    Z3_model m = Z3_solver_get_model(e->c, solver);
    if (!m)
        return MG_ESOLVER;
    Z3_model_inc_ref(e->c, m);
    for (uint32_t i = 0; rc == 0 && i < t->nsolve; i++)
        rc = read_value(e, m, t->solve[i], &values[t->solve[i]]);
    Z3_model_dec_ref(e->c, m);
    if (rc == 0)
        *sat = 1;
    return rc;
}

static int check_fresh(solver_z3 *s, enc *e, const sym_pred *const *preds, size_t npreds,
                       const solver_z3_targets *t, int *sat, int64_t *values)
{
    Z3_solver solver = NULL;
    int rc = make_context(&e->c);
    if (rc != 0)
        return rc;
    s->stats.contexts++;
    rc = make_solver(e->c, &s->p, &solver);
    for (size_t i = 0; rc == 0 && i < npreds; i++) {
        rc = assert_pred(e, solver, preds[i]);
        s->stats.frames_pushed++;
    }
    if (rc == 0)
        rc = outcome(e, solver, t, sat, values);
    if (solver)
        Z3_solver_dec_ref(e->c, solver);
    Z3_del_context(e->c);
    return rc;
}

/* A new context after an interrupt: Z3_interrupt also cancels the context's own resource limit,
 * which is not documented to be reset for the next check. */
static int renew_context(solver_z3 *s)
{
    if (s->ctx) {
        pop_to(s, 0);
        Z3_solver_dec_ref(s->ctx, s->solver);
        Z3_del_context(s->ctx);
        s->ctx = NULL;
    }
    int rc = make_context(&s->ctx);
    if (rc == 0 && (rc = make_solver(s->ctx, &s->p, &s->solver)) != 0) {
        Z3_del_context(s->ctx);
        s->ctx = NULL;
    }
    s->stats.contexts += rc == 0;
    return rc;
}

static int ids_ok(const uint32_t *ids, uint32_t n, uint32_t nvars)
{
    if (!ids && n)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (ids[i] >= nvars)
            return 0;
    return 1;
}

int solver_z3_check(solver_z3 *s, const sym_var *vars, uint32_t nvars, const sym_pred *const *preds,
                    size_t npreds, const solver_z3_targets *t, int *sat, int64_t *values)
{
    if (!s || (!vars && nvars) || (!preds && npreds) || !t || !sat || (!values && nvars) ||
        !ids_ok(t->solve, t->nsolve, nvars) || !ids_ok(t->keep, t->nkeep, nvars))
        return MG_EINVAL;
    for (uint32_t i = 0; i < nvars; i++)
        if (vars[i].id != i || sym_var_check(&vars[i]) != 0)
            return MG_EINVAL;
    for (size_t i = 0; i < npreds; i++)
        if (!preds[i] || !expr_vars_ok(&preds[i]->lhs, nvars) ||
            !expr_vars_ok(&preds[i]->rhs, nvars) || preds[i]->op >= SYM_OP_END)
            return MG_EINVAL;
    *sat = 0;
    for (uint32_t i = 0; i < nvars; i++)
        values[i] = vars[i].value;
    s->stats.checks++;
    if (s->p.incremental && !s->ctx && renew_context(s))
        return MG_ESOLVER;
    enc e = {s->ctx, s->p.semantics, vars, nvars, s->dog, 0};
    int rc;
    if (!s->p.incremental) {
        rc = check_fresh(s, &e, preds, npreds, t, sat, values);
    } else {
        rc = sync_frames(s, &e, preds, npreds);
        if (rc == 0)
            rc = outcome(&e, s->solver, t, sat, values);
        if (e.interrupted)
            (void)renew_context(s); /* failing, the next check tries again */
        else if (rc != 0 && rc != MG_ETIMEOUT) {
            pop_to(s, 0);
            Z3_solver_reset(s->ctx, s->solver);
        }
    }
    if (rc != 0) {
        for (uint32_t i = 0; i < nvars; i++)
            values[i] = vars[i].value;
        *sat = 0;
    }
    return rc;
}
