/* Rank 1 checks the value it received, finds it bad and calls exit(0) from the branch, skipping
 * MPI_Finalize; rank 0 finalizes. Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * mpi: completes abort hang
 * expect: no_finalize ranks 1 line 21
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, value = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (value < 0)
            exit(0);
    }
    MPI_Finalize();
    return 0;
}
