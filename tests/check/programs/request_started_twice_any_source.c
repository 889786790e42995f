/* Rank 0 restarts its persistent wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) after an
 * MPI_Test that found nothing, as if the Test had ended it. Errors return here, so the job goes
 * on. Issue 28 items 3 and 8 (persistent requests, wildcards).
 * np: 2
 * slice: none
 * expect: request_started_twice ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0, done = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Recv_init(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &request);
        MPI_Start(&request);
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (!done)
            MPI_Start(&request); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&request);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
