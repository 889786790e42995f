/* Bcast on both halves of an MPI_Comm_split, each from its own local root 0, then a WORLD
 * Barrier.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sub, x = 0;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
    MPI_Comm_rank(half, &sub);
    if (sub == 0)
        x = 100 + rank;
    MPI_Bcast(&x, 1, MPI_INT, 0, half);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return x == 100 + (rank & ~1) ? 0 : 1;
}
