/* Allocation-failure sweep over mg_solver: the test links with -Wl,--wrap for malloc, calloc
 * and realloc, fails the Nth allocation made by the library for N = 0, 1, 2, ... and checks
 * that every call either succeeds or returns MG_ERROR_ENOMEM with nothing leaked (LeakSanitizer in the
 * sanitizer build) and the object still usable (docs/design/concolic-solver.md §9). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_test.h"
#include "path_log.h"
#include "path_reduce.h"
#include "cfg_distance.h"
#include "cfg_graph_text.h"
#include "search_snapshot.h"
#include "search.h"
#include "solver_query.h"

/* -1: never fail; otherwise the number of allocations still allowed. */
static long countdown = -1;
static int injected;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static int fail_now(void)
{
    if (countdown < 0)
        return 0;
    if (countdown == 0) {
        injected = 1;
        return 1;
    }
    countdown--;
    return 0;
}

void *__wrap_malloc(size_t n)
{
    return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fail_now() ? NULL : __real_realloc(p, n);
}

#define BUILD 99
#define MAX_SWEEP 10000

/* Runs fn with the Nth allocation failing, for growing N, until a run needs no failure. */
static void sweep(int (*fn)(void *), void *arg, const char *name)
{
    for (long n = 0; n < MAX_SWEEP; n++) {
        countdown = n;
        injected = 0;
        int rc = fn(arg);
        countdown = -1;
        if (!injected) {
            MG_CHECK_INT(rc, 0);
            MG_CHECK(n > 0); /* the wrapping reached the library: some allocation failed */
            return;
        }
        if (rc != MG_ERROR_ENOMEM) {
            fprintf(stderr, "%s: allocation %ld failed, rc %d\n", name, n, rc);
            MG_CHECK_INT(rc, MG_ERROR_ENOMEM);
        }
    }
    MG_CHECK(0);
}

/* A heavy log: world rank and size, an input, a communicator and a rank in it, four branches. */
typedef struct sample {
    uint8_t buf[2048];
    size_t len;
} sample;

static void put(sample *s, int rc, const size_t *n)
{
    MG_CHECK_INT(rc, 0);
    s->len += *n;
}

static void build_sample(sample *s)
{
    size_t n;
    s->len = 0;
    path_log_header h = {PATH_LOG_HEAVY, BUILD, 1, 0, 4, PATH_LOG_VERSION};
    put(s, path_log_put_header(s->buf, sizeof s->buf, &n, &h), &n);
    sym_var vars[4] = {
        {0, SYM_VAR_RANK_WORLD, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 0},
        {1, SYM_VAR_SIZE_WORLD, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 4},
        {2, SYM_VAR_INT, SYM_VAR_SORT_INT, 1, 100, SYM_VAR_NO_COMM, 5},
        {3, SYM_VAR_RANK_COMM, SYM_VAR_SORT_INT, 0, 0, 0, 0},
    };
    for (int i = 0; i < 3; i++)
        put(s, path_log_put_var(s->buf + s->len, sizeof s->buf - s->len, &n, &vars[i]), &n);
    uint32_t g[2] = {0, 3};
    sym_var_comm c = {0, 2, g};
    put(s, path_log_put_comm(s->buf + s->len, sizeof s->buf - s->len, &n, &c), &n);
    put(s, path_log_put_var(s->buf + s->len, sizeof s->buf - s->len, &n, &vars[3]), &n);
    for (uint32_t b = 0; b < 4; b++) {
        sym_expr lhs, k;
        sym_expr_init_var(&lhs, b, 1);
        sym_expr_init_const(&k, b == 1 ? 8 : 7);
        path_log_branch br = {b, 1, {0}};
        sym_expr_pred_make(&br.pred, &lhs, SYM_EXPR_LT, &k, 32, 0);
        put(s, path_log_put_branch(s->buf + s->len, sizeof s->buf - s->len, &n, &br), &n);
        sym_expr_pred_free(&br.pred);
        sym_expr_free(&lhs);
    }
    uint32_t arms[3] = {1, 3, 5};
    put(s, path_log_put_cover(s->buf + s->len, sizeof s->buf - s->len, &n, arms, 3), &n);
}

