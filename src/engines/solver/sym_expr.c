/* Linear expressions and predicates with overflow-checked int64 arithmetic
 * (docs/design/concolic-solver.md §1). */
#include "sym_expr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

void sym_expr_init_const(sym_expr *out, int64_t c)
{
    out->num = SYM_EXPR_NUM_I64;
    out->constant = c;
    out->nterms = 0;
    out->terms = NULL;
}

int sym_expr_init_var(sym_expr *out, uint32_t var, int64_t coef)
{
    sym_expr_init_const(out, 0);
    if (coef == 0)
        return 0;
    out->terms = malloc(sizeof *out->terms);
    if (!out->terms)
        return MG_ERROR_ENOMEM;
    out->terms[0] = (sym_expr_term){.var = var, .coef = coef};
    out->nterms = 1;
    return 0;
}

void sym_expr_init_fconst(sym_expr *out, double c)
{
    sym_expr_init_const(out, 0);
    out->num = SYM_EXPR_NUM_F64;
    out->fconstant = c;
}

int sym_expr_init_fvar(sym_expr *out, uint32_t var, double coef)
{
    sym_expr_init_fconst(out, 0);
    if (coef == 0)
        return 0;
    out->terms = malloc(sizeof *out->terms);
    if (!out->terms)
        return MG_ERROR_ENOMEM;
    out->terms[0] = (sym_expr_term){.var = var, .fcoef = coef};
    out->nterms = 1;
    return 0;
}

void sym_expr_free(sym_expr *e)
{
    if (!e)
        return;
    free(e->terms);
    sym_expr_init_const(e, 0);
}

int sym_expr_copy(sym_expr *out, const sym_expr *src)
{
    sym_expr_init_const(out, 0);
    if (src->nterms) {
        out->terms = malloc(src->nterms * sizeof *out->terms);
        if (!out->terms)
            return MG_ERROR_ENOMEM;
        memcpy(out->terms, src->terms, src->nterms * sizeof *out->terms);
    }
    out->num = src->num;
    out->constant = src->constant;
    out->nterms = src->nterms;
    return 0;
}

/* One variable's coefficient in a + k*b from a's and b's terms (NULL: absent, 0), in the kind
 * num (k for integers, fk for floats) into *sum. Returns 1 when the sum is zero (the term goes),
 * 0 when it is kept, MG_ERROR_ERANGE when it leaves int64 or is not finite. */
static int add_scaled(uint8_t num, const sym_expr_term *ta, const sym_expr_term *tb, int64_t k,
                      double fk, sym_expr_term *sum)
{
    if (num == SYM_EXPR_NUM_F64) {
        sum->fcoef = (ta ? ta->fcoef : 0) + fk * (tb ? tb->fcoef : 0);
        return !isfinite(sum->fcoef) ? MG_ERROR_ERANGE : sum->fcoef == 0;
    }
    int64_t kb;
    if (__builtin_mul_overflow(tb ? tb->coef : 0, k, &kb) ||
        __builtin_add_overflow(ta ? ta->coef : 0, kb, &sum->coef))
        return MG_ERROR_ERANGE;
    return sum->coef == 0;
}

/* out = a + k*b (fk for float expressions), merging the sorted term lists; the one routine
 * behind add, sub, scale, negate. The constants go through add_scaled as terms of the same
 * 8 bytes. */
static int combine(sym_expr *out, const sym_expr *a, const sym_expr *b, int64_t k, double fk)
{
    sym_expr_init_const(out, 0);
    out->num = a->num;
    sym_expr_term ca = {.coef = a->constant}, cb = {.coef = b->constant}, c;
    if (add_scaled(a->num, &ca, &cb, k, fk, &c) < 0)
        return MG_ERROR_ERANGE;
    size_t cap = (size_t)a->nterms + b->nterms;
    sym_expr_term *t = cap ? malloc(cap * sizeof *t) : NULL;
    if (cap && !t)
        return MG_ERROR_ENOMEM;
    size_t i = 0, j = 0, n = 0;
    while (i < a->nterms || j < b->nterms) {
        const sym_expr_term *ta = NULL, *tb = NULL;
        if (j >= b->nterms || (i < a->nterms && a->terms[i].var < b->terms[j].var))
            ta = &a->terms[i++];
        else if (i >= a->nterms || b->terms[j].var < a->terms[i].var)
            tb = &b->terms[j++];
        else {
            ta = &a->terms[i++];
            tb = &b->terms[j++];
        }
        sym_expr_term sum = {.var = ta ? ta->var : tb->var};
        int rc = add_scaled(a->num, ta, tb, k, fk, &sum);
        if (rc < 0) {
            free(t);
            return MG_ERROR_ERANGE;
        }
        if (rc == 0)
            t[n++] = sum;
    }
    if (n == 0) {
        free(t);
        t = NULL;
    }
    out->constant = c.coef;
    out->nterms = (uint32_t)n;
    out->terms = t;
    return 0;
}

