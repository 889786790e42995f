/* A target for `mpiguard concolic` shaped like a real MPI code: a 1-D heat-equation solver
 * (explicit Jacobi steps on a rod). The parameters come from the command line as name=value
 * (else the defaults), are marked as inputs and sanity-checked; the rod's cells are split into
 * blocks by rank, each step exchanges one halo cell with each neighbour (MPI_Sendrecv), and the
 * loop stops when the largest change falls under the tolerance. Planted bugs (marked by a
 * comment on their line; tests/concolic/suite.sh checks each one):
 *   H1 input: 1024 cells (the largest the check allows): the output buffer holds MAX_CELLS + 1
 *             values, not the cells + 2 the gather writes (assertion)
 *   H2 rank:  a heat source on a cell owned by a rank other than 0: the owner records the
 *             source's temperature in a trace only rank 0 allocated (SIGSEGV on the owner)
 *   H3 np:    the residual's recursive-doubling reduction assumes a power-of-two process count
 *             (assertion with 3, 5 or 6 processes, not with 1, 2 or 4)
 *   H4 loop:  the residual history keeps every stride-th step with the stride rounded down, so
 *             a run of 13 to 23 steps overflows it at its 13th step (25 to 35 at the 25th, 37 to
 *             40 at the 37th; assertion)
 *   H5 combo: a periodic rod with the source on cell 0: the last rank adds the source's share to
 *             the rod's last cell through an unsigned index computed as if cell -1 existed, which
 *             wraps unless the last rank is rank 0 (SIGSEGV; needs boundary 2, source 0, 2 or more
 *             processes, the last rank) */
#include <assert.h>
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CELLS = 1024, MAX_TEMP = 5000, HIST_LEN = 12 };
enum { BC_FIXED, BC_INSULATED, BC_PERIODIC };
#define DIFFUSION 0.25  /* alpha dt / dx^2: stable below 0.5 */
#define SOURCE_HEAT 8.0 /* kelvin per step */

typedef struct params {
    int cells;  /* cells of the rod */
    int steps;  /* at most this many steps */
    int t_left; /* boundary and initial temperatures, kelvin */
    int t_right;
    int tol_exp;  /* stop when the largest change is below 10^-tol_exp */
    int boundary; /* BC_FIXED: both ends held; BC_INSULATED: right end insulated; BC_PERIODIC */
    int source;   /* cell heated every step, -1 for none */
} params;

/* Reads name=value arguments (cells=512 steps=40 ...), then marks every parameter as an input, in
 * the table's order; cap > 0 bounds the input (the step count's cap keeps runs short). */
static void read_params(params *p, int argc, char **argv)
{
    const struct {
        const char *name;
        int *value;
        long long cap;
    } opt[] = {{"cells", &p->cells, 0},     {"steps", &p->steps, 40},
               {"t_left", &p->t_left, 0},   {"t_right", &p->t_right, 0},
               {"tol_exp", &p->tol_exp, 0}, {"boundary", &p->boundary, 0},
               {"source", &p->source, 0}};
    const size_t nopt = sizeof opt / sizeof *opt;
    for (int a = 1; a < argc; a++) {
        const char *eq = strchr(argv[a], '=');
        for (size_t k = 0; eq && k < nopt; k++)
            if (strlen(opt[k].name) == (size_t)(eq - argv[a]) &&
                !strncmp(argv[a], opt[k].name, (size_t)(eq - argv[a])))
                *opt[k].value = atoi(eq + 1);
    }
    for (size_t k = 0; k < nopt; k++) {
        if (opt[k].cap > 0)
            mpiguard_int_with_limit(opt[k].value, opt[k].cap);
        else
            mpiguard_int(opt[k].value);
    }
}

static const char *check_params(const params *p, int np)
{
    if (p->cells < 1 || p->cells > MAX_CELLS)
        return "cells must be in 1..1024";
    if (p->cells < np)
        return "fewer cells than processes";
    if (p->steps < 1)
        return "steps must be positive";
    if (p->t_left < 0 || p->t_right < 0)
        return "temperatures are in kelvin";
    if (p->t_left > MAX_TEMP || p->t_right > MAX_TEMP)
        return "temperatures above 5000 K";
    if (p->tol_exp < 1 || p->tol_exp > 12)
        return "tolerance exponent must be in 1..12";
    if (p->boundary < BC_FIXED || p->boundary > BC_PERIODIC)
        return "boundary must be 0 (fixed), 1 (insulated) or 2 (periodic)";
    if (p->source < -1 || p->source >= p->cells)
        return "source cell outside the rod";
    return NULL;
}

/* The largest change over all ranks, by recursive doubling: written when the code ran on 2^k
 * processes only. */
static double global_max(double x, int rank, int np)
{
    for (int mask = 1; mask < np; mask <<= 1) {
        int partner = rank ^ mask;
        assert(partner < np); /* H3 */
        double y;
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, partner, 2, &y, 1, MPI_DOUBLE, partner, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (y > x)
            x = y;
    }
    return x;
}

/* The source heats its cell by half of SOURCE_HEAT and each neighbour by a quarter; this rank
 * owns cells lo..lo+n-1, stored at v[1..n]. */
