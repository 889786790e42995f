/* The project's second executable: counts the ranks whose block is larger than the average. */
#include "grid.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, n = 10, larger = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int big = grid_cells(n, size, rank) * size > n;
    MPI_Reduce(&big, &larger, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d of %d ranks hold more than the average\n", larger, size);
    MPI_Finalize();
    return 0;
}
