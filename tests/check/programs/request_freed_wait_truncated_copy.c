/* Rank 1 keeps a copy of its receive request, whose message is longer than its buffer: under
 * MPI_ERRORS_RETURN the MPI_Wait returns MPI_ERR_TRUNCATE, and both MPIs free the request and set
 * the handle it was given to MPI_REQUEST_NULL as a completion does, so the second Wait, on the
 * copy, waits on a request already freed. Issue 28 (a Wait that returns an error).
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: truncation ranks 0,1 line 26
 * expect: request_freed ranks 1 line 24
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value[4] = {1, 2, 3, 4};
    MPI_Request req, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Irecv(value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        copy = req;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Wait(&copy, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(value, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