static void add_source(double *v, int n, int lo, int rank, int np, const params *p)
{
    int s = p->source;
    if (s >= lo && s < lo + n)
        v[s - lo + 1] += SOURCE_HEAT / 2;
    if (s - 1 >= lo && s - 1 < lo + n)
        v[s - lo] += SOURCE_HEAT / 4;
    if (s + 1 >= lo && s + 1 < lo + n)
        v[s - lo + 2] += SOURCE_HEAT / 4;
    if (p->boundary != BC_PERIODIC)
        return;
    if (s == p->cells - 1 && rank == 0)
        v[1] += SOURCE_HEAT / 4; /* cell 0 is the right neighbour of the last cell */
    if (s == 0 && rank == np - 1) {
        unsigned k = (unsigned)(s - 1 - lo) + 1; /* the last cell is the left neighbour of cell 0 */
        v[k] += SOURCE_HEAT / 4;                 /* H5 */
    }
}

static double rod[MAX_CELLS + 1]; /* every rank's copy of the whole rod, for the output */

/* The buffer for the whole rod and its two boundary values. */
static double *rod_buffer(int cells)
{
    assert(cells + 2 <= (int)(sizeof rod / sizeof *rod)); /* H1 */
    return rod;
}

/* Gathers the whole rod on every rank into out[0..cells+1], boundaries included (out:
 * rod_buffer's). */
static void gather_rod(double *out, const double *u, int n, int lo, int np, const params *p)
{
    int *counts = malloc(np * sizeof *counts), *displs = malloc(np * sizeof *displs);
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&lo, 1, MPI_INT, displs, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgatherv(u + 1, n, MPI_DOUBLE, out + 1, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    out[0] = p->boundary == BC_PERIODIC ? out[p->cells] : p->t_left;
    out[p->cells + 1] = p->boundary == BC_FIXED ? p->t_right : out[p->cells];
    free(counts);
    free(displs);
}

int main(int argc, char **argv)
{
    params p = {.cells = 64,
                .steps = 10,
                .t_left = 300,
                .t_right = 350,
                .tol_exp = 6,
                .boundary = BC_FIXED,
                .source = -1};
    int rank, np;
    MPI_Init(&argc, &argv);
    read_params(&p, argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *bad = check_params(&p, np);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "heat: %s\n", bad);
        MPI_Finalize();
        return 1;
    }

    /* The residual history keeps HIST_LEN entries: every stride-th step of long runs. */
    double hist[HIST_LEN];
    int nhist = 0, stride = p.steps > HIST_LEN ? p.steps / HIST_LEN : 1;
    double *out = rod_buffer(p.cells);

    /* Blocks of cells by rank, the first cells % np ranks one cell larger. */
    int base = p.cells / np, rem = p.cells % np;
    int n = rank < rem ? base + 1 : base;
    int lo = rank * base + (rank < rem ? rank : rem);
    int left = rank - 1, right = rank + 1;
    if (rank == 0)
        left = p.boundary == BC_PERIODIC ? np - 1 : MPI_PROC_NULL;
    if (rank == np - 1)
        right = p.boundary == BC_PERIODIC ? 0 : MPI_PROC_NULL;

    double *u = calloc(n + 2, sizeof *u), *v = calloc(n + 2, sizeof *v);
    double *trace = rank == 0 ? calloc(p.steps, sizeof *trace) : NULL; /* rank 0 prints it */
    for (int i = 1; i <= n; i++)
        u[i] = lo + i - 1 < p.cells / 2 ? p.t_left : p.t_right;
    double tol = 1;
    for (int k = 0; k < p.tol_exp; k++)
        tol /= 10;

    int step = 0;
    double res = 0;
    for (; step < p.steps; step++) {
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank == 0 && p.boundary != BC_PERIODIC)
            u[0] = p.t_left;
        if (rank == np - 1 && p.boundary == BC_FIXED)
            u[n + 1] = p.t_right;
        else if (rank == np - 1 && p.boundary == BC_INSULATED)
            u[n + 1] = u[n];
        double change = 0;
        for (int i = 1; i <= n; i++) {
            v[i] = u[i] + DIFFUSION * (u[i - 1] - 2 * u[i] + u[i + 1]);
            double d = v[i] > u[i] ? v[i] - u[i] : u[i] - v[i];
            if (d > change)
                change = d;
        }
        if (p.source >= 0) {
            add_source(v, n, lo, rank, np, &p);
            if (p.source >= lo && p.source < lo + n)
                trace[step] = v[p.source - lo + 1]; /* H2 */
        }
        double *t = u;
        u = v;
        v = t;
        res = global_max(change, rank, np);
        if (step % stride == 0) {
            assert(nhist < HIST_LEN); /* H4 */
            hist[nhist++] = res;
        }
        if (res < tol) {
            step++;
            break;
        }
    }

    gather_rod(out, u, n, lo, np, &p);
    if (rank == 0) {
        double sum = 0;
        for (int i = 1; i <= p.cells; i++)
            sum += out[i];
        printf("%d steps, residual %.3g, mean %.3f K\n", step, res, sum / p.cells);
        for (int k = 0; k < nhist; k++)
            printf("  residual[%d] %.3g\n", k * stride, hist[k]);
        if (p.source >= 0 && p.source < n)
            printf("  source reached %.3f K\n", trace[step - 1]);
    }
    free(trace);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
