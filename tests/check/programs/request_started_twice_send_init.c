/* Rank 0 starts its persistent send a second time before completing the first start (the Wait is
 * after the second Start). MPI refuses the second Start. Errors return here, so the job goes on.
 * Issue 28 items 3 and 8 (persistent requests).
 * MPICH only: Open MPI accepts the second MPI_Start (new request): request_not_completed too.
 * flavors: mpich
 * np: 2
 * slice: none
 * expect: request_started_twice ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 3;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Start(&request);
        MPI_Start(&request); /* <- reported */
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&request);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
