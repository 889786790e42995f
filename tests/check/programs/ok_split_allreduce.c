/* MPI_Comm_split into even and odd ranks; each half reduces over its own communicator.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return sum == (rank % 2 ? 4 : 2) ? 0 : 1;
}
