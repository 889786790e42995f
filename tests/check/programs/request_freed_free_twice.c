/* Rank 1 posts a receive, lets MPI free it when it completes (MPI_Request_free of an active
 * request is legal) and later frees a copy of the handle again: MPI_Request_free of a request
 * already freed, reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: request_freed ranks 1 line 28
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 3;
    MPI_Request req, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Irecv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        copy = req;
        MPI_Request_free(&req);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Request_free(&copy); /* <- reported */
    MPI_Finalize();
    return 0;
}
