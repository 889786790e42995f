/* Unit tests of constraint-set reduction (dissertation §2.4.3, Figure 2.8) and of the dependent
 * slice (§3.2.1) (docs/design/concolic-solver.md §3). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "path_reduce.h"
#include "path_slice.h"

/* Figure 2.8: x = 0 before `for (i = 0; ...; i++) if (x + i < 100) do_A();`, run until the
 * branch fails at i = 100. The runtime sees branch 7 taken 100 times then not taken once. */
static void test_figure_2_8(void)
{
    enum { RUNS = 101 };
    path_log_branch path[RUNS];
    memset(path, 0, sizeof path);
    for (int i = 0; i < RUNS; i++) {
        sym_expr lhs, k;
        sym_expr_init_var(&lhs, 0, 1);
        sym_expr_init_const(&k, 100 - i); /* x + i < 100  <=>  x < 100 - i */
        path[i].branch_id = 7;
        path[i].taken = i < 100;
        MG_CHECK_INT(sym_expr_pred_make(&path[i].pred, &lhs, i < 100 ? SYM_EXPR_LT : SYM_EXPR_GE, &k, 32, 0), 0);
        sym_expr_free(&lhs);
    }
    uint32_t keep[RUNS], nkeep = 0;
    MG_CHECK_INT(path_reduce_apply(path, RUNS, keep, &nkeep), 0);
    /* 101 constraints become two: x < 100 (first) and x >= 0 (the flip at i = 100) */
    MG_CHECK_INT(nkeep, 2);
    MG_CHECK_INT(keep[0], 0);
    MG_CHECK_INT(keep[1], 100);
    MG_CHECK_INT(path[keep[0]].pred.rhs.constant, 100);
    for (int i = 0; i < RUNS; i++)
        sym_expr_pred_free(&path[i].pred);
}

/* Two branches in one loop body, alternating outcomes for one of them: every flip is kept. */
static void test_interleaved_flips(void)
{
    path_reduce pr;
    MG_CHECK_INT(path_reduce_init(&pr, 1), 0);
    /* (branch, taken) -> expected record */
    static const int seq[][3] = {
        {1, 1, 1}, {2, 0, 1}, {1, 1, 0}, {2, 1, 1}, {1, 1, 0}, {2, 0, 1}, {1, 0, 1}, {1, 0, 0},
    };
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        int rec = -1;
        MG_CHECK_INT(path_reduce_admit(&pr, (uint32_t)seq[i][0], seq[i][1], &rec), 0);
        MG_CHECK_INT(rec, seq[i][2]);
    }
    /* growth past the initial size keeps every remembered outcome */
    for (uint32_t id = 100; id < 1100; id++) {
        int rec;
        MG_CHECK_INT(path_reduce_admit(&pr, id, 1, &rec), 0);
        MG_CHECK_INT(rec, 1);
    }
    for (uint32_t id = 100; id < 1100; id++) {
        int rec;
        MG_CHECK_INT(path_reduce_admit(&pr, id, 1, &rec), 0);
        MG_CHECK_INT(rec, 0);
    }
    int rec;
    MG_CHECK_INT(path_reduce_admit(&pr, 1, 0, &rec), 0);
    MG_CHECK_INT(rec, 0);
    MG_CHECK_INT(path_reduce_admit(&pr, 1, 0, NULL), MG_ERROR_EINVAL);
    path_reduce_free(&pr);
    MG_CHECK_INT(path_reduce_admit(&pr, 1, 0, &rec), MG_ERROR_EINVAL);
    path_reduce_free(NULL);
    MG_CHECK_INT(path_reduce_init(NULL, 1), MG_ERROR_EINVAL);
    uint32_t nk;
    MG_CHECK_INT(path_reduce_apply(NULL, 3, NULL, &nk), MG_ERROR_EINVAL);
}

/* A branch whose predicate is a (lhs op const) over the listed variables. */
static void make_branch(path_log_branch *b, uint32_t id, const uint32_t *vars, int nv)
{
    sym_expr acc, t, next, k;
    sym_expr_init_const(&acc, 0);
    for (int i = 0; i < nv; i++) {
        sym_expr_init_var(&t, vars[i], 1);
        sym_expr_add(&next, &acc, &t);
        sym_expr_free(&acc);
        sym_expr_free(&t);
        acc = next;
    }
    sym_expr_init_const(&k, 0);
    b->branch_id = id;
    b->taken = 1;
    sym_expr_pred_make(&b->pred, &acc, SYM_EXPR_GE, &k, 0, 0);
    sym_expr_free(&acc);
}

static void test_slice(void)
{
    /* vars: 0 a, 1 b, 2 c, 3 d (inputs), 4 world rank, 5 world size */
    sym_var vars[6];
    for (uint32_t i = 0; i < 6; i++)
        vars[i] = (sym_var){i, SYM_VAR_INT, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 0};
    vars[4].kind = SYM_VAR_RANK_WORLD;
    vars[5].kind = SYM_VAR_SIZE_WORLD;
    path_log_branch path[7];
    static const uint32_t v_a[] = {0}, v_b[] = {1}, v_ab[] = {0, 1}, v_c[] = {2}, v_cd[] = {2, 3},
                          v_r[] = {4}, v_s[] = {5};
    make_branch(&path[0], 10, v_a, 1);  /* a */
    make_branch(&path[1], 11, v_c, 1);  /* c */
    make_branch(&path[2], 12, v_b, 1);  /* b */
    make_branch(&path[3], 13, v_r, 1);  /* rank */
    make_branch(&path[4], 14, v_ab, 2); /* a + b: joins a and b */
    make_branch(&path[5], 15, v_s, 1);  /* size: same group as rank */
    make_branch(&path[6], 16, v_cd, 2); /* c + d */
    uint32_t out[7], n = 99;
    /* negating branch 2 (b): a and b are joined only at branch 4, after the target, so b
     * stands alone */
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 2, out, &n), 0);
    MG_CHECK_INT(n, 0);
    /* negating branch 4 (a + b) needs branches 0 (a) and 2 (b), not 1 (c) or 3 (rank) */
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 4, out, &n), 0);
    MG_CHECK_INT(n, 2);
    MG_CHECK_INT(out[0], 0);
    MG_CHECK_INT(out[1], 2);
    /* negating the size constraint pulls in the rank constraint (MPI relation) only */
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 5, out, &n), 0);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(out[0], 3);
    /* c + d depends on c */
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 6, out, &n), 0);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(out[0], 1);
    /* bad arguments */
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 7, out, &n), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_slice(vars, 3, path, 7, 3, out, &n), MG_ERROR_EINVAL); /* var 4 past nvars */
    MG_CHECK_INT(path_slice(NULL, 6, path, 7, 3, out, &n), MG_ERROR_EINVAL);
    /* a constant constraint has an empty slice */
    sym_expr_pred_free(&path[6].pred);
    sym_expr one;
    sym_expr_init_const(&one, 1);
    sym_expr_pred_make(&path[6].pred, &one, SYM_EXPR_GT, &one, 0, 0);
    MG_CHECK_INT(path_slice(vars, 6, path, 7, 6, out, &n), 0);
    MG_CHECK_INT(n, 0);
    for (int i = 0; i < 7; i++)
        sym_expr_pred_free(&path[i].pred);
}

int main(void)
{
    MG_RUN(test_figure_2_8);
    MG_RUN(test_interleaved_flips);
    MG_RUN(test_slice);
    MG_TEST_END();
}
