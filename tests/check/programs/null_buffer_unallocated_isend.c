/* Only rank 0 allocates the send buffer (the allocation sits in a rank-0 branch by mistake); rank
 * 1 sends from its NULL pointer with a positive count. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: null_buffer ranks 1 line 23
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, *values = NULL, received[8];
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        values = calloc(8, sizeof *values);
        MPI_Send(values, 8, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(received, 8, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend(values, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, &request); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(values);
    MPI_Finalize();
    return 0;
}
