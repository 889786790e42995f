/* Linear symbolic expressions over marked variables and the comparison predicates built from
 * them (docs/design/concolic-solver.md §1; spec: docs/design/concolic.md "Techniques", dissertation
 * §3.4).
 */
#ifndef SYM_EXPR_H
#define SYM_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* How coefficients and the constant are stored: int64 for an integer expression, IEEE-754
 * binary64 (the same 8 bytes) for a float one (dissertation §3.4). In a float expression an
 * integer variable stands for its value converted to double, a Real variable for its double. */
enum sym_expr_num { SYM_EXPR_NUM_I64 = 0, SYM_EXPR_NUM_F64 = 1 };

typedef struct sym_expr_term {
    uint32_t var; /* sym_var id */
    union {
        int64_t coef; /* SYM_EXPR_NUM_I64; never 0 */
        double fcoef; /* SYM_EXPR_NUM_F64; never 0, finite */
    };
} sym_expr_term;

/* constant + sum(coef * var). Terms are sorted by strictly increasing var id. An expression
 * owns its term array; a zeroed struct (or sym_expr_init_const) is a valid constant 0. */
typedef struct sym_expr {
    uint8_t num; /* enum sym_expr_num */
    union {
        int64_t constant; /* SYM_EXPR_NUM_I64 */
        double fconstant; /* SYM_EXPR_NUM_F64; finite */
    };
    uint32_t nterms;
    sym_expr_term *terms;
} sym_expr;

enum sym_expr_op {
    SYM_EXPR_EQ = 0,
    SYM_EXPR_NE,
    SYM_EXPR_LT,
    SYM_EXPR_LE,
    SYM_EXPR_GT,
    SYM_EXPR_GE,
    SYM_EXPR_OP_END
};

/* lhs op rhs, compared as `width`-bit values (0: unbounded integers) that are signed unless
 * is_unsigned. Int semantics uses lhs - rhs op 0; bit-vector semantics evaluates each side in
 * `width` bits so a wrapping side is seen (that is how integer overflows are found). A float
 * comparison has two SYM_EXPR_NUM_F64 sides, width 0 and is_unsigned 0: the sides are compared as
 * reals (or IEEE doubles under the FP theory), ordered and unordered predicates alike, since
 * the runtime logs no comparison with a NaN operand. */
typedef struct sym_expr_pred {
    uint8_t op; /* enum sym_expr_op */
    uint8_t width;
    uint8_t is_unsigned;
    sym_expr lhs, rhs;
} sym_expr_pred;

/* Constructors. `out` is overwritten without being freed. sym_expr_init_var with coef 0 gives
 * the constant 0; it returns MG_ERROR_ENOMEM on allocation failure (out is then the constant 0). */
void sym_expr_init_const(sym_expr *out, int64_t c);
int sym_expr_init_var(sym_expr *out, uint32_t var, int64_t coef);
/* The same for float expressions (sym_expr_init_fvar: coef 0 gives the float constant 0). */
void sym_expr_init_fconst(sym_expr *out, double c);
int sym_expr_init_fvar(sym_expr *out, uint32_t var, double coef);
/* Frees the term array and leaves the constant 0. NULL is ignored. */
void sym_expr_free(sym_expr *e);
/* Deep copy into out (overwritten). MG_ERROR_ENOMEM leaves out the constant 0. */
int sym_expr_copy(sym_expr *out, const sym_expr *src);

/* Arithmetic the runtime needs. Each writes a fresh expression into `out` (overwritten, must
 * not alias an input: MG_ERROR_EINVAL). MG_ERROR_ERANGE when a coefficient or the constant would
 * overflow int64, or (float expressions) would not be finite: the runtime then concretises;
 * MG_ERROR_ENOMEM on allocation failure; MG_ERROR_EINVAL for an integer and a float operand
 * together, or sym_expr_scale and sym_expr_add_const on a float expression (sym_expr_fscale,
 * sym_expr_add_fconst). On failure out is the constant 0. add, sub and negate take both kinds. */
