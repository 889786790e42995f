/* The same sequence of Bcast, Reduce and Allreduce on every rank, with the same roots and ops.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0, sum = 0, max = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 1)
        x = 7;
    MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD);
    MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return x == 7 && max == size - 1 && (rank != 2 || sum == 7 * size) ? 0 : 1;
}
