/* Branches on double inputs, the shapes of issue 30 item 2: a residual threshold, a CFL-like
 * condition and a position cast to a cell index. The inputs are checked the way a solver checks
 * its parameters, so random doubles in [-100, 100] almost never pass (docs/concolic.md
 * "Floating-point inputs"). The first argument, when given, is the initial residual (the
 * bad-input test passes nan and inf).
 *   F1: a position of exactly 1.0 (the right boundary, which the check lets through) goes to
 *       cell CELLS, one past the histogram: assertion. */
#include <assert.h>
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>

#define CELLS 16
#define MAX_STEPS 8

/* Halves the residual until it is below the threshold; the steps it took, MAX_STEPS if never. */
static int converge(double residual)
{
    int steps = 0;
    for (double res = residual; steps < MAX_STEPS; steps++) {
        if (res < 1e-6) /* the residual threshold */
            break;
        res = res * 0.5;
    }
    return steps;
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double residual = argc > 1 ? strtod(argv[1], NULL) : 1.0, dt = 0.001, velocity = 1.0, pos = 0.5;
    mpiguard_double(&residual);
    mpiguard_double(&dt);
    mpiguard_double(&velocity);
    mpiguard_double(&pos);
    /* Written as !(in range) so that a NaN is rejected too. */
    if (!(residual > 0) || !(dt > 0 && dt <= 0.1) || !(velocity > 0 && velocity <= 10) ||
        !(pos >= 0 && pos <= 1)) {
        if (rank == 0)
            fprintf(stderr, "floats: an input is out of range\n");
        MPI_Finalize();
        return 1;
    }
    double dx = 1.0 / CELLS, cfl = dt * velocity / dx;
    if (cfl > 0.5) { /* the CFL condition */
        if (rank == 0)
            printf("floats: CFL number %.3f above 0.5: the step is halved\n", cfl);
        dt = dt / 2;
    }
    int steps = converge(residual);
    if (steps < MAX_STEPS && rank == 0)
        printf("floats: converged after %d steps\n", steps);
    int hist[CELLS] = {0}, cell;
    if (pos < 1.0)
        cell = (int)(pos * CELLS);
    else
        cell = CELLS; /* F1: the boundary belongs to the last cell, CELLS - 1 */
    assert(cell < CELLS);
    hist[cell]++;
    double local = dt * hist[cell] + rank, total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("floats: total %.3f over %d ranks\n", total, np);
    MPI_Finalize();
    return 0;
}