static int do_decode(void *arg)
{
    sample *s = arg;
    path_log_expect e = {BUILD, 0};
    path_log log;
    int rc = path_log_decode(s->buf, s->len, &e, NULL, &log);
    if (rc == 0 && (log.nbranches != 4 || log.cover.n != 3))
        rc = MG_ERROR_EFORMAT;
    path_log_free(&log);
    return rc;
}

static int do_query(void *arg)
{
    const path_log *log = arg;
    mpi_semantics_params p;
    mpi_semantics_params_default(&p);
    int rc = 0;
    for (uint32_t target = 0; rc == 0 && target < log->nbranches; target++) {
        solver_query q;
        rc = solver_query_build(log, target, &p, &q);
        solver_query_free(&q);
    }
    return rc;
}

typedef struct solve_arg {
    const path_log *log;
    solver_z3 *s;
} solve_arg;

/* The solver object outlives each failed call and must stay consistent: the answers after a
 * failure are the hand-computed ones (rank >= 7, size >= 8, x >= 7 satisfiable; the
 * communicator rank >= 7 is not, its communicator has 2 ranks). */
static int do_solve(void *arg)
{
    static const int expect[4] = {1, 1, 1, 0};
    solve_arg *a = arg;
    mpi_semantics_params p;
    mpi_semantics_params_default(&p);
    int64_t values[8];
    int sat = 0, rc = 0;
    for (uint32_t target = 0; rc == 0 && target < a->log->nbranches; target++) {
        rc = solver_query_solve(a->s, a->log, target, &p, &sat, values);
        if (rc == 0 && sat != expect[target])
            rc = MG_ERROR_ESTATE;
    }
    return rc;
}

static int do_reduce(void *arg)
{
    (void)arg;
    path_reduce pr;
    int rc = path_reduce_init(&pr, 1);
    for (uint32_t id = 0; rc == 0 && id < 200; id++) {
        int rec;
        rc = path_reduce_admit(&pr, id % 50, (int)(id / 50) % 2, &rec);
        if (rc == 0 && rec != 1)
            rc = MG_ERROR_ESTATE;
    }
    path_reduce_free(&pr);
    return rc;
}

