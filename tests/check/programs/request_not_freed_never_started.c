/* Rank 1 sets up a persistent send for an optional report it never sends (the option is off):
 * the request is never started and never freed. Issue 28 items 3 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: request_not_freed ranks 1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, report = 0, reporting = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Send_init(&report, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &request); /* <- reported */
        if (reporting) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
