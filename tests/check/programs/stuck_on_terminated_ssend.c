/* Rank 1 synchronously sends to rank 0, which finalized without receiving it. Issue 28 item 8.
 * mpi: hang
 * np: 2
 * slice: none
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 15,16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, result = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Ssend(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
