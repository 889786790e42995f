/* A target for `mpiguard concolic` shaped like a real MPI code: inputs read then sanity-checked,
 * work split by rank, a loop solver. Planted bugs (tests/concolic/suite.sh lists them):
 *   B1 input:  a crash when the grid width is exactly 37 (a value the sanity check allows)
 *   B2 rank:   an assertion failure only on rank 2 when the mode input is 3
 *   B3 np:     a division by zero with 2 or 4 processes but not 1 or 3 (SUSY-HMC's shape)
 *   B4 loop:   an abort in the 7th iteration of the solver loop (rank 0; reached through the
 *              loop count only)
 *   B5 combo:  a crash when the tolerance input is 5 with an odd number (3) of processes */
#include <assert.h>
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>

static int check_inputs(int width, int mode, int iters, int tol)
{
    if (width < 1 || width > 64)
        return 0;
    if (mode < 0 || mode > 4)
        return 0;
    if (iters < 0 || iters > 20)
        return 0;
    return tol >= 0 && tol <= 10;
}

/* The planes each process owns after the lattice is split over `dims` directions: the layout
 * leaves a zero divisor with 2 and 4 processes but not with 1, 3 or 5 (SUSY-HMC's shape). */
static int planes_per_rank(int np)
{
    int dims = 1, extra = 1;
    if (np >= 2) {
        dims = 2;
        extra = 0;
    }
    if (np >= 4)
        dims = 4;
    return 8 / (np - dims + extra);
}

double planted_solve(int iters, int width, int rank);

int main(int argc, char **argv)
{
    int rank, np, width = 8, mode = 0, iters = 3, tol = 1;
    MPI_Init(&argc, &argv);
    mpiguard_int(&width);
    mpiguard_int(&mode);
    mpiguard_int_with_limit(&iters, 20);
    mpiguard_int(&tol);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (!check_inputs(width, mode, iters, tol)) {
        if (rank == 0)
            fprintf(stderr, "bad input\n");
        MPI_Finalize();
        return 1;
    }
    int *grid = NULL;
    if (width == 37)
        *grid = 1; /* B1 */
    if (rank == 2 && mode == 3)
        assert(mode != 3);            /* B2 */
    int planes = planes_per_rank(np); /* B3 */
    if (tol == 5 && np == 3 && rank == 1)
        *grid = 2; /* B5 */
    double local = planted_solve(iters, width, rank) * planes, total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("total %.3f\n", total);
    MPI_Finalize();
    return 0;
}
