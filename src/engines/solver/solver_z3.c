/* Z3 encoding of linear predicates (Int or bit-vector; float comparisons over Real or IEEE
 * binary64), prefix-sharing push/pop, model read-back (docs/design/concolic-solver.md §5). The
 * context is created with Z3_mk_context_rc: every AST this file keeps past the next Z3 call is
 * inc_ref'd by keep() and released by drop(). */
#include "solver_z3.h"

#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "mg_array.h"
#include "mg_error.h"
#include "solver_watchdog.h"

struct solver_z3 {
    solver_z3_params p;
    Z3_context ctx;        /* incremental mode only */
    Z3_solver solver;      /* incremental mode only */
    sym_expr_pred *frames; /* copy of the predicate asserted at each scope level */
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
    p->semantics = SOLVER_Z3_INT;
    p->floats = SOLVER_Z3_FLOATS_REAL;
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
    int floats;
    const sym_var *vars;
    uint32_t nvars;
    solver_watchdog *dog;
    int interrupted; /* the watchdog stopped a check: the context is not to be trusted again */
    Z3_ast rm;       /* round to nearest-even, and */
    Z3_sort dbl;     /* binary64: both kept from fpa_start to fpa_end */
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

static Z3_sort var_sort(const enc *e, const sym_var *v)
{
    if (v->sort == SYM_VAR_SORT_REAL && e->floats == SOLVER_Z3_FLOATS_REAL)
        return Z3_mk_real_sort(e->c);
    if (v->sort == SYM_VAR_SORT_REAL)
        return v->kind == SYM_VAR_FLOAT ? Z3_mk_fpa_sort_single(e->c) : e->dbl;
    return e->semantics == SOLVER_Z3_INT ? Z3_mk_int_sort(e->c) : Z3_mk_bv_sort(e->c, var_bits(v));
}

/* The sort is made last so it is still the context's most recent result (kept alive by Z3's
 * API trail) when Z3_mk_const consumes it. */
static Z3_ast var_const(const enc *e, uint32_t id)
{
    Z3_symbol name = Z3_mk_int_symbol(e->c, (int)id);
    Z3_sort sort = var_sort(e, &e->vars[id]);
    if (!sort)
        return NULL;
    return keep(e->c, Z3_mk_const(e->c, name, sort));
}

static Z3_ast numeral(const enc *e, int64_t v, unsigned width)
{
    if (e->semantics == SOLVER_Z3_INT)
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
                e->semantics == SOLVER_Z3_INT ? Z3_mk_add(e->c, 2, args) : Z3_mk_bvadd(e->c, a, b));
}

static Z3_ast mul2(const enc *e, Z3_ast a, Z3_ast b)
{
    Z3_ast args[2] = {a, b};
    return keep(e->c,
                e->semantics == SOLVER_Z3_INT ? Z3_mk_mul(e->c, 2, args) : Z3_mk_bvmul(e->c, a, b));
}

