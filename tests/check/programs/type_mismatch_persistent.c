/* A persistent exchange set up with different types on the two sides: rank 0's MPI_Send_init of
 * MPI_FLOAT, rank 1's MPI_Recv_init of MPI_INT, each started twice. The first matched pair is
 * reported (the second is the same pair of calls). Issue 28 items 1 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: type_mismatch ranks 0,1 line 19
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, counts[4] = {0};
    float values[4] = {0};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send_init(values, 4, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
    else
        MPI_Recv_init(counts, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
    for (int step = 0; step < 2; step++) {
        MPI_Start(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
    MPI_Finalize();
    return 0;
}
