/* A helper completes the send request it was given by value: its MPI_Wait sets the helper's copy
 * to MPI_REQUEST_NULL, not the caller's, so the caller's MPI_Test afterwards tests a request
 * already freed, reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: request_freed ranks 0 line 26
 */
#include <mpi.h>

static void finish(MPI_Request request)
{
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, value = 9, done = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Isend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        finish(req);
        MPI_Test(&req, &done, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