/* a + k*b for two expressions of the same kind, out not aliasing either. */
static int linear(sym_expr *out, const sym_expr *a, const sym_expr *b, int64_t k)
{
    /* an output that aliases an input is left as it is: it still owns its terms */
    if (out == a || out == b)
        return MG_ERROR_EINVAL;
    if (a->num != b->num) {
        sym_expr_init_const(out, 0);
        return MG_ERROR_EINVAL;
    }
    return combine(out, a, b, k, (double)k);
}

int sym_expr_add(sym_expr *out, const sym_expr *a, const sym_expr *b)
{
    return linear(out, a, b, 1);
}

int sym_expr_sub(sym_expr *out, const sym_expr *a, const sym_expr *b)
{
    return linear(out, a, b, -1);
}

int sym_expr_scale(sym_expr *out, const sym_expr *a, int64_t k)
{
    sym_expr zero;
    sym_expr_init_const(&zero, 0);
    return linear(out, &zero, a, k);
}

int sym_expr_negate(sym_expr *out, const sym_expr *a)
{
    sym_expr zero;
    sym_expr_init_const(&zero, 0);
    zero.num = a->num;
    return linear(out, &zero, a, -1);
}

int sym_expr_add_const(sym_expr *out, const sym_expr *a, int64_t c)
{
    sym_expr k;
    sym_expr_init_const(&k, c);
    return linear(out, a, &k, 1);
}

int sym_expr_fscale(sym_expr *out, const sym_expr *a, double k)
{
    sym_expr zero;
    sym_expr_init_fconst(&zero, 0);
    if (out == a)
        return MG_ERROR_EINVAL;
    if (a->num != SYM_EXPR_NUM_F64) {
        sym_expr_init_const(out, 0);
        return MG_ERROR_EINVAL;
    }
    return combine(out, &zero, a, 0, k);
}

int sym_expr_add_fconst(sym_expr *out, const sym_expr *a, double c)
{
    sym_expr k;
    sym_expr_init_fconst(&k, c);
    return linear(out, a, &k, 1);
}

int sym_expr_to_f64(sym_expr *out, const sym_expr *a)
{
    if (out == a) {
        sym_expr_init_const(out, 0);
        return MG_ERROR_EINVAL;
    }
    int rc = sym_expr_copy(out, a);
    if (rc != 0 || a->num == SYM_EXPR_NUM_F64)
        return rc;
    out->num = SYM_EXPR_NUM_F64;
    out->fconstant = (double)a->constant;
    for (uint32_t i = 0; i < out->nterms; i++)
        out->terms[i].fcoef = (double)a->terms[i].coef;
    return 0;
}

int sym_expr_eval(const sym_expr *e, const int64_t *values, size_t nvalues, int64_t *out)
{
    if (e->num != SYM_EXPR_NUM_I64)
        return MG_ERROR_EINVAL;
    int64_t acc = e->constant;
    for (uint32_t i = 0; i < e->nterms; i++) {
        int64_t p;
        if (e->terms[i].var >= nvalues)
            return MG_ERROR_EINVAL;
        if (__builtin_mul_overflow(e->terms[i].coef, values[e->terms[i].var], &p) ||
            __builtin_add_overflow(acc, p, &acc))
            return MG_ERROR_ERANGE;
    }
    *out = acc;
    return 0;
}

int sym_expr_equal(const sym_expr *a, const sym_expr *b)
{
    if (a->num != b->num || a->constant != b->constant || a->nterms != b->nterms)
        return 0;
    /* Field by field: a term's padding bytes are whatever malloc left there (a decoded log's
     * terms), so memcmp would call equal predicates different. */
    for (uint32_t i = 0; i < a->nterms; i++)
        if (a->terms[i].var != b->terms[i].var || a->terms[i].coef != b->terms[i].coef)
            return 0;
    return 1;
}

static int valid_width(unsigned width)
{
    return width == 0 || width == 8 || width == 16 || width == 32 || width == 64;
}

static void pred_clear(sym_expr_pred *p)
{
    p->op = SYM_EXPR_EQ;
    p->width = 0;
    p->is_unsigned = 0;
    sym_expr_init_const(&p->lhs, 0);
    sym_expr_init_const(&p->rhs, 0);
}

int sym_expr_pred_make(sym_expr_pred *out, const sym_expr *lhs, int op, const sym_expr *rhs,
                       unsigned width, int is_unsigned)
{
    pred_clear(out);
    if (op < 0 || op >= SYM_EXPR_OP_END || !valid_width(width) || lhs->num != rhs->num ||
        (lhs->num == SYM_EXPR_NUM_F64 && (width || is_unsigned)))
        return MG_ERROR_EINVAL;
    if (sym_expr_copy(&out->lhs, lhs) != 0 || sym_expr_copy(&out->rhs, rhs) != 0) {
        sym_expr_pred_free(out);
        return MG_ERROR_ENOMEM;
    }
    out->op = (uint8_t)op;
    out->width = (uint8_t)width;
    out->is_unsigned = is_unsigned ? 1 : 0;
    return 0;
}

