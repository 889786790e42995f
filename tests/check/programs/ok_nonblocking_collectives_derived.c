/* Correct: nonblocking collectives whose blocks are described differently but alike in their
 * signatures: an Ibcast of one contiguous(4, MPI_INT) at the root against 4 MPI_INT elsewhere, an
 * Iallreduce with MPI_IN_PLACE, and an Ibarrier, completed together with MPI_Waitall. Issue 28
 * items 1 and 8 (nonblocking collectives, in-place, derived types).
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, block[4] = {1, 2, 3, 4};
    double sum[2] = {1.0, 2.0};
    MPI_Datatype quad;
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    if (rank == 0)
        MPI_Ibcast(block, 1, quad, 0, MPI_COMM_WORLD, &requests[0]);
    else
        MPI_Ibcast(block, 4, MPI_INT, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Iallreduce(MPI_IN_PLACE, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
    MPI_Ibarrier(MPI_COMM_WORLD, &requests[2]);
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    MPI_Type_free(&quad);
    MPI_Finalize();
    return 0;
}
