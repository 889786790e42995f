/* Unit tests of sym_var, sym_expr and coverage_set (docs/design/concolic-solver.md §1-§2). */
#include <stdint.h>
#include <stdlib.h>

#include "coverage_set.h"
#include "mg_error.h"
#include "mg_test.h"
#include "sym_expr.h"
#include "sym_var.h"

/* 3*x0 - 2*x2 + 7 */
static void make_sample(sym_expr *out)
{
    sym_expr a, b, t;
    MG_CHECK_INT(sym_expr_init_var(&a, 0, 3), 0);
    MG_CHECK_INT(sym_expr_init_var(&b, 2, -2), 0);
    MG_CHECK_INT(sym_expr_add(&t, &a, &b), 0);
    MG_CHECK_INT(sym_expr_add_const(out, &t, 7), 0);
    sym_expr_free(&a);
    sym_expr_free(&b);
    sym_expr_free(&t);
}

static void test_arithmetic(void)
{
    sym_expr e, n, s, d, z;
    make_sample(&e);
    MG_CHECK_INT(e.nterms, 2);
    MG_CHECK_INT(e.terms[0].var, 0);
    MG_CHECK_INT(e.terms[1].coef, -2);
    MG_CHECK_INT(e.constant, 7);
    int64_t vals[3] = {4, 100, 5}, v = 0;
    MG_CHECK_INT(sym_expr_eval(&e, vals, 3, &v), 0);
    MG_CHECK_INT(v, 3 * 4 - 2 * 5 + 7);
    MG_CHECK_INT(sym_expr_negate(&n, &e), 0);
    MG_CHECK_INT(sym_expr_eval(&n, vals, 3, &v), 0);
    MG_CHECK_INT(v, -9);
    MG_CHECK_INT(sym_expr_scale(&s, &e, 5), 0);
    MG_CHECK_INT(sym_expr_eval(&s, vals, 3, &v), 0);
    MG_CHECK_INT(v, 45);
    /* e - e cancels every term: a constant 0 with no terms */
    MG_CHECK_INT(sym_expr_sub(&d, &e, &e), 0);
    MG_CHECK_INT(d.nterms, 0);
    MG_CHECK(d.terms == NULL);
    MG_CHECK_INT(d.constant, 0);
    /* scaling by 0 also drops every term */
    MG_CHECK_INT(sym_expr_scale(&z, &e, 0), 0);
    MG_CHECK_INT(z.nterms, 0);
    MG_CHECK(sym_expr_equal(&z, &d));
    MG_CHECK(!sym_expr_equal(&e, &s));
    /* a var id past the assignment is rejected */
    MG_CHECK_INT(sym_expr_eval(&e, vals, 2, &v), MG_ERROR_EINVAL);
    sym_expr_free(&e);
    sym_expr_free(&n);
    sym_expr_free(&s);
    sym_expr_free(&d);
    sym_expr_free(&z);
    sym_expr_free(NULL);
}

static void test_overflow(void)
{
    sym_expr big, out, c;
    MG_CHECK_INT(sym_expr_init_var(&big, 1, INT64_MAX), 0);
    MG_CHECK_INT(sym_expr_add(&out, &big, &big), MG_ERROR_ERANGE);
    MG_CHECK_INT(out.nterms, 0);
    MG_CHECK_INT(sym_expr_scale(&out, &big, 2), MG_ERROR_ERANGE);
    MG_CHECK_INT(sym_expr_scale(&out, &big, -1), 0);
    MG_CHECK_INT(out.terms[0].coef, -INT64_MAX);
    sym_expr_free(&out);
    sym_expr_init_const(&c, INT64_MIN);
    MG_CHECK_INT(sym_expr_negate(&out, &c), MG_ERROR_ERANGE);
    MG_CHECK_INT(sym_expr_add_const(&out, &c, -1), MG_ERROR_ERANGE);
    /* evaluation overflow */
    int64_t vals[2] = {0, 2}, v;
    MG_CHECK_INT(sym_expr_eval(&big, vals, 2, &v), MG_ERROR_ERANGE);
    /* aliasing the output is refused */
    MG_CHECK_INT(sym_expr_add(&big, &big, &c), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_scale(&big, &big, 2), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_add_const(&big, &big, 2), MG_ERROR_EINVAL);
    sym_expr_free(&big);
    MG_CHECK_INT(sym_expr_init_var(&big, 3, 0), 0);
    MG_CHECK_INT(big.nterms, 0);
}