int sym_expr_op_negate(int op)
{
    static const int neg[SYM_EXPR_OP_END] = {
        [SYM_EXPR_EQ] = SYM_EXPR_NE, [SYM_EXPR_NE] = SYM_EXPR_EQ, [SYM_EXPR_LT] = SYM_EXPR_GE,
        [SYM_EXPR_LE] = SYM_EXPR_GT, [SYM_EXPR_GT] = SYM_EXPR_LE, [SYM_EXPR_GE] = SYM_EXPR_LT,
    };
    return op < 0 || op >= SYM_EXPR_OP_END ? SYM_EXPR_OP_END : neg[op];
}

int sym_expr_pred_negate(sym_expr_pred *out, const sym_expr_pred *p)
{
    return sym_expr_pred_make(out, &p->lhs, sym_expr_op_negate(p->op), &p->rhs, p->width,
                              p->is_unsigned);
}

int sym_expr_pred_copy(sym_expr_pred *out, const sym_expr_pred *p)
{
    return sym_expr_pred_make(out, &p->lhs, p->op, &p->rhs, p->width, p->is_unsigned);
}

void sym_expr_pred_free(sym_expr_pred *p)
{
    if (!p)
        return;
    sym_expr_free(&p->lhs);
    sym_expr_free(&p->rhs);
}

int sym_expr_pred_equal(const sym_expr_pred *a, const sym_expr_pred *b)
{
    return a->op == b->op && a->width == b->width && a->is_unsigned == b->is_unsigned &&
           sym_expr_equal(&a->lhs, &b->lhs) && sym_expr_equal(&a->rhs, &b->rhs);
}

int sym_expr_pred_is_float(const sym_expr_pred *p)
{
    return p->lhs.num == SYM_EXPR_NUM_F64;
}

int sym_expr_pred_eval(const sym_expr_pred *p, const int64_t *values, size_t nvalues, int *truth)
{
    int64_t l, r;
    int rc = sym_expr_eval(&p->lhs, values, nvalues, &l);
    if (rc == 0)
        rc = sym_expr_eval(&p->rhs, values, nvalues, &r);
    if (rc != 0)
        return rc;
    switch (p->op) {
    case SYM_EXPR_EQ:
        *truth = l == r;
        return 0;
    case SYM_EXPR_NE:
        *truth = l != r;
        return 0;
    case SYM_EXPR_LT:
        *truth = l < r;
        return 0;
    case SYM_EXPR_LE:
        *truth = l <= r;
        return 0;
    case SYM_EXPR_GT:
        *truth = l > r;
        return 0;
    case SYM_EXPR_GE:
        *truth = l >= r;
        return 0;
    default:
        return MG_ERROR_EINVAL;
    }
}

void sym_expr_pred_list_init(sym_expr_pred_list *l)
{
    l->items = NULL;
    l->n = l->cap = 0;
}

void sym_expr_pred_list_free(sym_expr_pred_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        sym_expr_pred_free(&l->items[i]);
    free(l->items);
    sym_expr_pred_list_init(l);
}

int sym_expr_pred_list_push(sym_expr_pred_list *l, sym_expr_pred *p)
{
    int rc = mg_array_reserve((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items);
    if (rc != 0)
        return rc;
    l->items[l->n++] = *p;
    return 0;
}

/* Pushes `lhs op rhs`, taking ownership of both sides whatever happens. */
static int push_owned(sym_expr_pred_list *l, sym_expr *lhs, int op, sym_expr *rhs)
{
    sym_expr_pred p = {.op = (uint8_t)op, .width = 0, .is_unsigned = 0, .lhs = *lhs, .rhs = *rhs};
    int rc = sym_expr_pred_list_push(l, &p);
    if (rc != 0)
        sym_expr_pred_free(&p);
    return rc;
}

int sym_expr_pred_list_push_bound(sym_expr_pred_list *l, uint32_t var, int op, int64_t k)
{
    sym_expr lhs, rhs;
    sym_expr_init_const(&rhs, k);
    if (sym_expr_init_var(&lhs, var, 1) != 0)
        return MG_ERROR_ENOMEM;
    return push_owned(l, &lhs, op, &rhs);
}

int sym_expr_pred_list_push_relation(sym_expr_pred_list *l, uint32_t a, int op, uint32_t b)
{
    sym_expr lhs, rhs;
    if (sym_expr_init_var(&lhs, a, 1) != 0)
        return MG_ERROR_ENOMEM;
    if (sym_expr_init_var(&rhs, b, 1) != 0) {
        sym_expr_free(&lhs);
        return MG_ERROR_ENOMEM;
    }
    return push_owned(l, &lhs, op, &rhs);
}