static int do_search(void *arg)
{
    (void)arg;
    search_params p;
    search_params_default(&p);
    p.kind = SEARCH_DFS;
    search_state *s;
    int rc = search_create(&p, &s);
    if (rc != 0)
        return rc;
    search_step path[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    search_choice c;
    for (int i = 0; rc == 0 && i < 40; i++) {
        rc = search_observe(s, path, 4);
        if (rc == 0)
            rc = search_next(s, NULL, NULL, NULL, &c);
    }
    search_destroy(s);
    return rc;
}

/* Snapshot a DFS state with a few levels and read it back. */
static int do_snapshot(void *arg)
{
    (void)arg;
    search_params p;
    search_params_default(&p);
    search_state *s = NULL, *back = NULL;
    char *text = NULL;
    size_t len;
    search_step path[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    search_choice c;
    int rc = search_create(&p, &s);
    for (int i = 0; rc == 0 && i < 3; i++) {
        rc = search_observe(s, path, 4);
        if (rc == 0)
            rc = search_next(s, NULL, NULL, NULL, &c);
    }
    if (rc == 0)
        rc = search_snapshot_write(s, &text, &len);
    if (rc == 0)
        rc = search_snapshot_read(text, len, &back);
    free(text);
    search_destroy(s);
    search_destroy(back);
    return rc;
}

/* Parse a graph, compute both kinds of distances, format it again. */
static int do_cfg(void *arg)
{
    (void)arg;
    static const char text[] = "mpiguard-cfg 1\nbuild_id 00000000000000aa\n"
                               "nodes 4 branches 2 edges 4 targets 4\nb 0 0\nb 1 2\n"
                               "e 0 1\ne 0 2\ne 2 3\ne 3 0\nt 0 1\nt 1 2\nt 2 3\nt 3 0\nend\n";
    cfg_graph g;
    coverage_set cov;
    coverage_set_init(&cov);
    uint32_t arm = 1, dist[4], hops[2];
    char *out = NULL;
    size_t len;
    int rc = cfg_graph_text_parse(text, sizeof text - 1, &g);
    if (rc == 0)
        rc = coverage_set_add(&cov, &arm, 1);
    if (rc == 0)
        rc = cfg_distance_to_uncovered(&g, &cov, dist, 4);
    if (rc == 0)
        rc = cfg_distance_from_arm(&g, 2, hops);
    if (rc == 0)
        rc = cfg_graph_text_format(&g, &out, &len);
    if (rc == 0 && (dist[1] != 1 || hops[0] != 1 || len != sizeof text - 1))
        rc = MG_ERROR_ESTATE;
    free(out);
    cfg_graph_free(&g);
    coverage_set_free(&cov);
    return rc;
}

static int do_encode(void *arg)
{
    const path_log *log = arg;
    uint8_t *bytes = NULL;
    size_t n;
    int rc = path_log_encode(log, &bytes, &n);
    free(bytes);
    return rc;
}

static int do_exprs(void *arg)
{
    (void)arg;
    sym_expr a, b, sum;
    sym_expr_pred p;
    sym_expr_pred_list l;
    sym_expr_pred_list_init(&l);
    sym_expr_init_const(&b, 0);
    sym_expr_init_const(&sum, 0);
    int rc = sym_expr_init_var(&a, 1, 2);
    if (rc == 0)
        rc = sym_expr_init_var(&b, 2, 3);
    if (rc == 0)
        rc = sym_expr_add(&sum, &a, &b);
    if (rc == 0 && (rc = sym_expr_pred_make(&p, &sum, SYM_EXPR_LE, &a, 0, 0)) == 0 &&
        (rc = sym_expr_pred_list_push(&l, &p)) != 0)
        sym_expr_pred_free(&p);
    for (uint32_t i = 0; rc == 0 && i < 20; i++)
        rc = sym_expr_pred_list_push_relation(&l, i, SYM_EXPR_NE, i + 1);
    sym_expr_pred_list_free(&l);
    sym_expr_free(&a);
    sym_expr_free(&b);
    sym_expr_free(&sum);
    return rc;
}

static int do_coverage(void *arg)
{
    (void)arg;
    coverage_set a, b;
    coverage_set_init(&a);
    coverage_set_init(&b);
    uint32_t arms[4] = {8, 2, 6, 2};
    int rc = coverage_set_add(&a, arms, 4);
    if (rc == 0)
        rc = coverage_set_add(&b, arms + 1, 2);
    if (rc == 0)
        rc = coverage_set_merge(&a, &b);
    if (rc == 0 && a.n != 3)
        rc = MG_ERROR_ESTATE;
    coverage_set_free(&a);
    coverage_set_free(&b);
    return rc;
}

static void test_sweeps(void)
{
    sample s;
    build_sample(&s);
    sweep(do_decode, &s, "decode");
    path_log log;
    path_log_expect e = {BUILD, 0};
    MG_CHECK_INT(path_log_decode(s.buf, s.len, &e, NULL, &log), 0);
    sweep(do_query, &log, "query");
    sweep(do_encode, &log, "encode");
    solver_z3_params zp;
    solver_z3_params_default(&zp);
    solve_arg a = {&log, NULL};
    MG_CHECK_INT(solver_z3_create(&zp, &a.s), 0);
    sweep(do_solve, &a, "solve");
    solver_z3_destroy(a.s);
    path_log_free(&log);
    sweep(do_reduce, NULL, "reduce");
    sweep(do_search, NULL, "search");
    sweep(do_snapshot, NULL, "snapshot");
    sweep(do_cfg, NULL, "cfg");
    sweep(do_exprs, NULL, "exprs");
    sweep(do_coverage, NULL, "coverage");
}

int main(void)
{
    MG_RUN(test_sweeps);
    MG_TEST_END();
}
