/* Splits n cells over the ranks and sums each rank's block: the library's bug fires when rank 0's
 * block has 7 cells (n = 7 at one process, 9 at two, 11 at three, ...). */
#include "grid.h"

#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, n = 4;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpiguard_int(&n);
    int mine = grid_cells(n, size, rank);
    if (mine < 0 || n > 100) {
        if (rank == 0)
            fprintf(stderr, "solve: bad cell count %d\n", n);
        MPI_Finalize();
        return 1;
    }
    int *cells = calloc((size_t)mine + 1, sizeof *cells);
    for (int i = 0; i < mine; i++)
        cells[i] = rank + i;
    long local = grid_sum(cells, mine), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %ld in %.0f s\n", total, grid_clock() * 0);
    free(cells);
    MPI_Finalize();
    return 0;
}
