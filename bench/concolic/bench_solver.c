/* Micro-benchmark of solving cost: Z3 time per query, incremental (one context, push/pop prefix
 * sharing) vs a fresh context per query, on synthetic path constraint sets explored in DFS
 * order (docs/design/concolic-solver.md §8; dissertation §3.2.1). No MPI.
 * Usage: bench_solver [seed]   Prints one line per path length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mg_error.h"
#include "mg_rng.h"
#include "solver_query.h"
#include "solver_z3.h"

/* The dissertation's programs marked 13-24 variables; their reduced constraint sets stayed under
 * ~500 constraints (Figures 2.10-2.12). */
#define NVARS 24
#define CAP 1000
static const uint32_t lengths[] = {50, 200, 500};

/* Two synthetic shapes: "sanity" is what input checks produce (one variable, or two with unit
 * coefficients, against constants); "mixed" is denser arithmetic (three terms, coefficients up
 * to +-9). */
typedef struct workload {
    const char *name;
    int max_terms;
    int64_t max_coef;
    uint32_t max_length; /* "mixed" at 500 took over 10 minutes of this shared machine */
} workload;
static const workload workloads[] = {{"sanity", 2, 1, 500}, {"mixed", 3, 9, 200}};

/* CPU time of this process: the machine is shared, so wall time would measure the neighbours. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A path of n constraints over NVARS capped inputs, each true under the logged values. */
static int make_path(mg_rng *rng, const workload *w, uint32_t n, path_log *log)
{
    memset(log, 0, sizeof *log);
    log->vars = calloc(NVARS, sizeof *log->vars);
    log->branches = calloc(n, sizeof *log->branches);
    if (!log->vars || !log->branches)
        return MG_ERROR_ENOMEM;
    log->nvars = NVARS;
    int64_t values[NVARS];
    for (uint32_t i = 0; i < NVARS; i++) {
        values[i] = (int64_t)mg_rng_below(rng, CAP + 1);
        log->vars[i] = (sym_var){i, SYM_VAR_INT, SYM_VAR_SORT_INT, 1, CAP, SYM_VAR_NO_COMM, values[i]};
    }
    for (uint32_t b = 0; b < n; b++) {
        sym_expr acc, term, next, rhs;
        sym_expr_init_const(&acc, 0);
        int terms = 1 + (int)mg_rng_below(rng, (uint64_t)w->max_terms);
        for (int t = 0; t < terms; t++) {
            int64_t coef = 1 + (int64_t)mg_rng_below(rng, (uint64_t)w->max_coef);
            if (mg_rng_next(rng) & 1)
                coef = -coef;
            if (sym_expr_init_var(&term, (uint32_t)mg_rng_below(rng, NVARS), coef) != 0 ||
                sym_expr_add(&next, &acc, &term) != 0)
                return MG_ERROR_ENOMEM;
            sym_expr_free(&acc);
            sym_expr_free(&term);
            acc = next;
        }
        int64_t v;
        sym_expr_eval(&acc, values, NVARS, &v);
        /* an inequality with some slack, or a disequality, that holds now */
        int op = mg_rng_below(rng, 4) == 0 ? SYM_EXPR_NE : SYM_EXPR_LE;
        sym_expr_init_const(&rhs, op == SYM_EXPR_NE ? v + 1 + (int64_t)mg_rng_below(rng, 20)
                                               : v + (int64_t)mg_rng_below(rng, 200));
        log->branches[b].branch_id = b;
        log->branches[b].taken = 1;
        int rc = sym_expr_pred_make(&log->branches[b].pred, &acc, op, &rhs, 0, 0);
        sym_expr_free(&acc);
        if (rc != 0)
            return rc;
        log->nbranches++;
    }
    return 0;
}

static void free_path(path_log *log)
{
    for (uint32_t i = 0; i < log->nbranches; i++)
        sym_expr_pred_free(&log->branches[i].pred);
    free(log->vars);
    free(log->branches);
}

typedef struct result {
    double ms;
    int sat, unsat, failed;
    uint8_t *answers;
} result;

/* DFS order over one path: negate constraint 0, 1, ..., n-1, each with its prefix slice. */
static int run(const path_log *log, int incremental, result *r)
{
    solver_z3_params p;
    solver_z3_params_default(&p);
    p.incremental = incremental;
    mpi_semantics_params mp;
    mpi_semantics_params_default(&mp);
    solver_z3 *s;
    int rc = solver_z3_create(&p, &s);
    if (rc != 0)
        return rc;
    int64_t values[NVARS];
    double t0 = now_ms();
    for (uint32_t k = 0; k < log->nbranches; k++) {
        int sat = 0;
        rc = solver_query_solve(s, log, k, &mp, &sat, values);
        r->answers[k] = rc != 0 ? 2 : (uint8_t)sat;
        if (rc != 0)
            r->failed++;
        else if (sat)
            r->sat++;
        else
            r->unsat++;
    }
    r->ms = now_ms() - t0;
    solver_z3_destroy(s);
    return 0;
}

static int bench_one(const workload *w, uint32_t n, uint64_t seed)
{
    mg_rng rng;
    mg_rng_seed(&rng, seed);
    path_log log;
    memset(&log, 0, sizeof log);
    result fr = {0}, in = {0};
    fr.answers = calloc(n, 1);
    in.answers = calloc(n, 1);
    int rc = fr.answers && in.answers ? make_path(&rng, w, n, &log) : MG_ERROR_ENOMEM;
    if (rc == 0)
        rc = run(&log, 0, &fr);
    if (rc == 0)
        rc = run(&log, 1, &in);
    if (rc == 0) {
        int disagree = 0;
        for (uint32_t k = 0; k < n; k++)
            disagree += fr.answers[k] != in.answers[k];
        printf("  %-7s %5u %6d %6d %12.3f %12.3f %8.1f %9d\n", w->name, n, in.sat, in.unsat,
               fr.ms / n, in.ms / n, fr.ms / in.ms, disagree + fr.failed + in.failed);
    }
    free_path(&log);
    free(fr.answers);
    free(in.answers);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("# bench_solver seed=%llu vars=%d cap=%d; CPU ms per query, DFS order over one path\n",
           (unsigned long long)seed, NVARS, CAP);
    printf("# %-7s %5s %6s %6s %12s %12s %8s %9s\n", "shape", "path", "sat", "unsat", "fresh_ms/q",
           "incr_ms/q", "speedup", "disagree");
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
        for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
            if (lengths[i] > workloads[w].max_length)
                continue;
            if (bench_one(&workloads[w], lengths[i], seed + i) != 0) {
                fprintf(stderr, "bench_solver: setup or solver failure\n");
                return 1;
            }
        }
    }
    return 0;
}
