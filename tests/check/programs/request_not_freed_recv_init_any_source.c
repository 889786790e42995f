/* Rank 0 serves requests from any worker with a persistent wildcard receive (MPI_ANY_SOURCE),
 * started and completed once per worker, and never frees it. Issue 28 items 3 and 8 (persistent
 * requests, wildcards).
 * np: 3
 * checks: -message_race
 * slice: none
 * expect: request_not_freed ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, job = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        MPI_Recv_init(&job, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                      &request); /* <- reported */
        for (int served = 1; served < size; served++) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
