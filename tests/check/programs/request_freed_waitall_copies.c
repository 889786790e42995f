/* Rank 0 posts two sends and keeps a copy of the array; after MPI_Waitall completed and freed
 * both, it waits on the copies again: requests already freed in the second MPI_Waitall (the
 * first of the array is named), reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: request_freed ranks 0 line 24
 */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, values[2] = {1, 2};
    MPI_Request reqs[2], copies[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Isend(&values[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(&values[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[1]);
        memcpy(copies, reqs, sizeof reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        MPI_Waitall(2, copies, MPI_STATUSES_IGNORE); /* <- reported */
    } else {
        MPI_Recv(&values[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&values[1], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