/* constant + sum(coef * var), folded left; every partial result is owned and released. */
static Z3_ast encode_expr(const enc *e, const sym_expr *x, unsigned width)
{
    Z3_ast acc = numeral(e, x->constant, width);
    for (uint32_t i = 0; acc && i < x->nterms; i++) {
        Z3_ast v = e->semantics == SOLVER_Z3_INT ? var_const(e, x->terms[i].var)
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

/* ---- float expressions: Real, or IEEE binary64 under SOLVER_Z3_FLOATS_FP ---- */

static Z3_ast compare(const enc *e, int op, int is_unsigned, Z3_ast l, Z3_ast r);

static int fp(const enc *e)
{
    return e->floats == SOLVER_Z3_FLOATS_FP;
}

/* Made once per check and kept: a Z3 result not inc_ref'd dies at the next call. */
static void fpa_start(enc *e)
{
    e->rm = keep(e->c, Z3_mk_fpa_rne(e->c));
    e->dbl = Z3_mk_fpa_sort_double(e->c);
    if (e->dbl)
        Z3_inc_ref(e->c, Z3_sort_to_ast(e->c, e->dbl));
}

static void fpa_end(enc *e)
{
    drop(e->c, e->rm);
    if (e->dbl)
        Z3_dec_ref(e->c, Z3_sort_to_ast(e->c, e->dbl));
    e->rm = NULL;
    e->dbl = NULL;
}

/* Keeps r and releases the operand it was made from. */
static Z3_ast replace(const enc *e, Z3_ast from, Z3_ast r)
{
    r = keep(e->c, r);
    drop(e->c, from);
    return r;
}

/* The double d exactly: an IEEE numeral, or (Real) that numeral's rational value. */
static Z3_ast fnumeral(const enc *e, double d)
{
    Z3_ast n = keep(e->c, Z3_mk_fpa_numeral_double(e->c, d, e->dbl));
    if (!n || fp(e))
        return n;
    Z3_ast r = keep(e->c, Z3_mk_fpa_to_real(e->c, n));
    drop(e->c, n);
    return r ? replace(e, r, Z3_simplify(e->c, r)) : NULL;
}

/* Variable id as a term of a float expression: a Real variable itself (a binary32 one widened
 * under FP); an integer one converted (int2real, or to the nearest binary64). */
static Z3_ast fvar(const enc *e, uint32_t id)
{
    const sym_var *v = &e->vars[id];
    Z3_context c = e->c;
    Z3_ast x = var_const(e, id);
    if (!x || (v->sort == SYM_VAR_SORT_REAL && (!fp(e) || v->kind == SYM_VAR_DOUBLE)))
        return x;
    if (v->sort == SYM_VAR_SORT_REAL)
        return replace(e, x, Z3_mk_fpa_to_fp_float(c, e->rm, x, e->dbl));
    if (e->semantics == SOLVER_Z3_BITVECTOR && !fp(e))
        x = replace(e, x, Z3_mk_bv2int(c, x, var_signed(v)));
    else if (e->semantics == SOLVER_Z3_INT && fp(e))
        x = replace(e, x, Z3_mk_int2bv(c, 64, x));
    if (!x)
        return NULL;
    if (!fp(e))
        return replace(e, x, Z3_mk_int2real(c, x));
    return replace(e, x,
                   e->semantics == SOLVER_Z3_BITVECTOR && !var_signed(v)
                       ? Z3_mk_fpa_to_fp_unsigned(c, e->rm, x, e->dbl)
                       : Z3_mk_fpa_to_fp_signed(c, e->rm, x, e->dbl));
}

static Z3_ast fadd(const enc *e, Z3_ast a, Z3_ast b)
{
    Z3_ast args[2] = {a, b};
    return keep(e->c, fp(e) ? Z3_mk_fpa_add(e->c, e->rm, a, b) : Z3_mk_add(e->c, 2, args));
}

static Z3_ast fmul(const enc *e, Z3_ast a, Z3_ast b)
{
    Z3_ast args[2] = {a, b};
    return keep(e->c, fp(e) ? Z3_mk_fpa_mul(e->c, e->rm, a, b) : Z3_mk_mul(e->c, 2, args));
}

/* constant + sum(coef * var), folded left. Under FP a unit coefficient and a zero constant are
 * left out: each IEEE multiplication or addition is a circuit for the SAT solver, and x * 1 and
 * 0 + x are x in binary64 (for x not NaN; -0 + 0 is +0, which compares equal). */
static Z3_ast encode_fexpr(const enc *e, const sym_expr *x)
{
    int skip_constant = fp(e) && x->nterms && x->fconstant == 0;
    Z3_ast acc = skip_constant ? NULL : fnumeral(e, x->fconstant);
    for (uint32_t i = 0; (acc || skip_constant) && i < x->nterms; i++) {
        Z3_ast v = fvar(e, x->terms[i].var);
        int unit = fp(e) && x->terms[i].fcoef == 1;
        Z3_ast k = unit ? NULL : fnumeral(e, x->terms[i].fcoef);
        Z3_ast m = unit ? keep(e->c, v) : v && k ? fmul(e, k, v) : NULL;
        Z3_ast sum = m && acc ? fadd(e, acc, m) : keep(e->c, m);
        drop(e->c, v);
        drop(e->c, k);
        drop(e->c, m);
        drop(e->c, acc);
        acc = sum;
        skip_constant = 0;
    }
    return acc;
}

static Z3_ast fcompare(const enc *e, int op, Z3_ast l, Z3_ast r)
{
    Z3_context c = e->c;
    switch (op) {
    case SYM_EXPR_EQ:
        return Z3_mk_fpa_eq(c, l, r);
    case SYM_EXPR_NE: /* the equality is the last result: Z3_mk_not takes it before it can go */
        return Z3_mk_not(c, Z3_mk_fpa_eq(c, l, r));
    case SYM_EXPR_LT:
        return Z3_mk_fpa_lt(c, l, r);
    case SYM_EXPR_LE:
        return Z3_mk_fpa_leq(c, l, r);
    case SYM_EXPR_GT:
        return Z3_mk_fpa_gt(c, l, r);
    default:
        return Z3_mk_fpa_geq(c, l, r);
    }
}

/* Under FP, the IEEE variables of a side are numbers: neither NaN nor infinite (the runtime
 * logs no comparison with a NaN, and a double input is finite). Conjoined to the comparison b. */
static Z3_ast fp_finite(const enc *e, const sym_expr *x, Z3_ast b)
{
    for (uint32_t i = 0; b && i < x->nterms; i++) {
        if (e->vars[x->terms[i].var].sort != SYM_VAR_SORT_REAL)
            continue;
        Z3_ast v = var_const(e, x->terms[i].var);
        Z3_ast nan = v ? keep(e->c, Z3_mk_fpa_is_nan(e->c, v)) : NULL;
        Z3_ast inf = nan ? keep(e->c, Z3_mk_fpa_is_infinite(e->c, v)) : NULL;
        Z3_ast bad[2] = {nan, inf};
        Z3_ast either = inf ? keep(e->c, Z3_mk_or(e->c, 2, bad)) : NULL;
        Z3_ast fine = either ? keep(e->c, Z3_mk_not(e->c, either)) : NULL;
        Z3_ast both[2] = {b, fine};
        Z3_ast r = fine ? keep(e->c, Z3_mk_and(e->c, 2, both)) : NULL;
        drop(e->c, v);
        drop(e->c, nan);
        drop(e->c, inf);
        drop(e->c, either);
        drop(e->c, fine);
        drop(e->c, b);
        b = r;
    }
    return b;
}

static int names_real_var(const enc *e, const sym_expr *x)
{
    for (uint32_t i = 0; i < x->nterms; i++)
        if (e->vars[x->terms[i].var].sort == SYM_VAR_SORT_REAL)
            return 1;
    return 0;
}

/* A float comparison over integer variables only ((double)n * 0.5 > 10) is read over the reals
 * under FP too: converting an integer to binary64 costs Z3 more than the per-query limit (over
 * 5 s for that comparison, measured), and the reals are exact for it but for the rounding of
 * each product. */
static Z3_ast encode_fpred(const enc *e, const sym_expr_pred *p)
{
    if (fp(e) && !names_real_var(e, &p->lhs) && !names_real_var(e, &p->rhs)) {
        enc real = *e;
        real.floats = SOLVER_Z3_FLOATS_REAL;
        return encode_fpred(&real, p);
    }
    Z3_ast l = encode_fexpr(e, &p->lhs);
    Z3_ast r = l ? encode_fexpr(e, &p->rhs) : NULL;
    Z3_ast b = NULL;
    if (l && r)
        b = keep(e->c, fp(e) ? fcompare(e, p->op, l, r) : compare(e, p->op, 0, l, r));
    drop(e->c, l);
    drop(e->c, r);
    if (b && fp(e))
        b = fp_finite(e, &p->rhs, fp_finite(e, &p->lhs, b));
    return b;
}

static Z3_ast compare(const enc *e, int op, int is_unsigned, Z3_ast l, Z3_ast r)
{
    Z3_context c = e->c;
    int bv = e->semantics == SOLVER_Z3_BITVECTOR &&
             Z3_get_sort_kind(c, Z3_get_sort(c, l)) == Z3_BV_SORT;
    switch (op) {
    case SYM_EXPR_EQ:
        return Z3_mk_eq(c, l, r);
    case SYM_EXPR_NE: {
        Z3_ast args[2] = {l, r};
        return Z3_mk_distinct(c, 2, args);
    }
    case SYM_EXPR_LT:
        return !bv ? Z3_mk_lt(c, l, r) : is_unsigned ? Z3_mk_bvult(c, l, r) : Z3_mk_bvslt(c, l, r);
    case SYM_EXPR_LE:
        return !bv ? Z3_mk_le(c, l, r) : is_unsigned ? Z3_mk_bvule(c, l, r) : Z3_mk_bvsle(c, l, r);
    case SYM_EXPR_GT:
        return !bv ? Z3_mk_gt(c, l, r) : is_unsigned ? Z3_mk_bvugt(c, l, r) : Z3_mk_bvsgt(c, l, r);
    default: /* SYM_EXPR_GE: solver_z3_check rejected every other value */
        return !bv ? Z3_mk_ge(c, l, r) : is_unsigned ? Z3_mk_bvuge(c, l, r) : Z3_mk_bvsge(c, l, r);
    }
}

static Z3_ast encode_pred(const enc *e, const sym_expr_pred *p)
{
    if (sym_expr_pred_is_float(p))
        return encode_fpred(e, p);
    unsigned width = p->width ? p->width : BV_DEFAULT_WIDTH;
    Z3_ast l = encode_expr(e, &p->lhs, width);
    Z3_ast r = l ? encode_expr(e, &p->rhs, width) : NULL;
    Z3_ast b = l && r ? keep(e->c, compare(e, p->op, p->is_unsigned, l, r)) : NULL;
    drop(e->c, l);
    drop(e->c, r);
    return b;
}

/* Every variable declared, and no Real one in an integer expression. */
static int expr_vars_ok(const sym_expr *x, const sym_var *vars, uint32_t nvars)
{
    for (uint32_t i = 0; i < x->nterms; i++)
        if (x->terms[i].var >= nvars ||
            (x->num == SYM_EXPR_NUM_I64 && vars[x->terms[i].var].sort == SYM_VAR_SORT_REAL))
            return 0;
    return 1;
}

static int z3_failed(Z3_context c)
{
    return Z3_get_error_code(c) != Z3_OK;
}

static int assert_pred(const enc *e, Z3_solver s, const sym_expr_pred *p)
{
    Z3_ast b = encode_pred(e, p);
    if (!b || z3_failed(e->c)) {
        drop(e->c, b);
        return MG_ERROR_ESOLVER;
    }
    Z3_solver_assert(e->c, s, b);
    drop(e->c, b);
    return z3_failed(e->c) ? MG_ERROR_ESOLVER : 0;
}

/* ---- contexts, solvers, scopes ---- */

static int make_context(Z3_context *out)
{
    Z3_config cfg = Z3_mk_config();
    if (!cfg)
        return MG_ERROR_ENOMEM;
    Z3_context c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!c)
        return MG_ERROR_ESOLVER;
    Z3_set_error_handler(c, ignore_error);
    *out = c;
    return 0;
}

static int make_solver(Z3_context c, const solver_z3_params *sp, Z3_solver *out)
{
    Z3_solver s = Z3_mk_solver(c);
    if (!s)
        return MG_ERROR_ESOLVER;
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
        return MG_ERROR_ESOLVER;
    }
    *out = s;
    return 0;
}

