/* Four MPI_INT sent, received as MPI_DOUBLE (room enough, so MPI itself says nothing: the data
 * is silently wrong). Issue 28 item 1.
 * np: 2
 * expect: type_mismatch ranks 0,1 line 16
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[4] = {1, 2, 3, 4};
    double doubles[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(ints, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(doubles, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
