/* A persistent send and receive, started and completed three times, never freed: each rank
 * keeps an inactive persistent request at MPI_Finalize. Issue 28 item 3.
 * np: 2
 * expect: request_not_freed ranks 0 line 16
 * expect: request_not_freed ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request); /* <- reported 0 */
    else
        MPI_Recv_init(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request); /* <- reported 1 */
    for (int i = 0; i < 3; i++) {
        MPI_Start(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