static void clear_frames(solver_z3 *s)
{
    for (size_t i = 0; i < s->nframes; i++)
        sym_expr_pred_free(&s->frames[i]);
    s->nframes = 0;
}

static void pop_to(solver_z3 *s, size_t depth)
{
    if (s->nframes > depth)
        Z3_solver_pop(s->ctx, s->solver, (unsigned)(s->nframes - depth));
    while (s->nframes > depth)
        sym_expr_pred_free(&s->frames[--s->nframes]);
}

int solver_z3_create(const solver_z3_params *p, solver_z3 **out)
{
    if (!p || !out || (p->semantics != SOLVER_Z3_INT && p->semantics != SOLVER_Z3_BITVECTOR) ||
        (p->floats != SOLVER_Z3_FLOATS_REAL && p->floats != SOLVER_Z3_FLOATS_FP))
        return MG_ERROR_EINVAL;
    *out = NULL;
    solver_z3 *s = calloc(1, sizeof *s);
    if (!s)
        return MG_ERROR_ENOMEM;
    s->p = *p;
    if ((p->timeout_ms || p->cancel) && solver_watchdog_create(p->timeout_ms, p->cancel, &s->dog)) {
        free(s);
        return MG_ERROR_ESYS;
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
            return MG_ERROR_ENOMEM;
        s->kinds = k;
    }
    for (uint32_t i = 0; i < nvars; i++)
        s->kinds[i] = vars[i].kind;
    if (nvars > s->nkinds)
        s->nkinds = nvars;
    return 0;
}