static void test_predicates(void)
{
    sym_expr e, k;
    sym_expr_pred p, q, r;
    make_sample(&e);
    sym_expr_init_const(&k, 9);
    MG_CHECK_INT(sym_expr_pred_make(&p, &e, SYM_EXPR_LE, &k, 32, 0), 0);
    int64_t vals[3] = {4, 0, 5};
    int t = -1;
    MG_CHECK_INT(sym_expr_pred_eval(&p, vals, 3, &t), 0);
    MG_CHECK_INT(t, 1); /* 9 <= 9 */
    MG_CHECK_INT(sym_expr_pred_negate(&q, &p), 0);
    MG_CHECK_INT(q.op, SYM_EXPR_GT);
    MG_CHECK_INT(sym_expr_pred_eval(&q, vals, 3, &t), 0);
    MG_CHECK_INT(t, 0);
    MG_CHECK(!sym_expr_pred_equal(&p, &q));
    MG_CHECK_INT(sym_expr_pred_copy(&r, &p), 0);
    MG_CHECK(sym_expr_pred_equal(&p, &r));
    MG_CHECK_INT(sym_expr_op_negate(SYM_EXPR_EQ), SYM_EXPR_NE);
    MG_CHECK_INT(sym_expr_op_negate(SYM_EXPR_LT), SYM_EXPR_GE);
    MG_CHECK_INT(sym_expr_op_negate(SYM_EXPR_GE), SYM_EXPR_LT);
    MG_CHECK_INT(sym_expr_op_negate(77), SYM_EXPR_OP_END);
    sym_expr_pred_free(&r);
    MG_CHECK_INT(sym_expr_pred_make(&r, &e, 77, &k, 0, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_pred_make(&r, &e, SYM_EXPR_EQ, &k, 12, 0), MG_ERROR_EINVAL);
    sym_expr_pred_free(&r);
    /* every operator on 9 vs 9 */
    static const int expect[SYM_EXPR_OP_END] = {1, 0, 0, 1, 0, 1};
    for (int op = 0; op < SYM_EXPR_OP_END; op++) {
        p.op = (uint8_t)op;
        MG_CHECK_INT(sym_expr_pred_eval(&p, vals, 3, &t), 0);
        MG_CHECK_INT(t, expect[op]);
    }
    p.op = 99;
    MG_CHECK_INT(sym_expr_pred_eval(&p, vals, 3, &t), MG_ERROR_EINVAL);
    sym_expr_pred_free(&p);
    sym_expr_pred_free(&q);
    sym_expr_free(&e);
}

static void test_pred_list(void)
{
    sym_expr_pred_list l;
    sym_expr_pred_list_init(&l);
    for (int i = 0; i < 20; i++)
        MG_CHECK_INT(sym_expr_pred_list_push_bound(&l, (uint32_t)i, SYM_EXPR_LE, i), 0);
    MG_CHECK_INT(sym_expr_pred_list_push_relation(&l, 1, SYM_EXPR_LT, 2), 0);
    MG_CHECK_INT(l.n, 21);
    int64_t vals[21] = {0};
    vals[2] = 5;
    int t;
    MG_CHECK_INT(sym_expr_pred_eval(&l.items[20], vals, 21, &t), 0);
    MG_CHECK_INT(t, 1);
    vals[19] = 20;
    MG_CHECK_INT(sym_expr_pred_eval(&l.items[19], vals, 21, &t), 0);
    MG_CHECK_INT(t, 0);
    sym_expr_pred_list_free(&l);
    MG_CHECK_INT(l.n, 0);
    sym_expr_pred_list_free(NULL);
}

static void test_var_kinds(void)
{
    int64_t lo, hi;
    unsigned bits;
    int sgn;
    MG_CHECK_INT(sym_var_kind_domain(SYM_VAR_CHAR, &lo, &hi, &bits, &sgn), 0);
    MG_CHECK_INT(lo, -128);
    MG_CHECK_INT(hi, 127);
    MG_CHECK_INT(bits, 8);
    MG_CHECK_INT(sgn, 1);
    MG_CHECK_INT(sym_var_kind_domain(SYM_VAR_UINT, &lo, &hi, &bits, &sgn), 0);
    MG_CHECK_INT(hi, 4294967295LL);
    MG_CHECK_INT(sgn, 0);
    MG_CHECK_INT(sym_var_kind_domain(SYM_VAR_SIZE_WORLD, &lo, NULL, NULL, NULL), 0);
    MG_CHECK_INT(lo, 1);
    MG_CHECK_INT(sym_var_kind_domain(0, &lo, &hi, &bits, &sgn), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_var_kind_domain(SYM_VAR_KIND_END, NULL, NULL, NULL, NULL), MG_ERROR_EINVAL);
    sym_var v = {0, SYM_VAR_INT, SYM_VAR_SORT_INT, 1, 10, SYM_VAR_NO_COMM, 3};
    MG_CHECK_INT(sym_var_check(&v), 0);
    v.cap = INT64_MIN; /* below the int domain */
    MG_CHECK_INT(sym_var_check(&v), MG_ERROR_EINVAL);
    v.cap = 10;
    v.comm = 0; /* an input has no communicator */
    MG_CHECK_INT(sym_var_check(&v), MG_ERROR_EINVAL);
    v.kind = SYM_VAR_RANK_COMM;
    MG_CHECK_INT(sym_var_check(&v), 0);
    v.comm = SYM_VAR_NO_COMM;
    MG_CHECK_INT(sym_var_check(&v), MG_ERROR_EINVAL);
    v.kind = SYM_VAR_INT;
    v.sort = 7;
    MG_CHECK_INT(sym_var_check(&v), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_var_check(NULL), MG_ERROR_EINVAL);
    MG_CHECK(sym_var_is_mpi(SYM_VAR_RANK_WORLD));
    MG_CHECK(!sym_var_is_mpi(SYM_VAR_LONG));
}

static void test_coverage(void)
{
    coverage_set a, b;
    coverage_set_init(&a);
    coverage_set_init(&b);
    uint32_t arms[] = {9, 3, 3, coverage_arm(7, 1), 0};
    MG_CHECK_INT(coverage_set_add(&a, arms, 5), 0);
    MG_CHECK_INT(a.n, 4); /* 0, 3, 9, 15 */
    MG_CHECK_INT(a.arms[3], 15);
    MG_CHECK(coverage_set_contains(&a, coverage_arm(7, 1)));
    MG_CHECK(!coverage_set_contains(&a, coverage_arm(7, 0)));
    uint32_t more[] = {4, 15};
    MG_CHECK_INT(coverage_set_add(&b, more, 2), 0);
    MG_CHECK_INT(coverage_set_merge(&a, &b), 0);
    MG_CHECK_INT(a.n, 5);
    MG_CHECK_INT(a.arms[2], 4);
    MG_CHECK_INT(coverage_set_add(&a, more, 0), 0);
    MG_CHECK(!coverage_set_contains(&b, 0));
    coverage_set_free(&a);
    coverage_set_free(&b);
    MG_CHECK(!coverage_set_contains(&a, 0));
}

int main(void)
{
    MG_RUN(test_arithmetic);
    MG_RUN(test_overflow);
    MG_RUN(test_predicates);
    MG_RUN(test_pred_list);
    MG_RUN(test_var_kinds);
    MG_RUN(test_coverage);
    MG_TEST_END();
}
