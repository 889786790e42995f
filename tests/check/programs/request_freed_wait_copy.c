/* Rank 0 keeps a copy of its send request and waits on both: the first MPI_Wait completes the
 * request, frees it and sets only the handle it was given to MPI_REQUEST_NULL, so the second waits
 * on a request already freed, reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: request_freed ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 7;
    MPI_Request req, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Isend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        copy = req;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Wait(&copy, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