int sym_expr_add(sym_expr *out, const sym_expr *a, const sym_expr *b);
int sym_expr_sub(sym_expr *out, const sym_expr *a, const sym_expr *b);
int sym_expr_scale(sym_expr *out, const sym_expr *a, int64_t k);
int sym_expr_negate(sym_expr *out, const sym_expr *a);
int sym_expr_add_const(sym_expr *out, const sym_expr *a, int64_t c);
int sym_expr_fscale(sym_expr *out, const sym_expr *a, double k);
int sym_expr_add_fconst(sym_expr *out, const sym_expr *a, double c);
/* An integer expression as a float one: each coefficient and the constant converted to double
 * (the dissertation's int-to-float rule, §3.4). A float expression is copied. Same failures. */
int sym_expr_to_f64(sym_expr *out, const sym_expr *a);

/* Value under an assignment (values[var id], nvalues entries). MG_ERROR_EINVAL for a var id past
 * nvalues or a float expression, MG_ERROR_ERANGE if the mathematical value leaves int64. */
int sym_expr_eval(const sym_expr *e, const int64_t *values, size_t nvalues, int64_t *out);
/* 1 when structurally equal (same kind, constant and terms), else 0. */
int sym_expr_equal(const sym_expr *a, const sym_expr *b);

/* Builds lhs op rhs (deep copies). MG_ERROR_EINVAL for a bad op or width (0, 8, 16, 32, 64), sides
 * of different kinds, or a float comparison with a width or is_unsigned; MG_ERROR_ENOMEM; out is
 * then an empty predicate safe to free. */
int sym_expr_pred_make(sym_expr_pred *out, const sym_expr *lhs, int op, const sym_expr *rhs,
                       unsigned width, int is_unsigned);
/* The complementary operator (== <-> !=, < <-> >=, <= <-> >); SYM_EXPR_OP_END for a bad op. */
int sym_expr_op_negate(int op);
/* Deep copy with the operator negated. Same failures as sym_expr_pred_make. */
int sym_expr_pred_negate(sym_expr_pred *out, const sym_expr_pred *p);
/* Deep copy. */
int sym_expr_pred_copy(sym_expr_pred *out, const sym_expr_pred *p);
void sym_expr_pred_free(sym_expr_pred *p);
int sym_expr_pred_equal(const sym_expr_pred *a, const sym_expr_pred *b);
/* 1 for a float comparison (SYM_EXPR_NUM_F64 sides), else 0. */
int sym_expr_pred_is_float(const sym_expr_pred *p);
/* Truth under an assignment with Int semantics (widths ignored): *truth is 0 or 1.
 * Failures as sym_expr_eval, plus MG_ERROR_EINVAL for a bad op. */
int sym_expr_pred_eval(const sym_expr_pred *p, const int64_t *values, size_t nvalues, int *truth);

/* A growable list of owned predicates. A zeroed struct is an empty list. */
typedef struct sym_expr_pred_list {
    sym_expr_pred *items;
    size_t n, cap;
} sym_expr_pred_list;

void sym_expr_pred_list_init(sym_expr_pred_list *l);
/* Frees every predicate and the array. NULL is ignored. */
void sym_expr_pred_list_free(sym_expr_pred_list *l);
/* Moves *p into the list (the caller must not free it afterwards). MG_ERROR_ENOMEM leaves *p with
 * the caller. */
int sym_expr_pred_list_push(sym_expr_pred_list *l, sym_expr_pred *p);
/* Appends the predicate `var op k` (Int, unbounded width). MG_ERROR_ENOMEM. */
int sym_expr_pred_list_push_bound(sym_expr_pred_list *l, uint32_t var, int op, int64_t k);
/* Appends `a op b` over two variables. MG_ERROR_ENOMEM. */
int sym_expr_pred_list_push_relation(sym_expr_pred_list *l, uint32_t a, int op, uint32_t b);

#endif
