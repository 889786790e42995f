/* Rank 0 posts receives from both workers and calls MPI_Waitany once, as if one answer were
 * enough: the other receive completes in MPI but is never waited for nor freed by MPI_Finalize.
 * Issue 28 items 3 and 8.
 * np: 3
 * slice: none
 * expect: request_not_completed ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, answers[3] = {0}, which;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int worker = 1; worker <= 2; worker++)
            MPI_Irecv(&answers[worker], 1, MPI_INT, worker, 0, MPI_COMM_WORLD, /* <- reported */
                      &requests[worker - 1]);
        MPI_Waitany(2, requests, &which, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
