/* Rank 0 sends with a persistent synchronous send (MPI_Ssend_init), started and completed once,
 * and never freed; rank 1 frees its persistent receive. Issue 28 items 3 and 8 (persistent
 * requests).
 * np: 2
 * slice: none
 * expect: request_not_freed ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 5;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Ssend_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
    else
        MPI_Recv_init(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (rank == 1)
        MPI_Request_free(&request);
    MPI_Finalize();
    return 0;
}
