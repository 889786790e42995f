/* Signed overflows that only machine-integer semantics reaches (`--int-semantics bv`): the
 * block's byte count (int, 32 bits) wraps for cells of 2^28 or more, the step total (long, 64
 * bits) for steps above 2^63 / 10^6, and each check after them is true only for a wrapped value.
 * With unbounded integers 8 * cells < cells has no positive solution (nor the long one), and
 * random restarts ([-100, 100]) never come near. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, cells = 16;
    long steps = 10;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mpiguard_int(&cells);
    mpiguard_long(&steps);
    if (cells <= 0 || steps <= 0) { /* the program's own input check */
        MPI_Finalize();
        return 1;
    }
    int bytes = cells * 8; /* OVERFLOW-INT */
    if (bytes < cells)     /* WRAPPED-INT */
        printf("rank %d: %d cells in %d bytes\n", rank, cells, bytes);
    else {
        long total = steps * 1000000; /* OVERFLOW-LONG */
        if (total < steps)            /* WRAPPED-LONG */
            printf("rank %d: %ld steps, %ld in total\n", rank, steps, total);
    }
    MPI_Finalize();
    return 0;
}