static int push_frame(solver_z3 *s, const enc *e, const sym_expr_pred *p)
{
    int rc = mg_array_reserve((void **)&s->frames, &s->cap, s->nframes + 1, sizeof *s->frames);
    if (rc != 0)
        return rc;
    if (sym_expr_pred_copy(&s->frames[s->nframes], p) != 0)
        return MG_ERROR_ENOMEM;
    Z3_solver_push(s->ctx, s->solver);
    s->nframes++;
    s->stats.frames_pushed++;
    return assert_pred(e, s->solver, p);
}

/* Makes the scope stack equal to preds: keeps the common prefix, pops the rest, pushes the new. */
static int sync_frames(solver_z3 *s, const enc *e, const sym_expr_pred *const *preds, size_t npreds)
{
    if (!same_kinds(s, e->vars, e->nvars))
        pop_to(s, 0);
    int rc = remember_kinds(s, e->vars, e->nvars);
    size_t common = 0;
    while (common < s->nframes && common < npreds &&
           sym_expr_pred_equal(&s->frames[common], preds[common]))
        common++;
    pop_to(s, common);
    s->stats.frames_reused += common;
    for (size_t i = common; rc == 0 && i < npreds; i++)
        rc = push_frame(s, e, preds[i]);
    return rc;
}

