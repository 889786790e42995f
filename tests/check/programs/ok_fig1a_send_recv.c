/* MUST paper Fig. 1a: rank 0 sends, rank 1 receives.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return x == 42 ? 0 : 1;
}
