/* Rank 0 finds its input invalid after the first exchange and leaves with exit(3), an error
 * status, without MPI_Finalize; rank 1 finalizes. The process exits normally (no signal): not a
 * crash. Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * mpi: completes abort hang
 * expect: no_finalize ranks 0 line 19
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, input = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&input, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && input == 0)
        exit(3);
    MPI_Finalize();
    return 0;
}
