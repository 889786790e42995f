/* Unit tests of floats in the solver engine (docs/design/concolic-solver.md §1, §5; dissertation
 * §3.4): float expressions and their refusals, float records in the path log, and real Z3 solving
 * the shapes (a residual threshold, a CFL condition, an integer converted to double) over
 * the reals and over IEEE doubles, with NaN and infinite values in the log. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "path_log.h"
#include "solver_query.h"
#include "solver_z3.h"

#define MAXV 8

static void test_expressions(void)
{
    sym_expr x, y, sum, diff, scaled, neg, shifted, conv, i, bad;
    MG_CHECK_INT(sym_expr_init_fvar(&x, 0, 2.5), 0);
    MG_CHECK_INT(sym_expr_init_fvar(&y, 1, 1), 0);
    MG_CHECK_INT(sym_expr_add(&sum, &x, &y), 0);
    MG_CHECK_INT(sum.num, SYM_EXPR_NUM_F64);
    MG_CHECK_INT(sum.nterms, 2);
    MG_CHECK(sum.terms[0].fcoef == 2.5 && sum.terms[1].fcoef == 1);
    MG_CHECK_INT(sym_expr_sub(&diff, &sum, &y), 0); /* y cancels: its term goes */
    MG_CHECK_INT(diff.nterms, 1);
    MG_CHECK_INT(sym_expr_fscale(&scaled, &diff, 0.5), 0);
    MG_CHECK(scaled.terms[0].fcoef == 1.25);
    MG_CHECK_INT(sym_expr_negate(&neg, &scaled), 0);
    MG_CHECK(neg.num == SYM_EXPR_NUM_F64 && neg.terms[0].fcoef == -1.25);
    MG_CHECK_INT(sym_expr_add_fconst(&shifted, &neg, 1e-6), 0);
    MG_CHECK(shifted.fconstant == 1e-6);
    /* int to float: coefficients and constant converted */
    MG_CHECK_INT(sym_expr_init_var(&i, 2, -3), 0);
    MG_CHECK_INT(sym_expr_add_const(&bad, &i, 7), 0);
    MG_CHECK_INT(sym_expr_to_f64(&conv, &bad), 0);
    MG_CHECK(conv.num == SYM_EXPR_NUM_F64 && conv.fconstant == 7 && conv.terms[0].fcoef == -3);
    sym_expr_free(&bad);
    /* refusals: mixed kinds, int operations on floats, coefficients that are not finite */
    MG_CHECK_INT(sym_expr_add(&bad, &x, &i), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_scale(&bad, &x, 2), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_add_const(&bad, &x, 2), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_fscale(&bad, &i, 2), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_fscale(&bad, &x, INFINITY), MG_ERROR_ERANGE);
    MG_CHECK_INT(sym_expr_fscale(&bad, &x, NAN), MG_ERROR_ERANGE);
    MG_CHECK_INT(sym_expr_fscale(&bad, &x, 1e308), MG_ERROR_ERANGE);
    MG_CHECK_INT(sym_expr_add_fconst(&bad, &x, NAN), MG_ERROR_ERANGE);
    int64_t vals[3] = {0};
    int64_t out;
    MG_CHECK_INT(sym_expr_eval(&x, vals, 3, &out), MG_ERROR_EINVAL);
    /* predicates: two float sides, no width */
    sym_expr_pred p;
    sym_expr k;
    sym_expr_init_fconst(&k, 0.5);
    MG_CHECK_INT(sym_expr_pred_make(&p, &x, SYM_EXPR_GT, &k, 0, 0), 0);
    MG_CHECK(sym_expr_pred_is_float(&p));
    sym_expr_pred_free(&p);
    MG_CHECK_INT(sym_expr_pred_make(&p, &x, SYM_EXPR_GT, &k, 64, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(sym_expr_pred_make(&p, &x, SYM_EXPR_GT, &i, 0, 0), MG_ERROR_EINVAL);
    sym_expr *all[] = {&x, &y, &sum, &diff, &scaled, &neg, &shifted, &conv, &i};
    for (size_t n = 0; n < sizeof all / sizeof *all; n++)
        sym_expr_free(all[n]);
}

/* One double variable and one float branch through the codec; then damaged ones refused. */
static void test_path_log(void)
{
    uint8_t buf[512];
    size_t len = 0, n;
    path_log_header h = {.kind = PATH_LOG_HEAVY, .build_id = 1, .run_id = 2, .world_size = 1};
    MG_CHECK_INT(path_log_put_header(buf, sizeof buf, &n, &h), 0);
    len += n;
    sym_var v = {0, SYM_VAR_DOUBLE, SYM_VAR_SORT_REAL, 0, 0, SYM_VAR_NO_COMM, sym_var_real_bits(0.25)};
    MG_CHECK_INT(path_log_put_var(buf + len, sizeof buf - len, &n, &v), 0);
    len += n;
    path_log_branch b = {.branch_id = 3, .taken = 0};
    sym_expr lhs, rhs;
    MG_CHECK_INT(sym_expr_init_fvar(&lhs, 0, 16), 0);
    sym_expr_init_fconst(&rhs, 0.5);
    MG_CHECK_INT(sym_expr_pred_make(&b.pred, &lhs, SYM_EXPR_LE, &rhs, 0, 0), 0);
    MG_CHECK_INT(path_log_put_branch(buf + len, sizeof buf - len, &n, &b), 0);
    len += n;
    path_log log;
    path_log_expect expect = {.build_id = 1, .run_id = 2};
    MG_CHECK_INT(path_log_decode(buf, len, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.nvars, 1);
    MG_CHECK(log.vars[0].sort == SYM_VAR_SORT_REAL && sym_var_real_value(log.vars[0].value) == 0.25);
    MG_CHECK_INT(log.nbranches, 1);
    MG_CHECK(sym_expr_pred_equal(&log.branches[0].pred, &b.pred));
    path_log_free(&log);
    /* a Real variable of an integer kind, an integer one of a float kind */
    sym_var wrong = v;
    wrong.kind = SYM_VAR_INT;
    MG_CHECK_INT(sym_var_check(&wrong), MG_ERROR_EINVAL);
    wrong = v;
    wrong.sort = SYM_VAR_SORT_INT;
    MG_CHECK_INT(sym_var_check(&wrong), MG_ERROR_EINVAL);
    wrong = v;
    wrong.has_cap = 1;
    MG_CHECK_INT(sym_var_check(&wrong), MG_ERROR_EINVAL);
    /* a NaN coefficient in the bytes (the encoder writes what it is given) */
    size_t at = len - n;
    b.pred.lhs.terms[0].fcoef = NAN;
    MG_CHECK_INT(path_log_put_branch(buf + at, sizeof buf - at, &n, &b), 0);
    MG_CHECK_INT(path_log_decode(buf, at + n, &expect, NULL, &log), MG_ERROR_EFORMAT);
    path_log_free(&log);
    sym_expr_pred_free(&b.pred);
    sym_expr_free(&lhs);
}

/* A hand-built log: variables, then branches `sum(coef * var) op k` over floats. */
typedef struct fpath {
    sym_var vars[MAXV];
    path_log_branch br[MAXV];
    path_log log;
} fpath;

static void fp_init(fpath *t)
{
    memset(t, 0, sizeof *t);
    t->log.vars = t->vars;
    t->log.branches = t->br;
    t->log.header.world_size = 1;
}

static uint32_t fp_var(fpath *t, int kind, int64_t value)
{
    uint32_t id = t->log.nvars++;
    t->vars[id] = (sym_var){
        id, (uint8_t)kind, (uint8_t)sym_var_kind_sort(kind), 0, 0, SYM_VAR_NO_COMM, value};
    return id;
}

static void fp_branch(fpath *t, uint32_t var, double coef, int op, double k)
{
    sym_expr lhs, rhs;
    MG_CHECK_INT(sym_expr_init_fvar(&lhs, var, coef), 0);
    sym_expr_init_fconst(&rhs, k);
    path_log_branch *b = &t->br[t->log.nbranches];
    b->branch_id = t->log.nbranches++;
    b->taken = 1;
    MG_CHECK_INT(sym_expr_pred_make(&b->pred, &lhs, op, &rhs, 0, 0), 0);
    sym_expr_free(&lhs);
}

static void fp_free(fpath *t)
{
    for (uint32_t i = 0; i < t->log.nbranches; i++)
        sym_expr_pred_free(&t->br[i].pred);
}

static solver_z3 *make(int floats)
{
    solver_z3_params p;
    solver_z3_params_default(&p);
    p.floats = floats;
    p.timeout_ms = 0; /* the deterministic budget only: a loaded machine stays out of it */
    solver_z3 *s = NULL;
    MG_CHECK_INT(solver_z3_create(&p, &s), 0);
    return s;
}

static void solve(solver_z3 *s, const fpath *t, uint32_t target, int expect_sat, int64_t *v)
{
    mpi_semantics_params p;
    mpi_semantics_params_default(&p);
    int sat = -1;
    MG_CHECK_INT(solver_query_solve(s, &t->log, target, &p, &sat, v), 0);
    MG_CHECK_INT(sat, expect_sat);
}

/* The residual threshold (res > 0, then res < 1e-6 not taken: negated, 0 < res < 1e-6) and the
 * CFL condition (0 < dt <= 0.1, then 16 dt <= 0.5 taken: negated, dt > 1/32), solved in both
 * theories: each solution, a double, satisfies its query exactly. */
static void shapes(int floats)
{
    solver_z3 *s = make(floats);
    fpath t;
    fp_init(&t);
    uint32_t res = fp_var(&t, SYM_VAR_DOUBLE, sym_var_real_bits(1.0));
    uint32_t dt = fp_var(&t, SYM_VAR_DOUBLE, sym_var_real_bits(0.001));
    fp_branch(&t, res, 1, SYM_EXPR_GT, 0);
    fp_branch(&t, dt, 1, SYM_EXPR_GT, 0);
    fp_branch(&t, dt, 1, SYM_EXPR_LE, 0.1);
    fp_branch(&t, res, 1, SYM_EXPR_GE, 1e-6); /* 3: res < 1e-6 was false */
    fp_branch(&t, dt, 16, SYM_EXPR_LE, 0.5);  /* 4: the CFL number 16 dt above 0.5 was false */
    int64_t v[MAXV];
    solve(s, &t, 3, 1, v);
    double r = sym_var_real_value(v[res]);
    MG_CHECK(r > 0 && r < 1e-6);
    MG_CHECK(sym_var_real_value(v[dt]) == 0.001); /* not in the slice */
    solve(s, &t, 4, 1, v);
    double d = sym_var_real_value(v[dt]);
    MG_CHECK(d > 0 && d <= 0.1 && 16 * d > 0.5);
    MG_CHECK(sym_var_real_value(v[res]) == 1.0);
    /* 16 dt <= 2 always holds under dt <= 0.1: its negation is unsatisfiable */
    fp_branch(&t, dt, 16, SYM_EXPR_LE, 2);
    solve(s, &t, 5, 0, v);
    fp_free(&t);
    solver_z3_destroy(s);
}

static void test_shapes(void)
{
    shapes(SOLVER_Z3_FLOATS_REAL);
    shapes(SOLVER_Z3_FLOATS_FP);
}

/* (double)n * 0.5 > 10 not taken, n an int: the integer variable converted in the float side. A
 * float variable in binary32 under FP: f > 0.1 gives a float above 0.1. */
static void mixed(int floats, int semantics)
{
    solver_z3_params p;
    solver_z3_params_default(&p);
    p.floats = floats;
    p.semantics = semantics;
    p.timeout_ms = 0; /* the deterministic budget only: a loaded machine stays out of it */
    solver_z3 *s = NULL;
    MG_CHECK_INT(solver_z3_create(&p, &s), 0);
    fpath t;
    fp_init(&t);
    uint32_t n = fp_var(&t, SYM_VAR_INT, 1);
    uint32_t f = fp_var(&t, SYM_VAR_FLOAT, sym_var_real_bits(0));
    fp_branch(&t, n, 0.5, SYM_EXPR_LE, 10);
    fp_branch(&t, f, 1, SYM_EXPR_LE, 0.1);
    int64_t v[MAXV];
    solve(s, &t, 0, 1, v);
    MG_CHECK(v[n] > 20 && v[n] <= INT32_MAX);
    solve(s, &t, 1, 1, v);
    MG_CHECK((float)sym_var_real_value(v[f]) > 0.1);
    fp_free(&t);
    solver_z3_destroy(s);
}

static void test_int_in_float_side(void)
{
    mixed(SOLVER_Z3_FLOATS_REAL, SOLVER_Z3_INT);
    mixed(SOLVER_Z3_FLOATS_FP, SOLVER_Z3_INT);
    mixed(SOLVER_Z3_FLOATS_REAL, SOLVER_Z3_BITVECTOR);
    mixed(SOLVER_Z3_FLOATS_FP, SOLVER_Z3_BITVECTOR);
}

/* A log whose double values are NaN and infinite (a program that read them): the other
 * variable's negation is solved, the NaN one keeps its bits, and the infinite one (a constraint
 * res > 0 logged while it was infinite) gets a finite solution. */
static void non_finite(int floats)
{
    solver_z3 *s = make(floats);
    fpath t;
    fp_init(&t);
    uint32_t nan = fp_var(&t, SYM_VAR_DOUBLE, sym_var_real_bits(NAN));
    uint32_t inf = fp_var(&t, SYM_VAR_DOUBLE, sym_var_real_bits(INFINITY));
    fp_branch(&t, inf, 1, SYM_EXPR_GT, 0);
    fp_branch(&t, inf, 1, SYM_EXPR_GE, 1e-6);
    int64_t v[MAXV];
    solve(s, &t, 1, 1, v);
    MG_CHECK(isnan(sym_var_real_value(v[nan])));
    double r = sym_var_real_value(v[inf]);
    MG_CHECK(isfinite(r) && r > 0 && r < 1e-6);
    /* negating res > 0 under FP: a finite non-positive double, never NaN */
    solve(s, &t, 0, 1, v);
    r = sym_var_real_value(v[inf]);
    MG_CHECK(!isnan(r) && r <= 0);
    fp_free(&t);
    solver_z3_destroy(s);
}

static void test_nan_and_infinity(void)
{
    non_finite(SOLVER_Z3_FLOATS_REAL);
    non_finite(SOLVER_Z3_FLOATS_FP);
}

static void test_bad_arguments(void)
{
    solver_z3_params p;
    solver_z3_params_default(&p);
    MG_CHECK_INT(p.floats, SOLVER_Z3_FLOATS_REAL);
    p.floats = 2;
    solver_z3 *s = NULL;
    MG_CHECK_INT(solver_z3_create(&p, &s), MG_ERROR_EINVAL);
    /* a Real variable in an integer expression */
    s = make(SOLVER_Z3_FLOATS_REAL);
    sym_var v = {0, SYM_VAR_DOUBLE, SYM_VAR_SORT_REAL, 0, 0, SYM_VAR_NO_COMM, 0};
    sym_expr lhs, rhs;
    MG_CHECK_INT(sym_expr_init_var(&lhs, 0, 1), 0);
    sym_expr_init_const(&rhs, 1);
    sym_expr_pred pr;
    MG_CHECK_INT(sym_expr_pred_make(&pr, &lhs, SYM_EXPR_LT, &rhs, 0, 0), 0);
    const sym_expr_pred *pp = &pr;
    uint32_t solve_ids[1] = {0};
    solver_z3_targets t = {solve_ids, 1, NULL, 0};
    int sat;
    int64_t out[1];
    MG_CHECK_INT(solver_z3_check(s, &v, 1, &pp, 1, &t, &sat, out), MG_ERROR_EINVAL);
    sym_expr_pred_free(&pr);
    sym_expr_free(&lhs);
    solver_z3_destroy(s);
}

int main(void)
{
    MG_RUN(test_expressions);
    MG_RUN(test_path_log);
    MG_RUN(test_shapes);
    MG_RUN(test_int_in_float_side);
    MG_RUN(test_nan_and_infinity);
    MG_RUN(test_bad_arguments);
    MG_TEST_END();
}
