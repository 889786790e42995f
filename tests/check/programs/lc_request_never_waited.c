/* Rank 0 posts an Isend that is matched and received but never waited for or freed: the request
 * is still live at MPI_Finalize. Issue 28 item 3.
 * np: 2
 * expect: request_not_completed ranks 0 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 7;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Isend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
    else
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
