/* Rank 0 leaves with exit(0) without MPI_Finalize; rank 1 then waits for its message forever.
 * mpi: completes abort
 * np: 2
 * slice: none
 * expect: no_finalize ranks 0 line 17
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 18,17
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        exit(0);
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Finalize();
    return 0;
}