/* A Real variable's model value as the bits of a double: the real's decimal expansion (to
 * well below the smallest subnormal) rounded to nearest by strtod, or the IEEE value's bits. */
static int read_real(const enc *e, Z3_model m, uint32_t id, int64_t *out)
{
    Z3_ast v = var_const(e, id), r = NULL;
    if (v && fp(e) && e->vars[id].kind == SYM_VAR_FLOAT)
        v = replace(e, v, Z3_mk_fpa_to_fp_float(e->c, e->rm, v, e->dbl));
    if (v && fp(e))
        v = replace(e, v, Z3_mk_fpa_to_ieee_bv(e->c, v));
    int rc = MG_ERROR_ESOLVER;
    if (v && Z3_model_eval(e->c, m, v, true, &r) && r) {
        keep(e->c, r);
        uint64_t bits;
        Z3_string text;
        if (fp(e) && Z3_get_numeral_uint64(e->c, r, &bits)) {
            *out = (int64_t)bits;
            rc = 0;
        } else if (!fp(e) && (text = Z3_get_numeral_decimal_string(e->c, r, 400)) != NULL) {
            *out = sym_var_real_bits(strtod(text, NULL));
            rc = 0;
        }
        drop(e->c, r);
    }
    drop(e->c, v);
    return rc;
}

