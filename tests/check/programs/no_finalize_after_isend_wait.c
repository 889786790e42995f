/* Rank 1 sends its result with MPI_Isend, waits for it and returns from a helper with exit(0)
 * instead of returning to main, where MPI_Finalize was: a rank of a 3-rank job that leaves
 * without finalizing while the others finalize. Issue 28 items 3 and 8.
 * np: 3
 * slice: none
 * mpi: completes abort hang
 * expect: no_finalize ranks 1 line 17
 */
#include <mpi.h>
#include <stdlib.h>

static void send_result_and_leave(int result)
{
    MPI_Request request;
    MPI_Isend(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    exit(0);
}

int main(int argc, char **argv)
{
    int rank, result = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Recv(&result, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (rank == 1)
        send_result_and_leave(rank * 10);
    MPI_Finalize();
    return 0;
}