static int read_value(const enc *e, Z3_model m, uint32_t id, int64_t *out)
{
    if (e->vars[id].sort == SYM_VAR_SORT_REAL)
        return read_real(e, m, id, out);
    Z3_ast v = var_const(e, id), r = NULL;
    int rc = MG_ERROR_ESOLVER;
    if (v && Z3_model_eval(e->c, m, v, true, &r) && r) {
        keep(e->c, r);
        if (e->semantics == SOLVER_Z3_INT) {
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
               ? MG_ERROR_ETIMEOUT
               : MG_ERROR_ESOLVER;
}

/* Checks with every `keep` variable held at its old value; *r is Z3_L_FALSE if that failed. */
static int check_keeping(const enc *e, Z3_solver solver, const solver_z3_targets *t, Z3_lbool *r)
{
    Z3_ast *lits = calloc(t->nkeep, sizeof *lits);
    if (!lits)
        return MG_ERROR_ENOMEM;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < t->nkeep; i++) {
        const sym_var *v = &e->vars[t->keep[i]];
        Z3_ast x = var_const(e, v->id), k = numeral(e, v->value, var_bits(v));
        lits[i] = x && k ? keep(e->c, Z3_mk_eq(e->c, x, k)) : NULL;
        drop(e->c, x);
        drop(e->c, k);
        if (!lits[i])
            rc = MG_ERROR_ESOLVER;
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
        return MG_ERROR_ETIMEOUT;
    if (e->dog)
        solver_watchdog_arm(e->dog, e->c);
    *r = Z3_L_FALSE;
    int rc = t->nkeep ? check_keeping(e, solver, t, r) : 0;
    if (rc == 0 && *r == Z3_L_FALSE)
        *r = Z3_solver_check(e->c, solver);
    if (e->dog && solver_watchdog_disarm(e->dog)) {
        e->interrupted = 1;
        return rc ? rc : MG_ERROR_ETIMEOUT;
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
        return MG_ERROR_ESOLVER;
    Z3_model_inc_ref(e->c, m);
    for (uint32_t i = 0; rc == 0 && i < t->nsolve; i++)
        rc = read_value(e, m, t->solve[i], &values[t->solve[i]]);
    Z3_model_dec_ref(e->c, m);
    if (rc == 0)
        *sat = 1;
    return rc;
}

static int check_fresh(solver_z3 *s, enc *e, const sym_expr_pred *const *preds, size_t npreds,
                       const solver_z3_targets *t, int *sat, int64_t *values)
{
    Z3_solver solver = NULL;
    int rc = make_context(&e->c);
    if (rc != 0)
        return rc;
    s->stats.contexts++;
    fpa_start(e);
    rc = make_solver(e->c, &s->p, &solver);
    for (size_t i = 0; rc == 0 && i < npreds; i++) {
        rc = assert_pred(e, solver, preds[i]);
        s->stats.frames_pushed++;
    }
    if (rc == 0)
        rc = outcome(e, solver, t, sat, values);
    if (solver)
        Z3_solver_dec_ref(e->c, solver);
    fpa_end(e);
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

int solver_z3_check(solver_z3 *s, const sym_var *vars, uint32_t nvars,
                    const sym_expr_pred *const *preds, size_t npreds, const solver_z3_targets *t,
                    int *sat, int64_t *values)
{
    if (!s || (!vars && nvars) || (!preds && npreds) || !t || !sat || (!values && nvars) ||
        !ids_ok(t->solve, t->nsolve, nvars) || !ids_ok(t->keep, t->nkeep, nvars))
        return MG_ERROR_EINVAL;
    for (uint32_t i = 0; i < nvars; i++)
        if (vars[i].id != i || sym_var_check(&vars[i]) != 0)
            return MG_ERROR_EINVAL;
    for (size_t i = 0; i < npreds; i++)
        if (!preds[i] || !expr_vars_ok(&preds[i]->lhs, vars, nvars) ||
            !expr_vars_ok(&preds[i]->rhs, vars, nvars) || preds[i]->op >= SYM_EXPR_OP_END ||
            preds[i]->lhs.num != preds[i]->rhs.num)
            return MG_ERROR_EINVAL;
    *sat = 0;
    for (uint32_t i = 0; i < nvars; i++)
        values[i] = vars[i].value;
    s->stats.checks++;
    if (s->p.incremental && !s->ctx && renew_context(s))
        return MG_ERROR_ESOLVER;
    enc e = {s->ctx, s->p.semantics, s->p.floats, vars, nvars, s->dog, 0, NULL, NULL};
    int rc;
    if (!s->p.incremental) {
        rc = check_fresh(s, &e, preds, npreds, t, sat, values);
    } else {
        fpa_start(&e);
        rc = sync_frames(s, &e, preds, npreds);
        if (rc == 0)
            rc = outcome(&e, s->solver, t, sat, values);
        fpa_end(&e);
        if (e.interrupted)
            (void)renew_context(s); /* failing, the next check tries again */
        else if (rc != 0 && rc != MG_ERROR_ETIMEOUT) {
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
